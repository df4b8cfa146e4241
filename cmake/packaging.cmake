# Installation beyond the two targets (man page, documentation) and the Debian package that
# `cpack -G DEB` builds from a build tree. Included at the end of the top-level CMakeLists.txt.
include(GNUInstallDirs)

install(FILES "${PROJECT_SOURCE_DIR}/docs/mcp-read.1" DESTINATION "${CMAKE_INSTALL_MANDIR}/man1")
# CMAKE_INSTALL_DOCDIR is share/doc/mcp-read (it is named after the project).
install(FILES "${PROJECT_SOURCE_DIR}/README.md" DESTINATION "${CMAKE_INSTALL_DOCDIR}")
install(FILES "${PROJECT_SOURCE_DIR}/LICENSE" DESTINATION "${CMAKE_INSTALL_DOCDIR}")
# Debian's copyright file: which installed file is under which licence (the PDF plugin, linked
# with poppler, under the GPL).
install(FILES "${PROJECT_SOURCE_DIR}/packaging/debian/copyright" DESTINATION "${CMAKE_INSTALL_DOCDIR}")

# The runtime Debian packages, one per line with # comments, read from packaging/: the same file
# the Dockerfile installs from, so the package and the image cannot drift apart. Listed by hand
# rather than computed by dpkg-shlibdeps, which cannot see what is opened with dlopen (libvips,
# the plugin) or by path (libmagic's database); tests/packaging/runtime-deps.sh compares the
# list with what the built files load.
function(mcpread_read_package_list file out)
  file(STRINGS "${file}" lines)
  set(packages "")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "#.*" "" line "${line}")
    string(STRIP "${line}" line)
    if(line)
      list(APPEND packages "${line}")
    endif()
  endforeach()
  set(${out} "${packages}" PARENT_SCOPE)
endfunction()

set(MCPREAD_PACKAGE_LISTS "${PROJECT_SOURCE_DIR}/packaging/runtime-packages.txt")
if(NOT MCPREAD_STATIC_LIBS)
  list(APPEND MCPREAD_PACKAGE_LISTS
    "${PROJECT_SOURCE_DIR}/packaging/runtime-packages-shared-libs.txt")
endif()
set(MCPREAD_RUNTIME_PACKAGES "")
foreach(list_file IN LISTS MCPREAD_PACKAGE_LISTS)
  mcpread_read_package_list("${list_file}" packages)
  list(APPEND MCPREAD_RUNTIME_PACKAGES ${packages})
  # Editing a list reconfigures, so the package never carries a stale Depends.
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${list_file}")
endforeach()

# Recommends: what mcp-read uses when installed and explains when not (the OCR language data).
mcpread_read_package_list("${PROJECT_SOURCE_DIR}/packaging/recommended-packages.txt" MCPREAD_RECOMMENDED_PACKAGES)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/packaging/recommended-packages.txt")
list(JOIN MCPREAD_RECOMMENDED_PACKAGES ", " CPACK_DEBIAN_PACKAGE_RECOMMENDS)

set(MCPREAD_PACKAGE_MAINTAINER "mcp-read maintainers <mcp-read@localhost>" CACHE STRING
  "Maintainer field of the Debian package")

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME mcp-read)
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "MCP server whose read tool gives a model any file the way it needs it")
set(CPACK_PACKAGE_DESCRIPTION "Text in any charset as numbered lines, images sized to what models
accept, PDFs page by page (scanned pages through OCR), Jupyter notebooks, Word, Excel,
PowerPoint and OpenDocument files, EPUB books, HTML pages, audio and directory listings,
served over the Model Context Protocol (stdio, or HTTP with --transport http).")
set(CPACK_PACKAGE_CONTACT "${MCPREAD_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # mcp-read_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS OFF)
string(REPLACE ";" ", " CPACK_DEBIAN_PACKAGE_DEPENDS "${MCPREAD_RUNTIME_PACKAGES}")
include(CPack)

# What the checks in tests/packaging/ compare the install tree and the package with.
string(REPLACE ";" "\n" packages_text "${MCPREAD_RUNTIME_PACKAGES}")
file(WRITE "${PROJECT_BINARY_DIR}/packaging/runtime-packages.txt" "${packages_text}\n")
if(MCPREAD_STATIC_LIBS)
  set(static_libs 1)
else()
  set(static_libs 0)
endif()
file(WRITE "${PROJECT_BINARY_DIR}/packaging/layout.txt" "version=${PROJECT_VERSION}
bindir=${CMAKE_INSTALL_BINDIR}
libdir=${CMAKE_INSTALL_LIBDIR}
mandir=${CMAKE_INSTALL_MANDIR}
docdir=${CMAKE_INSTALL_DOCDIR}
package_prefix=${CPACK_PACKAGING_INSTALL_PREFIX}
static_libs=${static_libs}
")
