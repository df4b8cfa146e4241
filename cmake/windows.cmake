# The Windows x64 cross build (cmake/toolchain-mingw64.cmake, scripts/windows/): the parts ported
# so far, against the dependency prefix scripts/windows/deps.sh builds. Included by the top-level
# CMakeLists.txt in place of the Linux dependency lookups; the Linux build never reads this file.
# Built: mcpread::common, mcpread::protocol and their unit tests (tests/unit/protocol and the
# platform tests). Not yet: the readers (libmagic, iconv, libvips, ...), the server and
# mcp-read.exe (docs/portability.md, "The Windows build").
if(NOT MCPREAD_WINDOWS_PREFIX)
  message(FATAL_ERROR "MCPREAD_WINDOWS_PREFIX: the prefix scripts/windows/deps.sh prints")
endif()
set(mcpread_win_include ${MCPREAD_WINDOWS_PREFIX}/include)

find_package(Threads REQUIRED)
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
  find_library(MCPREAD_WIN_${name} NAMES ${file} PATHS ${MCPREAD_WINDOWS_PREFIX}/lib NO_DEFAULT_PATH
    REQUIRED)
  add_library(mcpread_${name} INTERFACE)
  add_library(mcpread::${name} ALIAS mcpread_${name})
  target_include_directories(mcpread_${name} SYSTEM INTERFACE ${mcpread_win_include})
  target_link_libraries(mcpread_${name} INTERFACE ${MCPREAD_WIN_${name}})
endfunction()
mcpread_windows_archive(nettle libnettle.a)
mcpread_windows_archive(uchardet libuchardet.a)
# platform.hpp's random_bytes (BCryptGenRandom) is the one system library common/ needs.
add_library(mcpread_spdlog INTERFACE)
add_library(mcpread::spdlog ALIAS mcpread_spdlog)
target_include_directories(mcpread_spdlog SYSTEM INTERFACE ${mcpread_win_include})
target_compile_definitions(mcpread_spdlog INTERFACE SPDLOG_FMT_EXTERNAL FMT_HEADER_ONLY)
target_link_libraries(mcpread_spdlog INTERFACE Threads::Threads)

add_subdirectory(common)
target_link_libraries(mcpread_common INTERFACE bcrypt)
add_subdirectory(protocol)

# Everything is linked statically (libstdc++, libgcc, winpthreads), so each .exe runs on its own,
# under Wine or on Windows, without mingw's DLLs beside it.
add_link_options(-static)

if(MCPREAD_BUILD_TESTS)
  enable_testing()
  include(${PROJECT_SOURCE_DIR}/cmake/windows-tests.cmake)
endif()
