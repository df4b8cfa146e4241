# The readers library in the Windows cross build (included by readers/CMakeLists.txt): the
# libraries the Linux build finds with pkg-config, from the prefix scripts/windows/deps.sh builds.
# Loaded at run time as on Linux (mcpread/common/lazy_library.hpp): libvips-42.dll, libzip-4.dll,
# libxml2-2.dll beside mcp-read.exe; their headers only here.
target_include_directories(mcpread_readers SYSTEM PRIVATE ${mcpread_win_include}
  ${mcpread_win_include}/libxml2 ${mcpread_win_deps}/vips/include
  ${mcpread_win_deps}/vips/include/glib-2.0 ${mcpread_win_deps}/vips/lib/glib-2.0/include)
target_link_libraries(mcpread_readers PRIVATE mcpread::whatwg_decoder
  ${mcpread_win_deps}/lib/libpugixml.a ${mcpread_win_deps}/lib/libdeflate.a)
add_dependencies(mcpread_readers mcpread_whatwg_decoder_build)
# libtesseract and leptonica: their C headers, for types and prototypes only (tess_api.hpp), are
# the build machine's Debian headers (libtesseract-dev, libleptonica-dev), copied into the build
# tree so that no other header of /usr/include can reach the Windows compile.
foreach(dir tesseract leptonica)
  if(NOT EXISTS /usr/include/${dir})
    message(FATAL_ERROR "/usr/include/${dir} is missing: install libtesseract-dev and libleptonica-dev")
  endif()
  file(COPY /usr/include/${dir} DESTINATION ${CMAKE_BINARY_DIR}/host-headers)
endforeach()
target_include_directories(mcpread_readers SYSTEM PRIVATE ${CMAKE_BINARY_DIR}/host-headers)
# No iconv on Windows: the system's code pages stand in for it (src/charset/codepage_iconv.cpp).
target_sources(mcpread_readers PRIVATE ${PROJECT_SOURCE_DIR}/readers/src/charset/codepage_iconv.cpp)
# ICU is not shipped for Windows: HZ-GB-2312 text says that its decoder is missing. The soname
# below is never found there.
set_property(SOURCE ${PROJECT_SOURCE_DIR}/readers/src/charset/icu_converter.cpp APPEND PROPERTY
  COMPILE_DEFINITIONS MCPREAD_ICU_MAJOR=72)
# The PDF plugin, libmcpread_pdf.dll (pdf_plugin/), sits beside mcp-read.exe (no install tree
# there).
add_subdirectory(${CMAKE_CURRENT_SOURCE_DIR}/pdf_plugin)
target_compile_definitions(mcpread_readers PRIVATE MCPREAD_PDF_PLUGIN_DIR="" MCPREAD_PDF_PLUGIN_RELATIVE_DIR=".")
