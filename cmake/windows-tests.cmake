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
add_executable(mcpread_platform_tests ${mcpread_tests}/unit/readers/test_platform.cpp
  ${mcpread_tests}/unit/readers/test_windows_paths.cpp ${mcpread_tests}/unit/readers/test_lazy_library.cpp
  ${mcpread_tests}/windows/test_libraries.cpp
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
# The DLLs the readers load (libvips-42.dll from npm; libzip-4.dll, libxml2-2.dll,
# libarchive-13.dll and libfreexl-1.dll from Debian's sources, scripts/windows/deps.sh) beside the suite, where the
# bundle will put them beside mcp-read.exe: the loader looks for them in the executable's folder.
add_custom_command(TARGET mcpread_platform_tests POST_BUILD
  COMMAND ${CMAKE_COMMAND} -E copy_if_different ${mcpread_win_deps}/vips/lib/libvips-42.dll
    ${mcpread_win_deps}/bin/libzip-4.dll ${mcpread_win_deps}/bin/libxml2-2.dll
    ${mcpread_win_deps}/bin/libarchive-13.dll ${mcpread_win_deps}/bin/libfreexl-1.dll
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

# The Linux readers suite (tests/unit/readers/), cross-built: every file but those listed here,
# each with the reason it does not run under Windows yet. Cases inside a built file that Windows
# cannot hold say why in a MESSAGE instead.
set(mcpread_readers_not_on_windows
  # Already the platform suite's (above), which runs them with the DLL checks beside them.
  test_platform.cpp test_windows_paths.cpp test_lazy_library.cpp
  # POSIX through and through: fork and waitpid, Unix sockets, FIFOs, chmod'ed folders and
  # statfs; Windows' refusals are tests/windows/test_readers.cpp's and test_platform.cpp's.
  test_access.cpp test_access_refusals.cpp test_listing.cpp test_read_nowait.cpp
)
file(GLOB mcpread_readers_test_sources CONFIGURE_DEPENDS ${mcpread_tests}/unit/readers/*.cpp)
foreach(file ${mcpread_readers_not_on_windows})
  list(REMOVE_ITEM mcpread_readers_test_sources ${mcpread_tests}/unit/readers/${file})
endforeach()
# Its fixtures: files and charsets (fixtures.cpp, over code pages here), images (libvips-42.dll
# through its import library), PDFs (static qpdf), office packages (libzip, whose import
# library names libzip.dll: a second copy of libzip-4.dll under that name goes beside the suite;
# the readers load their own) and archives (libarchive, likewise as libarchive.dll).
add_library(mcpread_readers_test_support STATIC ${mcpread_tests}/support/fixtures.cpp
  ${mcpread_tests}/support/windows_encode.cpp ${mcpread_tests}/support/recorded_encodings.cpp
  ${mcpread_tests}/support/image_fixtures.cpp ${mcpread_tests}/support/pdf_fixtures.cpp
  ${mcpread_tests}/support/office_fixtures.cpp ${mcpread_tests}/support/slides_fixtures.cpp
  ${mcpread_tests}/support/ocr_fixtures.cpp ${mcpread_tests}/support/archive_fixtures.cpp
  ${mcpread_tests}/support/doc_fixtures.cpp ${mcpread_tests}/support/xls_fixtures.cpp)
target_include_directories(mcpread_readers_test_support SYSTEM PRIVATE ${mcpread_win_include}
  ${mcpread_win_deps}/vips/include ${mcpread_win_deps}/vips/include/glib-2.0
  ${mcpread_win_deps}/vips/lib/glib-2.0/include)
target_include_directories(mcpread_readers_test_support PRIVATE ${PROJECT_SOURCE_DIR}/readers/src)
target_compile_definitions(mcpread_readers_test_support PRIVATE POINTERHOLDER_TRANSITION=4)
target_link_libraries(mcpread_readers_test_support PUBLIC mcpread_test_support
  PRIVATE mcpread::warnings mcpread::common ${mcpread_win_deps}/vips/lib/libvips.lib
  ${mcpread_win_deps}/lib/libzip.dll.a ${mcpread_win_deps}/lib/libarchive.dll.a ${mcpread_win_deps}/lib/libqpdf.a ${mcpread_win_deps}/lib/libjpeg.a
  /usr/x86_64-w64-mingw32/lib/libz.a advapi32)

add_executable(mcpread_readers_tests ${mcpread_readers_test_sources}
  ${PROJECT_SOURCE_DIR}/server/src/app/hint_wording.cpp)
target_include_directories(mcpread_readers_tests PRIVATE ${PROJECT_SOURCE_DIR}/readers/src
  ${PROJECT_SOURCE_DIR}/server/src/app)
target_include_directories(mcpread_readers_tests SYSTEM PRIVATE ${mcpread_win_include}
  ${mcpread_win_include}/libxml2)
target_compile_definitions(mcpread_readers_tests PRIVATE MCPREAD_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
target_link_libraries(mcpread_readers_tests PRIVATE mcpread_readers_test_support mcpread::warnings
  mcpread::readers mcpread::common ${mcpread_win_deps}/lib/libdeflate.a)
add_dependencies(mcpread_readers_tests mcpread_pdf_plugin)  # loaded by the PDF tests, beside it
add_test(NAME readers COMMAND mcpread_readers_tests)
# Beside the suite, with the platform suite's DLLs: the fixtures' libzip.dll and libarchive.dll,
# and OCR's libtesseract-5.dll.
add_custom_command(TARGET mcpread_readers_tests POST_BUILD
  COMMAND ${CMAKE_COMMAND} -E copy_if_different ${mcpread_win_deps}/bin/libzip.dll
    ${mcpread_win_deps}/bin/libtesseract-5.dll ${mcpread_win_deps}/bin/libfreexl-1.dll
    $<TARGET_FILE_DIR:mcpread_readers_tests>/
  COMMAND ${CMAKE_COMMAND} -E copy_if_different ${mcpread_win_deps}/bin/libarchive-13.dll
    $<TARGET_FILE_DIR:mcpread_readers_tests>/libarchive.dll
  VERBATIM)

# The end-to-end suite (tests/e2e/), cross-built: the tests start mcp-read.exe (beside them in
# the build tree, with its DLLs) through the harness's Windows side (tests/e2e/os/*_windows.cpp)
# and speak to it over pipes and Winsock. Every file but those listed, each with its reason.
set(mcpread_e2e_not_on_windows
  # Its cases end servers with SIGTERM and SIGINT; Windows' console control events, which the
  # server maps to the same shutdown, are tests/windows/test_console.cpp's (Wine sends none).
  test_http_shutdown.cpp
)
file(GLOB mcpread_e2e_test_sources CONFIGURE_DEPENDS ${mcpread_tests}/e2e/*.cpp)
foreach(file ${mcpread_e2e_not_on_windows})
  list(REMOVE_ITEM mcpread_e2e_test_sources ${mcpread_tests}/e2e/${file})
endforeach()
# The conformance fixture server, which test_http_listen.cpp starts, beside mcp-read.exe.
add_subdirectory(${PROJECT_SOURCE_DIR}/conformance/fixture ${CMAKE_BINARY_DIR}/conformance-fixture)
add_executable(mcpread_e2e_tests ${mcpread_e2e_test_sources}
  ${mcpread_tests}/e2e/os/child_process_windows.cpp ${mcpread_tests}/e2e/os/loopback_socket_windows.cpp
  ${mcpread_tests}/e2e/os/process_memory_windows.cpp)
target_include_directories(mcpread_e2e_tests PRIVATE ${mcpread_tests}/e2e)
target_compile_definitions(mcpread_e2e_tests PRIVATE MCPREAD_BINARY="$<TARGET_FILE:mcp-read>"
  MCPREAD_TEST_VERSION="${PROJECT_VERSION}"
  MCPREAD_FIXTURE_BINARY="$<TARGET_FILE:mcpread_conformance_fixture>")
target_link_libraries(mcpread_e2e_tests PRIVATE mcpread_readers_test_support mcpread::warnings
  Boost::headers mcpread::readers mcpread::common ws2_32 psapi)
add_dependencies(mcpread_e2e_tests mcp-read mcpread_pdf_plugin mcpread_conformance_fixture)
add_test(NAME e2e COMMAND mcpread_e2e_tests)
