#!/usr/bin/env bash
# Installs the Debian packages mcp-read needs that are not installed yet; does nothing when all
# are there. `--test` adds what the test suite needs; `--release`, what scripts/release.sh needs.
# Everything it prints goes to stderr, so it can run in front of the stdio server.
set -euo pipefail
exec 1>&2

build_packages=(g++ cmake ninja-build pkg-config libboost1.81-dev nlohmann-json3-dev libmagic-dev
  libspdlog-dev libfmt-dev libuchardet-dev nettle-dev libvips-dev libxml2-dev libzip-dev libpugixml-dev libpoppler-cpp-dev libqpdf-dev libpng-dev liblzma-dev libbz2-dev zlib1g-dev libdeflate-dev
  libarchive-dev libicu72 libzip4 libarchive13)  # libicu72, libzip4, libarchive13: opened with dlopen at run time (HZ-GB-2312 text; DOCX/ODT; archives), like libvips42
# libwv-dev, libgsf-1-dev: Word 97-2003's headers, libgsf's among them (libwv-1.2-4 and
# libgsf-1-114 are opened with dlopen at run time).
build_packages+=(libwv-dev libgsf-1-dev libwv-1.2-4 libgsf-1-114)
# libolecf1: OLE2 compound files (.ppt, .xls, .msg, .hwp), opened with dlopen at run time (its
# interface is declared in readers/src/ole2/ole2_file.cpp: no -dev package).
build_packages+=(libolecf1)
# librevenge and the Document Liberation Project's importers: the word-processor plugin
# (readers/revenge_plugin/, libmcpread_revenge.so) links them; mcp-read loads it with dlopen.
build_packages+=(librevenge-dev libwpd-dev libwps-dev libmwaw-dev libabw-dev libstaroffice-dev libetonyek-dev libe-book-dev)
# The drawing importers, linked by the same plugin: Visio, Publisher, CorelDRAW, FreeHand,
# PageMaker, QuarkXPress and Zoner Draw files (the `drawing` reader).
build_packages+=(libvisio-dev libmspub-dev libcdr-dev libfreehand-dev libpagemaker-dev libqxp-dev libzmf-dev)
# poppler-data: the CMaps poppler reads at run time (CJK PDFs lose their text without them).
build_packages+=(poppler-data)
# libpoppler-private-dev: poppler's core headers, for PDF page texts that share fonts between
# pages (readers/pdf_plugin/pdf_text_session.cpp; without them each page is read on its own).
build_packages+=(libpoppler-private-dev)
# libfreexl1: Excel 97-2003 workbooks, opened with dlopen at run time (its interface is declared in
# readers/src/sheets/xls.cpp: no -dev package).
build_packages+=(libfreexl1)
# libtesseract-dev: OCR's headers (libtesseract5 and Leptonica are opened with dlopen at run time).
build_packages+=(libtesseract-dev)
# libgmime-3.0-dev: e-mail's headers (libgmime-3.0-0 is opened with dlopen at run time).
build_packages+=(libgmime-3.0-dev libgmime-3.0-0)
# libchm-dev: compiled HTML help's header (libchm1 is opened with dlopen at run time).
build_packages+=(libchm-dev libchm1)
# libpff1: Outlook data files (.pst, .ost), opened with dlopen at run time (its few functions are
# declared in readers/src/pst/pst_api.hpp: libpff.h needs libbfio's headers besides).
build_packages+=(libpff1)
# libdjvulibre-dev: DjVu's headers (libdjvulibre21 is opened with dlopen at run time).
build_packages+=(libdjvulibre-dev libdjvulibre21)
# libjbig2dec0: JBIG2 images, opened with dlopen at run time (its interface is declared in
# readers/src/image/jbig2_decode.cpp: no -dev package).
build_packages+=(libjbig2dec0)
# libmobi0: MOBI and Kindle e-books, opened with dlopen at run time (its interface is declared in
# readers/src/mobi/mobi_book.cpp: no -dev package; Debian bullseye has none, so the portable
# bundle refuses them naming the package).
build_packages+=(libmobi0)
# liboauth2-dev: OAuth access tokens over HTTP (--oauth-issuer), verified with liboauth2, opened
# with dlopen by mcp-read when OAuth is on (liboauth2-0 at run time); it brings cjose, which the
# OAuth tests sign tokens with, and libcurl4-openssl-dev, with which mcp-read fetches the
# authorization server's keys (libcurl4, also opened with dlopen).
build_packages+=(liboauth2-dev)
# rustc, cargo and librust-encoding-rs-dev: the WHATWG Encoding Standard's decoders (encoding_rs,
# Firefox's), built offline from Debian's crate into a static library (readers/CMakeLists.txt).
build_packages+=(rustc cargo librust-encoding-rs-dev)
# ccache: every build reuses the objects of the last one on this machine, from any clone
# (CMakeLists.txt sets it up): the test command's Release, sanitizer and fuzzing builds, and the
# image's build stage, which runs this script, when given a ccache folder (tests/container/).
build_packages+=(ccache)
# groff-base: the man page check (tests/packaging). clang-14 and its runtimes: the libFuzzer
# targets (scripts/fuzz.sh); llvm-14: llvm-symbolizer for sanitizer reports. libvips-tools: the
# `vips` command making the host suite's images; util-linux and iproute2: `unshare -n` and `ip`,
# the loopback-only network namespace of the host suite and the OAuth proof (tests/hosts/,
# conformance/oauth/). python3 and mupdf-tools: the real-file corpus (tests/corpus/) and its
# reference for PDFs (mutool; vipsheader for images);
# pandoc: its reference for DOCX, ODT and EPUB (and bench/office-agreement.py, slides-agreement.py);
# xlsx2csv: for XLSX (and bench/sheets-agreement.py); unrtf: for RTF; catdoc: for Word 97-2003
# (its xls2csv for XLS); libwpd-tools, libstaroffice-tools, libetonyek-tools: for the word-processor
# documents (wpd2text, sd2text, pages2text), libetonyek-tools and libwps-tools for the
# spreadsheets (numbers2csv, wks2csv); libvisio-tools and libetonyek-tools for the drawings and
# presentations (vsd2text, key2text);
# libreoffice-impress-nogui: converts the .ppt decks to ODP for theirs, libreoffice-calc-nogui
# the .xlsb workbooks to ODS. nginx-light: the load
# balancer in front of three replicas (tests/service/, deploy/nginx/mcp-read.conf).
test_packages=(doctest-dev libvalijson-dev groff-base clang-14 libclang-rt-14-dev llvm-14
  libvips-tools util-linux iproute2 python3 mupdf-tools pandoc xlsx2csv unrtf catdoc libwpd-tools libstaroffice-tools libetonyek-tools libwps-tools libvisio-tools libreoffice-impress-nogui libreoffice-calc-nogui
  nginx-light)
