#!/usr/bin/env bash
# Builds (or finds in the cache) mcp-read's Windows x64 dependencies and prints their prefix.
#
#   deps.sh
#
# Everything comes from Debian bookworm: the mingw-w64 cross compiler (GCC 12, the -posix
# threading variant), the C libraries from their Debian source packages (`apt-get source`,
# versions pinned below), header-only libraries from their Debian -dev packages, and Rust's
# standard library for x86_64-pc-windows-gnu (libstd-rust-dev-windows). The prefix is
# ~/.cache/mcp-read-windows/<key>, where <key> hashes everything that makes it (this script, the
# toolchain file, the pinned versions), so a changed recipe makes a new prefix instead of reusing
# a stale one; a prefix only counts once its stamp is written. Downloaded sources are kept in
# ~/.cache/mcp-read-windows/src for the next prefix. Progress goes to stderr.
set -Eeuo pipefail  # -E: the ERR trap below fires inside functions too
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
cache=${MCPREAD_WINDOWS_CACHE:-$HOME/.cache/mcp-read-windows}
toolchain=$repo/cmake/toolchain-mingw64.cmake
jobs=${MCPREAD_JOBS:-2}

# Source package=version, built in this order.
# libvips for Windows: sharp's build (one DLL carrying GLib and the codecs) and its headers, from
# npm, pinned to the same libvips (8.18.6 in 1.3.3).
npm_packages=(@img/sharp-libvips-win32-x64@1.3.3 @img/sharp-libvips-dev@1.3.3)
sources=(uchardet=0.0.7-1 nettle=3.8.1-2 pugixml=1.13-0.2 libdeflate=1.14-1 tre=0.8.0-7
  file=1:5.44-3 libzip=1.7.3-1 libxml2=2.9.14+dfsg-1.3~deb12u6)
# The build machine's tools, the Windows zlib and Rust std, and the header-only libraries
# (nlohmann-json, Boost.Asio/Beast, spdlog + fmt, and doctest + valijson for the tests), whose
# headers are the same for every target.
host_packages=(g++-mingw-w64-x86-64-posix cmake ninja-build pkg-config dpkg-dev m4 wine64
  libz-mingw-w64-dev libmagic-mgc rustc cargo libstd-rust-dev-windows librust-encoding-rs-dev
  libboost1.81-dev nlohmann-json3-dev libspdlog-dev libfmt-dev doctest-dev libvalijson-dev
  tesseract-ocr-eng)
header_dirs=(boost nlohmann spdlog fmt doctest valijson)

