#!/usr/bin/env bash
# Lays this machine's build out the way a portable bundle is laid out, for the packaging tests
# when no bundle from scripts/release.sh is at hand:
#
#   tests/release/standin-bundle.sh BUILD_DIR OUT_DIR     prints OUT_DIR/mcp-read-<version>-linux-<arch>
#   tests/release/standin-bundle.sh --windows OUT_DIR     prints OUT_DIR/mcp-read-<version>-win32-x64
#
# It is NOT a portable bundle: bin/mcp-read still loads this machine's shared libraries, so it
# runs only where the build's libraries are installed. It proves the packages' layout, launcher
# and manifests, not portability (the bundle's own checks do that). The Windows stand-in's
# bin/mcp-read.exe is only the headers that name an x86-64 Windows executable: it runs nowhere.
set -euo pipefail

mkdir -p "$2"
out=$(cd "$2" && pwd)
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
version=$(sed -n 's/^project(mcp-read VERSION \([0-9][0-9.]*\).*/\1/p' "$repo/CMakeLists.txt")
if [[ $1 == --windows ]]; then
  bundle="$out/mcp-read-$version-win32-x64"
  rm -rf "$bundle"
  mkdir -p "$bundle/bin" "$bundle/share/misc" "$bundle/LICENSES"
  # "MZ", the PE header's offset (0x40) at 0x3c, then "PE\0\0" and the machine 0x8664.
  { printf 'MZ'; head -c 58 /dev/zero; printf '\x40\0\0\0PE\0\0\x64\x86'; head -c 18 /dev/zero; } >"$bundle/bin/mcp-read.exe"
  for dll in libvips-42 libzip-4 libxml2-2; do echo "stand-in" >"$bundle/bin/$dll.dll"; done
  echo "stand-in" >"$bundle/share/misc/magic.mgc"
  echo "Stand-in Windows bundle: its files only name what the real one holds." >"$bundle/LICENSES/README"
  echo "$bundle"
  exit 0
fi
build=$(cd "$1" && pwd)
case $(uname -m) in
  x86_64) arch=x64 ;;
  aarch64) arch=arm64 ;;
  *) echo "standin-bundle: no npm name for $(uname -m)" >&2; exit 1 ;;
esac
for f in mcp-read libmcpread_pdf.so libmcpread_revenge.so; do
  [[ -f $build/$f ]] || { echo "standin-bundle: $build/$f is missing (build mcp-read, mcpread_pdf_plugin and mcpread_revenge_plugin)" >&2; exit 1; }
done
bundle="$out/mcp-read-$version-linux-$arch"
rm -rf "$bundle"
# The plugins where the installed executable looks for them (MCPREAD_PDF_PLUGIN_RELATIVE_DIR).
mkdir -p "$bundle/bin" "$bundle/lib/mcp-read" "$bundle/share/doc/mcp-read"
cp "$build/mcp-read" "$bundle/bin/"
cp "$build/libmcpread_pdf.so" "$build/libmcpread_revenge.so" "$bundle/lib/mcp-read/"
echo "Stand-in made from a development build: it needs that machine's libraries; not portable." \
  >"$bundle/share/doc/mcp-read/STAND-IN"
echo "$bundle"