# The OCR tests: English and the orientation/script model; `tesseract`, the command line the
# OCR is compared with (tests and bench/).
test_packages+=(tesseract-ocr tesseract-ocr-eng tesseract-ocr-osd)
# python3-openpyxl, python3-odf: the corpus' workbooks written on the spot by writers that store
# formulas without calculating them (tests/corpus/writers.py, run with Debian's /usr/bin/python3).
test_packages+=(python3-openpyxl python3-odf)
# jbig2dec: the corpus' reference for JBIG2 images (its CLI's first page, pixel for pixel).
test_packages+=(jbig2dec)
# python3-dbfread: the corpus' reference for dBASE tables (tests/corpus/dbf_tables.py).
test_packages+=(python3-dbfread)
# djvulibre-bin: the DjVu tests make their documents with cjb2, djvm, djvmcvt and djvused; the
# corpus compares with djvutxt.
test_packages+=(djvulibre-bin)
# fp-utils: Free Pascal's CHM tools; the compiled HTML help tests make their help files with
# `chmcmd`, and the corpus compares with `chmls`, a CHM reader that shares no code with CHMLib
# (it depends on fpc-source, about 200 MB installed).
test_packages+=(fp-utils)
# libmobi-tools: `mobitool`, the corpus' reference for MOBI books (the text of its rawml dump).
test_packages+=(libmobi-tools)
# libemail-outlook-message-perl: `msgconvert`, the corpus' reference for Outlook messages (the .eml
# it converts each to). msgconvert uses Email::Address, which the package only recommends.
test_packages+=(libemail-outlook-message-perl libemail-address-perl)
# pst-utils: libpst's `readpst`, the corpus' reference for Outlook data files (the items it writes
# per folder), a reader that shares no code with libpff.
test_packages+=(pst-utils)
# dpkg-dev: `dpkg-source -x`, unpacking the source packages whose test documents the corpus reads
# (src:NAME rows; tests/corpus/fetch.py adds the deb-src entry apt needs for them).
test_packages+=(dpkg-dev)

# The portable bundle (scripts/release.sh): Debian roots made with debootstrap, RUNPATHs set with
# patchelf, aarch64 roots run through qemu-user, the proof's file-open check with strace.
release_packages=(debootstrap patchelf qemu-user-static strace python3)

# The container test (tests/container/): Podman with runc (crun fails on some cgroup layouts),
# iptables for its published ports, debootstrap for the base image (no registry needed).
container_packages=(podman runc iptables debootstrap python3)

wanted=("${build_packages[@]}")
[[ "${1:-}" == "--container" ]] && wanted=("${container_packages[@]}")
if [[ "${1:-}" == "--test" || "${1:-}" == "--release" ]]; then
  wanted+=("${release_packages[@]}")
fi
if [[ "${1:-}" == "--test" ]]; then
  wanted+=("${test_packages[@]}")
  # The Inspector CLI and the benchmark run on Node.js; use the machine's own when it has one.
  command -v node >/dev/null 2>&1 || wanted+=(nodejs)
  command -v npm >/dev/null 2>&1 || wanted+=(npm)
fi

missing=()
for package in "${wanted[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$package")
  fi
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

echo "install-deps: installing ${missing[*]}"
sudo=()
[[ $(id -u) -ne 0 ]] && sudo=(sudo)
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
