#!/usr/bin/env bash
# Builds the portable bundle for one architecture in a Debian bullseye root (glibc 2.31):
#   dist/mcp-read-<version>-linux-<x64|arm64>/ and dist/mcp-read-<version>-linux-<arch>.tar.gz
#
#   build.sh [amd64|arm64]
# The root comes from root.sh (cached); the CMake build folder is cached beside it, keyed by the
# root, so a second run only rebuilds what changed.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
project=$(cd "$here/../.." && pwd)
arch=${1:-amd64}
cache=${MCPREAD_RELEASE_CACHE:-$HOME/.cache/mcp-read-release}
# arm64 is cross-built on amd64 (Debian's aarch64-linux-gnu toolchain, arm64 -dev packages
# through multiarch: build-packages-bullseye-arm64.txt).
case $arch in
  amd64) platform=x64 packages=build-packages-bullseye.txt triplet="" ;;
  arm64) platform=arm64 packages=build-packages-bullseye-arm64.txt triplet=aarch64-linux-gnu ;;
  *) echo "build: unknown architecture $arch (amd64 or arm64)" >&2; exit 2 ;;
esac
version=$(sed -n 's/^project(mcp-read VERSION \([0-9.]*\).*/\1/p' "$project/CMakeLists.txt")
name=mcp-read-$version-linux-$platform

root=$(bash "$here/root.sh" bullseye amd64 "$here/$packages")
work="$cache/build/$(basename "$root")-$arch"
mkdir -p "$work/build" "$work/stage" "$project/dist"
export MCPREAD_ROOT_BIND="$project:/src $work/build:/build $work/stage:/stage $project/dist:/out"
start=$SECONDS
bash "$here/in-root.sh" "$root" bash /src/scripts/release/build-in-root.sh "${MCPREAD_RELEASE_JOBS:-2}" $triplet
bash "$here/in-root.sh" "$root" bash /src/scripts/release/bundle-in-root.sh "$name" $triplet
echo "build: dist/$name ($(du -sm "$project/dist/$name" | cut -f1) MB," \
  "dist/$name.tar.gz $(du -m "$project/dist/$name.tar.gz" | cut -f1) MB) in $((SECONDS - start))s"
