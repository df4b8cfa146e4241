#!/usr/bin/env bash
# Builds (or finds in the cache) archives for Windows x64 and prints its prefix:
# libarchive-13.dll (libarchive 3.6.2 with zlib, bzip2, xz and zstd inside it, each from Debian
# bookworm's source packages) and its import library and headers, which the tests' archive
# writer links.
#
#   deps-archive.sh
#
# Called by deps.sh, which copies this prefix into its own. Cached as
# ~/.cache/mcp-read-windows/archive-<key>, <key> hashing the pinned versions, this script and the
# toolchain file; valid once its stamp is written. Progress goes to stderr.
set -Eeuo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
cache=${MCPREAD_WINDOWS_CACHE:-$HOME/.cache/mcp-read-windows}
toolchain=$repo/cmake/toolchain-mingw64.cmake
jobs=${MCPREAD_JOBS:-2}
mingw=/usr/x86_64-w64-mingw32
cc=x86_64-w64-mingw32-gcc-posix

# Source package=version, built in this order (libarchive last: it links the others).
sources=(bzip2=1.0.8-5 xz-utils=5.4.1-1+deb12u1 libzstd=1.5.4+dfsg2-5 libarchive=3.6.2-1+deb12u4)

key=$( { echo "${sources[*]}"; cat "${BASH_SOURCE[0]}" "$toolchain"; } | sha256sum | cut -c1-12)
prefix=$cache/archive-$key
if [[ -f $prefix/.mcp-read-deps ]]; then echo "$prefix"; exit 0; fi

exec 3>&1 1>&2
echo "windows archive deps: making $prefix"
rm -rf "$prefix" "$prefix.build"
mkdir -p "$prefix/bin" "$prefix/include" "$prefix/lib" "$prefix.build" "$cache/src"
log=$prefix.log
: >"$log"
trap 'echo "windows archive deps: failed, see $log" >&2; tail -25 "$log" >&2' ERR
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

for s in "${sources[@]}"; do
  name=${s%%=*}
  src=$(source_dir "$s")
  build=$prefix.build/$name
  rm -rf "$build" && cp -a "$src" "$build"
  echo "windows archive deps: $name"
  case $name in
    bzip2)
      # The library's seven files; its Makefile builds the command line tools too.
      (cd "$build" && for f in blocksort huffman crctable randtable compress decompress bzlib; do
         $cc -O2 -D_FILE_OFFSET_BITS=64 -c $f.c -o $f.o || exit 1
       done && x86_64-w64-mingw32-ar rcs "$prefix/lib/libbz2.a" ./*.o) >>"$log" 2>&1
      install -m 644 "$build/bzlib.h" "$prefix/include/"
      ;;
    xz-utils)
      # liblzma only, static.
      (cd "$build" && ./configure --host=x86_64-w64-mingw32 CC=$cc --prefix="$prefix" \
        --disable-shared --enable-static --disable-xz --disable-xzdec --disable-lzmadec \
        --disable-lzmainfo --disable-lzma-links --disable-scripts --disable-doc --disable-nls \
        >>"$log" 2>&1 && make -C src/liblzma -j "$jobs" >>"$log" 2>&1 &&
        make -C src/liblzma install >>"$log" 2>&1)
      ;;
    libzstd)
      # The static library from its own Makefile (multithreaded decoding is not needed).
      make -C "$build/lib" -j "$jobs" CC=$cc AR=x86_64-w64-mingw32-ar libzstd.a >>"$log" 2>&1
      install -m 644 "$build/lib/libzstd.a" "$prefix/lib/"
      install -m 644 "$build/lib/zstd.h" "$build/lib/zstd_errors.h" "$build/lib/zdict.h" "$prefix/include/"
      ;;
    libarchive)
      # The DLL with the compression libraries and libgcc inside (-static); reading and writing
      # (the tests write their archives with it). No crypto, XML (xar), lz4, lzo or iconv:
      # Windows converts names itself.
      cmake -S "$build" -B "$build/out" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$toolchain" \
        -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" \
        -DMCPREAD_WINDOWS_PREFIX="$prefix" -DENABLE_TAR=OFF -DENABLE_CPIO=OFF -DENABLE_CAT=OFF \
        -DENABLE_TEST=OFF -DENABLE_ACL=OFF -DENABLE_XATTR=OFF -DENABLE_OPENSSL=OFF -DENABLE_MBEDTLS=OFF \
        -DENABLE_NETTLE=OFF -DENABLE_CNG=OFF -DENABLE_LIBB2=OFF -DENABLE_LZ4=OFF -DENABLE_LZO=OFF \
        -DENABLE_LIBXML2=OFF -DENABLE_EXPAT=OFF -DENABLE_PCREPOSIX=OFF -DENABLE_ICONV=OFF \
        -DENABLE_ZLIB=ON -DZLIB_LIBRARY=$mingw/lib/libz.a -DZLIB_INCLUDE_DIR=$mingw/include \
        -DENABLE_BZip2=ON -DBZIP2_LIBRARIES="$prefix/lib/libbz2.a" -DBZIP2_INCLUDE_DIR="$prefix/include" \
        -DENABLE_LZMA=ON -DLIBLZMA_LIBRARY="$prefix/lib/liblzma.a" -DLIBLZMA_INCLUDE_DIR="$prefix/include" \
        -DENABLE_ZSTD=ON -DZSTD_LIBRARY="$prefix/lib/libzstd.a" -DZSTD_INCLUDE_DIR="$prefix/include" \
        -DCMAKE_SHARED_LINKER_FLAGS="-static" >>"$log" 2>&1
      cmake --build "$build/out" -j "$jobs" --target archive >>"$log" 2>&1
      cp "$build/out/bin/libarchive.dll" "$prefix/bin/libarchive-13.dll"
      cp "$build/out/libarchive/libarchive.dll.a" "$prefix/lib/"
      install -m 644 "$build/libarchive/archive.h" "$build/libarchive/archive_entry.h" "$prefix/include/"
      ;;
  esac
done

rm -rf "$prefix.build"
touch "$prefix/.mcp-read-deps"
echo "$prefix" >&3
