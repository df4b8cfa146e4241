#!/usr/bin/env bash
# Builds the portable bundles and proves them (docs/release.md):
#   1. dist/mcp-read-<version>-linux-<x64|arm64>/ and .tar.gz, built in a Debian bullseye root
#      (glibc 2.31) with bullseye's -dev packages (scripts/release/build.sh);
#   2. each bundle serves a full MCP session in minimal roots it was not built in, nothing
#      installed but the bundle: x64 in Debian bullseye, bookworm and trixie, arm64 in bookworm
#      under qemu-user (scripts/release/check-bundle.sh);
#   3. the release's other files from those bundles: each tarball also as .tar.xz, the npm
#      packages (dist/npm/), the .mcpb files and the MCP Registry entry (dist/server.json), and
#      the npm and .mcpb checks (tests/release/) run on the x86_64 bundle itself.
# Roots and build folders are cached in ~/.cache/mcp-read-release/ (a second run is quick).
#
#   bash scripts/release.sh                                # both architectures
#   MCPREAD_RELEASE_ARCHES=amd64 bash scripts/release.sh   # x86_64 only
#   MCPREAD_RELEASE_SUITES=trixie ...                      # x86_64 proof in these roots only
#   MCPREAD_RELEASE_PACKAGES=0 ...                         # bundles only (no step 3)
#   MCPREAD_RELEASE_WINDOWS=1 ...                          # also Windows x64 (below)
# With MCPREAD_RELEASE_WINDOWS=1, scripts/windows/prove.sh cross-builds mcp-read.exe in
# build-windows/ and proves it under Wine (its suites and MCP sessions); scripts/windows/bundle.sh
# then makes dist/mcp-read-<version>-win32-x64/ and its .zip, packed for npm and as a .mcpb too;
# scripts/windows/prove-npm.sh installs the npm packages with node for Windows under Wine and
# runs the launcher there.
# The test command (scripts/test.sh) runs the x86_64 build and its proof in trixie, without step 3
# (its ctest runs the same package checks on a stand-in bundle).
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
bundles=()
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
  bundles+=("$project/dist/mcp-read-$version-linux-$platform")
done
if [[ ${MCPREAD_RELEASE_WINDOWS:-0} == 1 ]]; then
  start=$SECONDS
  bash "$project/scripts/windows/prove.sh" "$project/build-windows"
  bash "$project/scripts/windows/bundle.sh" "$project/build-windows" "$project/dist"
  echo "release: win32-x64 built, proven under Wine and bundled in $((SECONDS - start))s"
  bundles+=("$project/dist/mcp-read-$version-win32-x64")
fi
if [[ ${MCPREAD_RELEASE_PACKAGES:-1} == 1 ]]; then
  start=$SECONDS
  # xz: the same tar, a third smaller than gzip (which npm and the .mcpb's zip use anyway).
  for bundle in "${bundles[@]}"; do
    [[ -f $bundle.tar.gz ]] && gzip -dc "$bundle.tar.gz" | xz -9e -T0 >"$bundle.tar.xz"
  done
  bash "$release/npm-pack.sh" "${bundles[@]}"
  # The Windows npm packages installed and run by node for Windows under Wine.
  [[ ${MCPREAD_RELEASE_WINDOWS:-0} == 1 ]] && bash "$project/scripts/windows/prove-npm.sh" "$project/dist/npm" "$project/build-windows"
  bash "$release/mcpb-pack.sh" "${bundles[@]}"
  bash "$release/registry-server-json.sh" "$project/dist"
  if [[ ${bundles[0]} == *-x64 ]]; then
    # With the Windows bundle built, its npm package and .mcpb are checked from it, not a stand-in.
    windows=$project/dist/mcp-read-$version-win32-x64
    [[ ${MCPREAD_RELEASE_WINDOWS:-0} == 1 ]] && export MCPREAD_WINDOWS_BUNDLE_DIR=$windows
    for check in npm mcpb; do bash "$project/tests/release/$check.sh" "$project/dist" "${bundles[0]}"; done
  fi
  echo "release: packages made and checked in $((SECONDS - start))s"
fi
shopt -s nullglob  # the packages are absent when step 3 was skipped
ls -l "$project"/dist/*.tar.* "$project"/dist/*.zip "$project"/dist/*.mcpb "$project"/dist/npm/*.tgz
echo "release: done in $((SECONDS - started))s (cache $state at start)"
