#!/usr/bin/env bash
# Inside the build root (build.sh runs it): configures and builds mcp-read and its PDF plugin,
# Release, no tests, from the source tree at /src into /build, and installs them into /stage.
#
#   build-in-root.sh [jobs] [cross triplet, e.g. aarch64-linux-gnu]
set -euo pipefail
jobs=${1:-2} triplet=${2:-}
cross=()
if [[ -n $triplet ]]; then
  # Debian's cross toolchain, and the target's -dev packages installed through multiarch.
  cat >/build/toolchain.cmake <<TOOLCHAIN
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR ${triplet%%-*})
set(CMAKE_C_COMPILER $triplet-gcc)
set(CMAKE_CXX_COMPILER $triplet-g++)
set(CMAKE_LIBRARY_ARCHITECTURE $triplet)
set(PKG_CONFIG_EXECUTABLE /usr/bin/$triplet-pkg-config)
TOOLCHAIN
  cross=(-DCMAKE_TOOLCHAIN_FILE=/build/toolchain.cmake)
fi
# The compiled-in fallback for the plugin (after <exe>/../lib/mcp-read, which the bundle uses).
cmake -S /src -B /build -G Ninja -DCMAKE_BUILD_TYPE=Release -DMCPREAD_BUILD_TESTS=OFF "${cross[@]}" \
  -DCMAKE_INSTALL_PREFIX=/opt/mcp-read -DCMAKE_INSTALL_LIBDIR=lib >/build/configure.log 2>&1 ||
  { cat /build/configure.log; exit 1; }
# -k 0: every compile error in one run, not only the first.
nice -n 15 cmake --build /build -j "$jobs" --target mcp-read mcpread_pdf_plugin mcpread_revenge_plugin -- -k 0
find /stage -mindepth 1 -delete  # a mount point: emptied, not removed
mkdir -p /stage/bin /stage/lib/mcp-read
cp /build/mcp-read /stage/bin/
cp /build/libmcpread_pdf.so /build/libmcpread_revenge.so /stage/lib/mcp-read/
# The ICU the build chose (the dlopen soname), for the bundle's library list.
sed -n 's/^MCPREAD_ICU_MAJOR:STRING=//p' /build/CMakeCache.txt >/stage/icu-major
