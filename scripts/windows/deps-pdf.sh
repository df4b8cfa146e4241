#!/usr/bin/env bash
# Builds (or finds in the cache) what the PDF plugin needs on Windows x64 and prints its prefix:
# static archives of freetype, libjpeg-turbo, libpng, qpdf 11 and poppler 22.12 (the core with
# the splash renderer and the cpp frontend), so that libmcpread_pdf.dll carries them all.
#
#   deps-pdf.sh
#
# Called by deps.sh, which copies this prefix into its own; the same recipe style: Debian
# bookworm's source packages (`apt-get source`, versions pinned below, deb-src set up by
# deps.sh), cross-built with cmake/toolchain-mingw64.cmake into
# ~/.cache/mcp-read-windows/pdf-<key>, <key> hashing everything that makes it, valid once its
# stamp is written. zlib is mingw's (libz-mingw-w64-dev), linked statically. Progress: stderr.
set -Eeuo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
cache=${MCPREAD_WINDOWS_CACHE:-$HOME/.cache/mcp-read-windows}
toolchain=$repo/cmake/toolchain-mingw64.cmake
jobs=${MCPREAD_JOBS:-2}
mingw=/usr/x86_64-w64-mingw32

# Source package=version, built in this order (each needs the ones before it).
sources=(libpng1.6=1.6.39-2+deb12u5 libjpeg-turbo=1:2.1.5-2 freetype=2.12.1+dfsg-5+deb12u4
  qpdf=11.3.0-1+deb12u1 poppler=22.12.0-2+deb12u2)

key=$( { echo "${sources[*]}"; cat "${BASH_SOURCE[0]}" "$toolchain" "$here/utf16_iconv.c" "$here/iconv.h"; } |
  sha256sum | cut -c1-12)
prefix=$cache/pdf-$key
if [[ -f $prefix/.mcp-read-deps ]]; then echo "$prefix"; exit 0; fi

exec 3>&1 1>&2
echo "windows pdf deps: making $prefix"
rm -rf "$prefix" "$prefix.build"
mkdir -p "$prefix/include" "$prefix/lib" "$prefix.build" "$cache/src"
log=$prefix.log
: >"$log"
trap 'echo "windows pdf deps: failed, see $log" >&2; tail -25 "$log" >&2' ERR
# pkg-config sees the prefix only, never the build machine's .pc files.
export PKG_CONFIG_LIBDIR=$prefix/lib/pkgconfig PKG_CONFIG_PATH=

