# The unit suites of the Windows cross build (cmake/windows.cmake), run under Wine by
# scripts/windows/prove.sh. The support library holds only what these suites use: the doctest main
# and the schema validator (the fixtures need iconv, libvips, qpdf and libzip, not built yet).
set(mcpread_tests ${PROJECT_SOURCE_DIR}/tests)
add_library(mcpread_test_support STATIC ${mcpread_tests}/support/test_main.cpp
  ${mcpread_tests}/support/schema_validator.cpp)
target_include_directories(mcpread_test_support PUBLIC ${mcpread_tests}/support)
# The schemas are read at run time through Wine's Z: drive, which maps the build machine's /.
set(MCPREAD_SCHEMA_DIR "${PROJECT_SOURCE_DIR}/../shared/mcp-schema" CACHE PATH
  "Directory holding the official MCP JSON schemas, <version>.json")
target_compile_definitions(mcpread_test_support PUBLIC MCPREAD_SCHEMA_DIR="${MCPREAD_SCHEMA_DIR}")
# mcpread::common: windows_thread_exit.hpp, in test_main.cpp.
target_link_libraries(mcpread_test_support PUBLIC doctest::doctest nlohmann_json::nlohmann_json
  PRIVATE mcpread::warnings mcpread::common)

file(GLOB mcpread_protocol_test_sources CONFIGURE_DEPENDS ${mcpread_tests}/unit/protocol/*.cpp)
add_executable(mcpread_protocol_tests ${mcpread_protocol_test_sources})
target_include_directories(mcpread_protocol_tests PRIVATE ${PROJECT_SOURCE_DIR}/protocol/src)
target_link_libraries(mcpread_protocol_tests PRIVATE mcpread_test_support mcpread::warnings
  mcpread::protocol mcpread::common)
add_test(NAME protocol COMMAND mcpread_protocol_tests)

# The platform layer: its Windows branches (tests/unit/readers/test_platform.cpp), the Windows
# path rules (test_windows_paths.cpp) and the DLL loader (test_lazy_library.cpp), all of which
# also run, with their Linux cases, in the Linux readers suite.
# lazy_library.cpp (LoadLibraryExW) is compiled in directly until the readers library is built.
add_executable(mcpread_platform_tests ${mcpread_tests}/unit/readers/test_platform.cpp
  ${mcpread_tests}/unit/readers/test_windows_paths.cpp ${mcpread_tests}/unit/readers/test_lazy_library.cpp
  ${PROJECT_SOURCE_DIR}/readers/src/lazy_library.cpp ${mcpread_tests}/windows/test_libraries.cpp
  ${PROJECT_SOURCE_DIR}/readers/src/charset/whatwg_decoder.cpp ${mcpread_tests}/windows/test_console.cpp)
target_include_directories(mcpread_platform_tests PRIVATE ${PROJECT_SOURCE_DIR}/readers/src)
# tests/windows/test_libraries.cpp: the cross-built C libraries and the encoding_rs shim (through
# whatwg_decoder.cpp), before the readers use them; test_console.cpp: binary stdio and console
# control events, before the stdio transport uses them.
target_link_libraries(mcpread_platform_tests PRIVATE mcpread_test_support mcpread::warnings
  mcpread::common mcpread::libmagic mcpread::uchardet mcpread::nettle mcpread::whatwg_decoder
  ${mcpread_win_deps}/lib/libpugixml.a ${mcpread_win_deps}/lib/libdeflate.a)
target_compile_definitions(mcpread_platform_tests PRIVATE
  MCPREAD_TEST_MAGIC_DB="${mcpread_win_deps}/share/misc/magic.mgc")
add_test(NAME platform COMMAND mcpread_platform_tests)
# The DLLs the readers load (libvips-42.dll from npm; libzip-4.dll and libxml2-2.dll from Debian's
# sources, scripts/windows/deps.sh) beside the suite, where the bundle will put them beside
# mcp-read.exe: the loader looks for them in the executable's folder.
add_custom_command(TARGET mcpread_platform_tests POST_BUILD
  COMMAND ${CMAKE_COMMAND} -E copy_if_different ${mcpread_win_deps}/vips/lib/libvips-42.dll
    ${mcpread_win_deps}/bin/libzip-4.dll ${mcpread_win_deps}/bin/libxml2-2.dll
    $<TARGET_FILE_DIR:mcpread_platform_tests>/
  VERBATIM)

# A stand-in for Windows 10's bcryptprimitives.dll, which libvips-42.dll imports (ProcessPrng,
# from its Rust code) and Wine 8.0 lacks: built into wine-shims/, put beside the suites by
# scripts/windows/prove.sh for runs under Wine only, never shipped.
enable_language(C)
add_library(mcpread_wine_bcryptprimitives SHARED ${PROJECT_SOURCE_DIR}/scripts/windows/wine_bcryptprimitives.c)
set_target_properties(mcpread_wine_bcryptprimitives PROPERTIES OUTPUT_NAME bcryptprimitives PREFIX ""
  RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/wine-shims)
target_link_libraries(mcpread_wine_bcryptprimitives PRIVATE bcrypt)

# The readers library's Windows side on real files (tests/windows/test_readers.cpp).
add_executable(mcpread_readers_windows_tests ${mcpread_tests}/windows/test_readers.cpp)
target_include_directories(mcpread_readers_windows_tests PRIVATE ${PROJECT_SOURCE_DIR}/readers/src)
target_link_libraries(mcpread_readers_windows_tests PRIVATE mcpread_test_support mcpread::warnings
  mcpread::readers mcpread::common)
add_test(NAME readers_windows COMMAND mcpread_readers_windows_tests)
