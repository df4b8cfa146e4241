# The Windows x64 cross build (cmake/toolchain-mingw64.cmake, scripts/windows/): the parts ported
# so far, against the dependency prefix scripts/windows/deps.sh builds. Included by the top-level
# CMakeLists.txt in place of the Linux dependency lookups; the Linux build never reads this file.
# Built: mcpread::common, mcpread::protocol, the readers library (cmake/windows-readers.cmake),
# the server and mcp-read.exe, the PDF plugin as libmcpread_pdf.dll, the encoding_rs shim and
# the Windows suites (windows-tests.cmake); docs/portability.md, "The Windows build".
if(NOT MCPREAD_WINDOWS_PREFIX)
  message(FATAL_ERROR "MCPREAD_WINDOWS_PREFIX: the prefix scripts/windows/deps.sh prints")
endif()
# The prefix is reached through a link in the build tree, so that compile lines name a path under
# the source tree whichever recipe hash the prefix has: ccache (CCACHE_BASEDIR) then reuses
# objects across recipe changes and worktrees, still keyed on the headers' contents.
set(mcpread_win_deps ${CMAKE_BINARY_DIR}/windows-deps)
file(CREATE_LINK ${MCPREAD_WINDOWS_PREFIX} ${mcpread_win_deps} SYMBOLIC)
set(mcpread_win_include ${mcpread_win_deps}/include)

find_package(Threads REQUIRED)
# mingw declares the POSIX thread-safe time calls (gmtime_r, localtime_r) only when asked.
# A 64-bit off_t and struct stat (_stat64): sizes of files over 2 GiB.
add_compile_definitions(_POSIX_THREAD_SAFE_FUNCTIONS=200112L _FILE_OFFSET_BITS=64)
# Header-only libraries (Debian's headers, linked into the prefix): imported targets under the
# names the Linux build's packages export.
add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
set_target_properties(nlohmann_json::nlohmann_json PROPERTIES
  INTERFACE_INCLUDE_DIRECTORIES ${mcpread_win_include})
add_library(Boost::headers INTERFACE IMPORTED)
# Asio on Windows: sockets are Winsock 2 (ws2_32, mswsock); Windows 7's API (0x0601) is the
# oldest Asio supports without falling back to select().
set_target_properties(Boost::headers PROPERTIES INTERFACE_INCLUDE_DIRECTORIES ${mcpread_win_include}
  INTERFACE_COMPILE_DEFINITIONS "_WIN32_WINNT=0x0601;WIN32_LEAN_AND_MEAN;NOMINMAX"
  INTERFACE_LINK_LIBRARIES "ws2_32;mswsock")
add_library(doctest::doctest INTERFACE IMPORTED)
set_target_properties(doctest::doctest PROPERTIES INTERFACE_INCLUDE_DIRECTORIES ${mcpread_win_include})

# Static archives from the prefix, as mcpread::<name> like the Linux build's.
function(mcpread_windows_archive name file)
  if(NOT EXISTS ${mcpread_win_deps}/lib/${file})
    message(FATAL_ERROR "${file} is not in ${MCPREAD_WINDOWS_PREFIX}/lib (scripts/windows/deps.sh)")
  endif()
  add_library(mcpread_${name} INTERFACE)
  add_library(mcpread::${name} ALIAS mcpread_${name})
  target_include_directories(mcpread_${name} SYSTEM INTERFACE ${mcpread_win_include})
  target_link_libraries(mcpread_${name} INTERFACE ${mcpread_win_deps}/lib/${file} ${ARGN})
endfunction()
mcpread_windows_archive(nettle libnettle.a)
mcpread_windows_archive(uchardet libuchardet.a)
# libmagic (file's source) with TRE as its regex library; its database is the prefix's
# share/misc/magic.mgc.
mcpread_windows_archive(libmagic libmagic.a ${mcpread_win_deps}/lib/libgnurx.a shlwapi)
# spdlog over fmt, both header-only.
add_library(mcpread_spdlog INTERFACE)
add_library(mcpread::spdlog ALIAS mcpread_spdlog)
target_include_directories(mcpread_spdlog SYSTEM INTERFACE ${mcpread_win_include})
target_compile_definitions(mcpread_spdlog INTERFACE SPDLOG_FMT_EXTERNAL FMT_HEADER_ONLY)
target_link_libraries(mcpread_spdlog INTERFACE Threads::Threads)

# The encoding_rs shim (readers/src/charset/whatwg_decoder/), built by cargo for
# x86_64-pc-windows-gnu with Debian's Windows standard library (libstd-rust-dev-windows).
find_program(MCPREAD_CARGO cargo HINTS /usr/bin REQUIRED)
find_program(MCPREAD_RUSTC rustc HINTS /usr/bin REQUIRED)
include(${PROJECT_SOURCE_DIR}/cmake/whatwg_shim.cmake)
mcpread_add_whatwg_shim(${CMAKE_BINARY_DIR}/whatwg_decoder x86_64-pc-windows-gnu)
add_dependencies(mcpread_whatwg_decoder mcpread_whatwg_decoder_build)
# What Rust's standard library needs from Windows (rustc --print native-static-libs).
target_link_libraries(mcpread_whatwg_decoder INTERFACE advapi32 userenv kernel32 ws2_32 bcrypt)

# Everything is linked statically (libstdc++, libgcc, winpthreads), so each .exe runs on its own,
# under Wine or on Windows, without mingw's DLLs beside it.
add_link_options(-static)

add_subdirectory(common)
# platform.hpp's random_bytes (BCryptGenRandom) is the one system library common/ needs.
target_link_libraries(mcpread_common INTERFACE bcrypt)
add_subdirectory(protocol)
add_subdirectory(readers)
add_subdirectory(server)


if(MCPREAD_BUILD_TESTS)
  enable_testing()
  include(${PROJECT_SOURCE_DIR}/cmake/windows-tests.cmake)
endif()