source_dir() {  # the unpacked source tree of a pinned package, fetched once
  local name=${1%%=*} version=${1#*=}
  local upstream=${version#*:}
  upstream=${upstream%-*}
  local dir=$cache/src/$name-$upstream
  if [[ ! -d $dir ]]; then
    (cd "$cache/src" && apt-get source -qq "$name=$version" >>"$log" 2>&1)
  fi
  echo "$dir"
}

# source dir, extra CMake arguments...; $target and $component, when set, narrow the build to one
# target and the install to one component.
cmake_build() {
  local src=$1 build=$prefix.build/$(basename "$1")
  shift
  cmake -S "$src" -B "$build" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$toolchain" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" -DBUILD_SHARED_LIBS=OFF \
    -DMCPREAD_WINDOWS_PREFIX="$prefix" -DZLIB_LIBRARY=$mingw/lib/libz.a \
    -DZLIB_INCLUDE_DIR=$mingw/include "$@" >>"$log" 2>&1
  cmake --build "$build" -j "$jobs" ${target:+--target "$target"} >>"$log" 2>&1
  cmake --install "$build" ${component:+--component "$component"} >>"$log" 2>&1
}

# poppler-cpp's iconv (see utf16_iconv.c for why this one).
x86_64-w64-mingw32-gcc-posix -O2 -I"$here" -c "$here/utf16_iconv.c" -o "$prefix.build/utf16_iconv.o"
x86_64-w64-mingw32-ar rcs "$prefix/lib/libiconv.a" "$prefix.build/utf16_iconv.o"
install -m 644 "$here/iconv.h" "$prefix/include/"

for s in "${sources[@]}"; do
  name=${s%%=*}
  src=$(source_dir "$s")
  echo "windows pdf deps: $name"
  case $name in
    libpng1.6)
      cmake_build "$src" -DPNG_SHARED=OFF -DPNG_STATIC=ON -DPNG_EXECUTABLES=OFF -DPNG_TESTS=OFF ;;
    libjpeg-turbo)
      # Without SIMD: its x86 code needs nasm, and the plugin decodes few JPEGs (DCT streams).
      cmake_build "$src" -DENABLE_SHARED=OFF -DENABLE_STATIC=ON -DWITH_SIMD=OFF \
        -DWITH_TURBOJPEG=OFF ;;
    freetype)
      # With mingw's zlib: without it freetype compiles its own copy, whose symbols then clash
      # with zlib's in the plugin's link.
      cmake_build "$src" -DFT_REQUIRE_ZLIB=ON -DFT_DISABLE_BZIP2=ON -DFT_DISABLE_PNG=ON \
        -DFT_DISABLE_HARFBUZZ=ON -DFT_DISABLE_BROTLI=ON ;;
    qpdf)
      # Native crypto only (no GnuTLS or OpenSSL to carry). The static library and its headers
      # only (the static-only build names it libqpdf): its tools, tests and examples would double
      # the build.
      # Its configure checks link "Advapi32" as MSVC spells it; mingw's is libadvapi32.a, and the
      # build machine's file names are case-sensitive: a link of that name lets the checks pass.
      mkdir -p "$prefix.build/qpdf-libs"
      ln -sf $mingw/lib/libadvapi32.a "$prefix.build/qpdf-libs/libAdvapi32.a"
      target=libqpdf component=dev cmake_build "$src" -DBUILD_STATIC_LIBS=ON \
        -DCMAKE_EXE_LINKER_FLAGS="-L$prefix.build/qpdf-libs" \
        -DUSE_IMPLICIT_CRYPTO=OFF -DREQUIRE_CRYPTO_NATIVE=ON -DBUILD_DOC=OFF \
        -DZLIB_H_PATH=$mingw/include -DZLIB_LIB_PATH=$mingw/lib/libz.a \
        -DLIBJPEG_H_PATH="$prefix/include" -DLIBJPEG_LIB_PATH="$prefix/lib/libjpeg.a"
      ;;
    poppler)
      # The core, splash and the cpp frontend; fonts come from Windows' own folder (poppler's
      # win32 font configuration). No JPEG 2000, colour management, signatures or network.
      cmake_build "$src" -DENABLE_CPP=ON -DENABLE_GLIB=OFF \
        -DENABLE_GOBJECT_INTROSPECTION=OFF -DENABLE_QT5=OFF -DENABLE_QT6=OFF -DENABLE_UTILS=OFF \
        -DENABLE_LIBCURL=OFF -DENABLE_NSS3=OFF -DENABLE_BOOST=OFF \
        -DENABLE_LIBOPENJPEG=none -DENABLE_CMS=none -DENABLE_DCTDECODER=libjpeg \
        -DWITH_Cairo=OFF -DWITH_TIFF=OFF -DWITH_NSS3=OFF \
        -DBUILD_GTK_TESTS=OFF -DBUILD_QT5_TESTS=OFF -DBUILD_QT6_TESTS=OFF -DBUILD_CPP_TESTS=OFF \
        -DBUILD_MANUAL_TESTS=OFF -DRUN_GPERF_IF_PRESENT=OFF -DENABLE_RELOCATABLE=OFF \
        -DICONV_INCLUDE_DIR="$prefix/include" -DICONV_LIBRARIES="$prefix/lib/libiconv.a" \
        -DFREETYPE_INCLUDE_DIRS="$prefix/include/freetype2" \
        -DFREETYPE_LIBRARY="$prefix/lib/libfreetype.a" \
        -DJPEG_INCLUDE_DIR="$prefix/include" -DJPEG_LIBRARY="$prefix/lib/libjpeg.a" \
        -DPNG_PNG_INCLUDE_DIR="$prefix/include" -DPNG_LIBRARY="$prefix/lib/libpng16.a"
      ;;
  esac
done

rm -rf "$prefix.build"
touch "$prefix/.mcp-read-deps"
echo "$prefix" >&3
