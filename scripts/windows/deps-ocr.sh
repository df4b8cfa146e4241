#!/usr/bin/env bash
# Builds (or finds in the cache) OCR for Windows x64 and prints its prefix: libtesseract-5.dll,
# tesseract 5.3.0 with leptonica 1.82.0 inside it, both from Debian bookworm's source packages.
#
#   deps-ocr.sh PDF-PREFIX
#
# Called by deps.sh with deps-pdf.sh's prefix, whose static libpng, libjpeg and zlib leptonica
# uses. Cached as ~/.cache/mcp-read-windows/ocr-<key>, <key> hashing this script, the toolchain
# file and the PDF prefix's name (itself a hash of its recipe). Progress goes to stderr.
set -Eeuo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
cache=${MCPREAD_WINDOWS_CACHE:-$HOME/.cache/mcp-read-windows}
toolchain=$repo/cmake/toolchain-mingw64.cmake
jobs=${MCPREAD_JOBS:-2}
mingw=/usr/x86_64-w64-mingw32
pdf=$1

sources=(leptonlib=1.82.0-3 tesseract=5.3.0-2)

key=$( { echo "${sources[*]} $pdf"; cat "${BASH_SOURCE[0]}" "$toolchain"; } | sha256sum | cut -c1-12)
prefix=$cache/ocr-$key
if [[ -f $prefix/.mcp-read-deps ]]; then echo "$prefix"; exit 0; fi

exec 3>&1 1>&2
echo "windows ocr deps: making $prefix"
rm -rf "$prefix" "$prefix.build"
mkdir -p "$prefix/bin" "$prefix.build" "$cache/src"
log=$prefix.log
: >"$log"
trap 'echo "windows ocr deps: failed, see $log" >&2; tail -25 "$log" >&2' ERR
export PKG_CONFIG_LIBDIR=$prefix/lib/pkgconfig PKG_CONFIG_PATH=

source_dir() {  # the unpacked source tree of a pinned package, fetched once
  local name=${1%%=*} version=${1#*=}
  local upstream=${version%-*}
  local dir=$cache/src/$name-$upstream
  if [[ ! -d $dir ]]; then
    (cd "$cache/src" && apt-get source -qq "$name=$version" >>"$log" 2>&1)
  fi
  echo "$dir"
}

# source dir, extra CMake arguments...; with $target set, builds that target only, not installed.
cmake_build() {
  local src=$1 build=$prefix.build/$(basename "$1")
  shift
  cmake -S "$src" -B "$build" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$toolchain" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" \
    -DMCPREAD_WINDOWS_PREFIX="$prefix" -DZLIB_LIBRARY=$mingw/lib/libz.a \
    -DZLIB_INCLUDE_DIR=$mingw/include -DPNG_PNG_INCLUDE_DIR="$pdf/include" \
    -DPNG_LIBRARY="$pdf/lib/libpng16.a" -DJPEG_INCLUDE_DIR="$pdf/include" \
    -DJPEG_LIBRARY="$pdf/lib/libjpeg.a" "$@" >>"$log" 2>&1
  cmake --build "$build" -j "$jobs" ${target:+--target "$target"} >>"$log" 2>&1
  [[ -n ${target:-} ]] || cmake --install "$build" >>"$log" 2>&1
}

for s in "${sources[@]}"; do
  name=${s%%=*}
  src=$(source_dir "$s")
  echo "windows ocr deps: $name"
  case $name in
    leptonlib)
      # Static, read by tesseract's link: PNG, JPEG and PNM (mcp-read hands it PNGs and
      # grey pixels); no GIF, TIFF, WebP or JPEG 2000.
      cmake_build "$src" -DBUILD_SHARED_LIBS=OFF -DBUILD_PROG=OFF -DSW_BUILD=OFF \
        -DCMAKE_DISABLE_FIND_PACKAGE_GIF=ON -DCMAKE_DISABLE_FIND_PACKAGE_TIFF=ON \
        -DCMAKE_DISABLE_FIND_PACKAGE_PkgConfig=ON -DWEBP_LIBRARY= -DJP2K_LIBRARY=
      ;;
    tesseract)
      # One DLL with leptonica, libstdc++ and winpthreads inside (-static), exporting leptonica's
      # functions too: readers/src/ocr/tess_api.cpp binds pix* through the tesseract handle. The
      # library only: its command line would link leptonica a second time beside the DLL's.
      # It links "Ws2_32" as MSVC spells it; mingw's is libws2_32.a, and the build machine's file
      # names are case-sensitive: a link of that name in a folder on the library path.
      mkdir -p "$prefix.build/tesseract-libs"
      ln -sf $mingw/lib/libws2_32.a "$prefix.build/tesseract-libs/libWs2_32.a"
      target=libtesseract cmake_build "$src" -DBUILD_SHARED_LIBS=ON -DSW_BUILD=OFF -DBUILD_TRAINING_TOOLS=OFF \
        -DBUILD_TESTS=OFF -DGRAPHICS_DISABLED=ON -DDISABLE_ARCHIVE=ON -DDISABLE_CURL=ON \
        -DOPENMP_BUILD=OFF -DINSTALL_CONFIGS=OFF -DLeptonica_DIR="$prefix/lib/cmake/leptonica" \
        -DCMAKE_SHARED_LINKER_FLAGS="-static -Wl,--export-all-symbols -L$prefix.build/tesseract-libs" \
        -DCMAKE_EXE_LINKER_FLAGS="-L$prefix.build/tesseract-libs"
      cp "$prefix.build/tesseract-5.3.0/bin/libtesseract53.dll" "$prefix/bin/libtesseract-5.dll"
      ;;
  esac
done

rm -rf "$prefix.build"
touch "$prefix/.mcp-read-deps"
echo "$prefix" >&3
