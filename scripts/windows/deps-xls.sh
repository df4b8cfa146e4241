#!/usr/bin/env bash
# Builds (or finds in the cache) Excel 97-2003 workbooks' reader for Windows x64 and prints its
# prefix: libfreexl-1.dll (freexl 1.0.6 from Debian bookworm's source package) and freexl.h.
# Windows has no iconv: freexl's code page conversions go through the system's code pages
# (freexl/codepage_iconv.c), and its fopen takes UTF-8 paths (freexl/utf8_fopen.c).
#
#   deps-xls.sh
#
# Called by deps.sh, which copies this prefix into its own. Cached as
# ~/.cache/mcp-read-windows/xls-<key>, <key> hashing the pinned version and these sources; valid
# once its stamp is written. Progress goes to stderr.
set -Eeuo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cache=${MCPREAD_WINDOWS_CACHE:-$HOME/.cache/mcp-read-windows}
cc=x86_64-w64-mingw32-gcc-posix
source=freexl=1.0.6-2

key=$( { echo "$source"; cat "${BASH_SOURCE[0]}" "$here/iconv.h" "$here"/freexl/*; } | sha256sum | cut -c1-12)
prefix=$cache/xls-$key
if [[ -f $prefix/.mcp-read-deps ]]; then echo "$prefix"; exit 0; fi

exec 3>&1 1>&2
echo "windows xls deps: making $prefix"
rm -rf "$prefix" "$prefix.build"
mkdir -p "$prefix/bin" "$prefix/include" "$prefix.build" "$cache/src"
log=$prefix.log
: >"$log"
trap 'echo "windows xls deps: failed, see $log" >&2; tail -25 "$log" >&2' ERR

name=${source%%=*} version=${source#*=}
src=$cache/src/$name-${version%-*}
if [[ ! -d $src ]]; then
  (cd "$cache/src" && apt-get source -qq "$source" >>"$log" 2>&1)
fi
# config.h stands in for what configure writes: freexl.c takes only its version from it.
printf '#define VERSION "%s"\n' "${version%-*}" >"$prefix.build/config.h"
# One C file and the two stand-ins; the GCC runtime linked in, so the DLL stands alone.
$cc -O2 -shared -DDLL_EXPORT -I"$prefix.build" -I"$here/freexl" -I"$here" -I"$src/headers" \
  -include "$here/freexl/utf8_fopen.h" "$src/src/freexl.c" \
  "$here/freexl/codepage_iconv.c" "$here/freexl/utf8_fopen.c" \
  -o "$prefix/bin/libfreexl-1.dll" -static-libgcc >>"$log" 2>&1
install -m 644 "$src/headers/freexl.h" "$prefix/include/"

rm -rf "$prefix.build"
touch "$prefix/.mcp-read-deps"
echo "$prefix" >&3
