#!/usr/bin/env bash
# Builds the portable bundles and proves them (docs/release.md):
#   1. dist/mcp-read-<version>-linux-<x64|arm64>/ and .tar.gz, built in a Debian bullseye root
#      (glibc 2.31) with bullseye's -dev packages (scripts/release/build.sh);
#   2. each bundle serves a full MCP session in minimal roots it was not built in, nothing
#      installed but the bundle: x64 in Debian bullseye, bookworm and trixie, arm64 in bookworm
#      under qemu-user (scripts/release/check-bundle.sh).
# Roots and build folders are cached in ~/.cache/mcp-read-release/ (a second run is quick).
#
#   bash scripts/release.sh                                # both architectures
#   MCPREAD_RELEASE_ARCHES=amd64 bash scripts/release.sh   # x86_64 only
#   MCPREAD_RELEASE_SUITES=trixie ...                      # x86_64 proof in these roots only
# The test command (scripts/test.sh) runs the x86_64 build and its proof in trixie.
set -euo pipefail
project=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
release=$project/scripts/release
version=$(sed -n 's/^project(mcp-read VERSION \([0-9.]*\).*/\1/p' "$project/CMakeLists.txt")
[[ $(id -u) -eq 0 ]] || { echo "release: debootstrap and chroot need root" >&2; exit 1; }

bash "$project/scripts/install-deps.sh" --release
cache=${MCPREAD_RELEASE_CACHE:-$HOME/.cache/mcp-read-release}
# Cold: no x86_64 build cached yet (debootstrap, ~700 packages, the whole build); warm: cached.
if compgen -G "$cache/build/bullseye-amd64-*-amd64/build/build.ninja" >/dev/null; then state=warm; else state=cold; fi
started=$SECONDS
for arch in ${MCPREAD_RELEASE_ARCHES:-amd64 arm64}; do
  start=$SECONDS
  bash "$release/build.sh" "$arch"
  case $arch in
    amd64) platform=x64 suites=${MCPREAD_RELEASE_SUITES:-bullseye bookworm trixie} ;;
    arm64) platform=arm64 suites="bookworm" ;;
  esac
  for suite in $suites; do
    bash "$release/check-bundle.sh" "$project/dist/mcp-read-$version-linux-$platform" "$suite" "$arch"
  done
  echo "release: linux-$platform built and checked in $((SECONDS - start))s"
done
ls -l "$project"/dist/*.tar.gz
echo "release: done in $((SECONDS - started))s (cache $state at start)"
