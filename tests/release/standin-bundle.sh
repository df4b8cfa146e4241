#!/usr/bin/env bash
# Lays this machine's build out the way a portable bundle is laid out, for the packaging tests
# when no bundle from scripts/release.sh is at hand:
#
#   tests/release/standin-bundle.sh BUILD_DIR OUT_DIR     prints OUT_DIR/mcp-read-<version>-linux-<arch>
#
# It is NOT a portable bundle: bin/mcp-read still loads this machine's shared libraries, so it
# runs only where the build's libraries are installed. It proves the packages' layout, launcher
# and manifests, not portability (the bundle's own checks do that).
set -euo pipefail

build=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
version=$(sed -n 's/^project(mcp-read VERSION \([0-9][0-9.]*\).*/\1/p' "$repo/CMakeLists.txt")
case $(uname -m) in
  x86_64) arch=x64 ;;
  aarch64) arch=arm64 ;;
  *) echo "standin-bundle: no npm name for $(uname -m)" >&2; exit 1 ;;
esac
for f in mcp-read libmcpread_pdf.so; do
  [[ -f $build/$f ]] || { echo "standin-bundle: $build/$f is missing (build mcp-read and mcpread_pdf_plugin)" >&2; exit 1; }
done
bundle="$out/mcp-read-$version-linux-$arch"
rm -rf "$bundle"
# The PDF plugin where the installed executable looks for it (MCPREAD_PDF_PLUGIN_RELATIVE_DIR).
mkdir -p "$bundle/bin" "$bundle/lib/mcp-read" "$bundle/share/doc/mcp-read"
cp "$build/mcp-read" "$bundle/bin/"
cp "$build/libmcpread_pdf.so" "$bundle/lib/mcp-read/"
echo "Stand-in made from a development build: it needs that machine's libraries; not portable." \
  >"$bundle/share/doc/mcp-read/STAND-IN"
echo "$bundle"