# The PDF plugin's libraries (poppler, qpdf and theirs) come from deps-pdf.sh, cached on its own.
key=$( { echo "${sources[*]} ${host_packages[*]} ${npm_packages[*]}"; cat "${BASH_SOURCE[0]}" "$toolchain" \
  "$here/libmagic_shims.c" "$here/deps-pdf.sh" "$here/utf16_iconv.c" "$here/iconv.h" \
  "$here/deps-ocr.sh" "$here/deps-archive.sh" "$here/deps-xls.sh" "$here"/freexl/*; } |
  sha256sum | cut -c1-12)
prefix=$cache/$key
if [[ -f $prefix/.mcp-read-deps ]]; then echo "$prefix"; exit 0; fi

exec 3>&1 1>&2
echo "windows deps: making $prefix"

missing=()
for p in "${host_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
# apt-get source needs a deb-src entry; Debian's images ship only binary ones.
if ! grep -rqs '^Types:.*deb-src\|^deb-src ' /etc/apt/sources.list /etc/apt/sources.list.d/; then
  printf '%s\n' 'Types: deb-src' 'URIs: http://deb.debian.org/debian' 'Suites: bookworm' \
    'Components: main' 'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' \
    >/etc/apt/sources.list.d/mcp-read-src.sources
  updated=
else
  updated=yes
fi
command -v npm >/dev/null || missing+=(npm)
if [[ ${#missing[@]} -gt 0 || -z $updated ]]; then
  apt-get update -qq
  [[ ${#missing[@]} -eq 0 ]] || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    --no-install-recommends "${missing[@]}" >/dev/null
fi

rm -rf "$prefix" "$prefix.build"
mkdir -p "$prefix/include" "$prefix/lib" "$prefix.build" "$cache/src"
log=$prefix.log
: >"$log"
trap 'echo "windows deps: failed, see $log" >&2; tail -25 "$log" >&2' ERR

# The unpacked source tree of a pinned package, fetched once into the shared source folder.
source_dir() {
  local name=${1%%=*} version=${1#*=}
  local upstream=${version#*:}
  upstream=${upstream%-*}
  local dir=$cache/src/$name-$upstream
  if [[ ! -d $dir ]]; then
    (cd "$cache/src" && apt-get source -qq "$name=$version" >>"$log" 2>&1)
  fi
  echo "$dir"
}

cmake_build() {  # source dir, extra CMake arguments...
  local src=$1 build=$prefix.build/$(basename "$1")
  shift
  cmake -S "$src" -B "$build" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$toolchain" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" -DBUILD_SHARED_LIBS=OFF \
    -DMCPREAD_WINDOWS_PREFIX="$prefix" "$@" >>"$log" 2>&1
  cmake --build "$build" -j "$jobs" >>"$log" 2>&1
  cmake --install "$build" >>"$log" 2>&1
}

for s in "${sources[@]}"; do
  name=${s%%=*}
  src=$(source_dir "$s")
  echo "windows deps: $name"
  case $name in
    uchardet) cmake_build "$src" -DBUILD_BINARY=OFF -DBUILD_STATIC=ON ;;
    pugixml) cmake_build "$src" -DPUGIXML_BUILD_TESTS=OFF ;;
    libdeflate)
      # 1.14 has only a Makefile (CMake came in 1.15), which names the static library for
      # Windows libdeflatestatic.lib; installed under the name the CMake build looks for.
      build=$prefix.build/libdeflate
      rm -rf "$build" && cp -a "$src" "$build"
      make -C "$build" -j "$jobs" CC=x86_64-w64-mingw32-gcc-posix AR=x86_64-w64-mingw32-ar \
        libdeflatestatic.lib >>"$log" 2>&1
      install -m 644 "$build/libdeflatestatic.lib" "$prefix/lib/libdeflate.a"
      install -m 644 "$build/libdeflate.h" "$prefix/include/"
      ;;
    nettle)
      # HMAC-SHA256 and base64 only: without public-key code nettle needs no GMP.
      build=$prefix.build/nettle
      rm -rf "$build" && cp -a "$src" "$build"
      (cd "$build" && ./configure --host=x86_64-w64-mingw32 CC=x86_64-w64-mingw32-gcc-posix \
        --prefix="$prefix" --disable-shared --disable-public-key --disable-documentation \
        --disable-openssl >>"$log" 2>&1 &&
        make -j "$jobs" libnettle.a >>"$log" 2>&1 &&
        make install-headers install-static >>"$log" 2>&1)
      ;;
    libzip | libxml2)
      # DLLs, as the readers load them on first use (LoadLibraryExW), named as the readers' Linux
      # sonames become on Windows (libzip.so.4 -> libzip-4.dll, libxml2.so.2 -> libxml2-2.dll,
      # platform::library_file_name). -static puts libgcc, winpthreads and zlib inside them, so
      # each stands alone beside mcp-read.exe. libxml2 goes without iconv (Windows has none): its
      # own UTF-8, UTF-16 and ISO-8859-1 cover what the readers hand it.
      if [[ $name == libzip ]]; then
        cmake_build "$src" -DBUILD_SHARED_LIBS=ON -DCMAKE_SHARED_LINKER_FLAGS=-static \
          -DZLIB_LIBRARY=/usr/x86_64-w64-mingw32/lib/libz.a -DENABLE_BZIP2=OFF -DENABLE_LZMA=OFF \
          -DENABLE_ZSTD=OFF -DENABLE_OPENSSL=OFF -DENABLE_GNUTLS=OFF -DENABLE_MBEDTLS=OFF \
          -DBUILD_TOOLS=OFF -DBUILD_REGRESS=OFF -DBUILD_EXAMPLES=OFF -DBUILD_DOC=OFF
        cp "$prefix/bin/libzip.dll" "$prefix/bin/libzip-4.dll"
      else
        cmake_build "$src" -DBUILD_SHARED_LIBS=ON -DCMAKE_SHARED_LINKER_FLAGS=-static \
          -DLIBXML2_WITH_ICONV=OFF -DLIBXML2_WITH_ICU=OFF -DLIBXML2_WITH_LZMA=OFF \
          -DLIBXML2_WITH_ZLIB=OFF -DLIBXML2_WITH_PYTHON=OFF -DLIBXML2_WITH_TESTS=OFF \
          -DLIBXML2_WITH_PROGRAMS=OFF
        cp "$prefix/bin/libxml2.dll" "$prefix/bin/libxml2-2.dll"
      fi
      ;;
    tre)
      # The regex library libmagic needs on mingw (Windows has no regcomp), byte-oriented like
      # glibc's in the C locale; installed as libgnurx, the name file's configure looks for.
      build=$prefix.build/tre
      rm -rf "$build" && cp -a "$src" "$build"
      (cd "$build" && ./configure --host=x86_64-w64-mingw32 CC=x86_64-w64-mingw32-gcc-posix \
        --prefix="$prefix" --disable-shared --disable-nls --disable-agrep --disable-approx \
        >>"$log" 2>&1 && make -C lib -j "$jobs" >>"$log" 2>&1 && make -C lib install >>"$log" 2>&1)
      x86_64-w64-mingw32-gcc-posix -O2 -I"$prefix/include" -c "$here/libmagic_shims.c" -o "$build/shims.o"
      mkdir -p "$build/objects"
      (cd "$build/objects" && x86_64-w64-mingw32-ar x "$prefix/lib/libtre.a")
      x86_64-w64-mingw32-ar rcs "$prefix/lib/libgnurx.a" "$build/shims.o" "$build"/objects/*.o
      echo '#include <tre/regex.h>' >"$prefix/include/regex.h"
      ;;
    file)
      # libmagic only (the file command and the database need a native file to compile magic):
      # the database is Debian's own magic.mgc of the same version (libmagic-mgc), whose format
      # does not depend on the system. Compressed-file support stays off, as mcp-read never asks
      # libmagic to look inside compressed files.
      build=$prefix.build/file
      rm -rf "$build" && cp -a "$src" "$build"
      (cd "$build" && ./configure --host=x86_64-w64-mingw32 CC=x86_64-w64-mingw32-gcc-posix \
        CPPFLAGS="-I$prefix/include" LDFLAGS="-L$prefix/lib" --prefix="$prefix" --disable-shared \
        --disable-zlib --disable-bzlib --disable-xzlib --disable-zstdlib --disable-lzlib \
        --disable-libseccomp >>"$log" 2>&1 &&
        make -C src -j "$jobs" magic.h libmagic.la >>"$log" 2>&1)
      install -m 644 "$build/src/.libs/libmagic.a" "$prefix/lib/"
      install -m 644 "$build/src/magic.h" "$prefix/include/"
      install -D -m 644 /usr/lib/file/magic.mgc "$prefix/share/misc/magic.mgc"
      ;;
  esac
done

# The npm tarballs are kept in the cache: vips/lib holds libvips-42.dll (shipped beside the .exe),
# vips/include its headers and GLib's.
mkdir -p "$cache/npm" "$prefix/vips"
for p in "${npm_packages[@]}"; do
  name=${p%@*} version=${p##*@}
  tgz=$cache/npm/$(echo "${name#@}" | tr / -)-$version.tgz
  [[ -f $tgz ]] || (cd "$cache/npm" && npm pack -q "$p" >>"$log" 2>&1)
  echo "windows deps: $name $version"
  tar -xzf "$tgz" -C "$prefix/vips" --strip-components=1
done

# Header-only libraries: the Debian -dev packages' own folders, linked into the prefix so that the
# cross build sees them without seeing the rest of /usr/include.
for d in "${header_dirs[@]}"; do ln -sfn "/usr/include/$d" "$prefix/include/$d"; done

# The PDF plugin's static archives and headers (deps-pdf.sh's own cached prefix), copied in.
pdf_prefix=$(bash "$here/deps-pdf.sh")
echo "windows deps: PDF libraries from $pdf_prefix"
cp -a "$pdf_prefix/include/." "$prefix/include/"
cp -a "$pdf_prefix/lib/." "$prefix/lib/"
# OCR: libtesseract-5.dll (deps-ocr.sh, cached on its own, built on the PDF prefix's libpng and
# libjpeg), English from Debian's tesseract-ocr-eng and the orientation and script model from its
# tesseract-ocr-osd (sideways scans turned, a script eng does not read named): data that does not
# depend on the system.
ocr_prefix=$(bash "$here/deps-ocr.sh" "$pdf_prefix")
echo "windows deps: OCR from $ocr_prefix"
cp "$ocr_prefix/bin/libtesseract-5.dll" "$prefix/bin/"
for data in eng osd; do
  install -D -m 644 /usr/share/tesseract-ocr/5/tessdata/$data.traineddata "$prefix/share/tessdata/$data.traineddata"
done
# Archives: libarchive-13.dll (deps-archive.sh, cached on its own), and the import library and
# headers the tests' archive writer links.
archive_prefix=$(bash "$here/deps-archive.sh")
echo "windows deps: archives from $archive_prefix"
cp "$archive_prefix/bin/libarchive-13.dll" "$prefix/bin/"
cp "$archive_prefix/lib/libarchive.dll.a" "$prefix/lib/"
cp "$archive_prefix/include/archive.h" "$archive_prefix/include/archive_entry.h" "$prefix/include/"
# Excel 97-2003 workbooks: libfreexl-1.dll (deps-xls.sh, cached on its own) and the header the
# reader takes its types from.
xls_prefix=$(bash "$here/deps-xls.sh")
echo "windows deps: xls from $xls_prefix"
cp "$xls_prefix/bin/libfreexl-1.dll" "$prefix/bin/"
cp "$xls_prefix/include/freexl.h" "$prefix/include/"

rm -rf "$prefix.build"
touch "$prefix/.mcp-read-deps"
echo "$prefix" >&3
