#!/usr/bin/env bash
# Inside the build root (build.sh runs it): configures and builds mcp-read and its PDF plugin,
# Release, no tests, from the source tree at /src into /build, and installs them into /stage.
set -euo pipefail
jobs=${MCPREAD_RELEASE_JOBS:-2}
# The compiled-in fallback for the plugin (after <exe>/../lib/mcp-read, which the bundle uses).
cmake -S /src -B /build -G Ninja -DCMAKE_BUILD_TYPE=Release -DMCPREAD_BUILD_TESTS=OFF \
  -DCMAKE_INSTALL_PREFIX=/opt/mcp-read -DCMAKE_INSTALL_LIBDIR=lib >/build.configure.log 2>&1 ||
  { cat /build.configure.log; exit 1; }
# -k 0: every compile error in one run, not only the first.
nice -n 15 cmake --build /build -j "$jobs" --target mcp-read mcpread_pdf_plugin -- -k 0
rm -rf /stage && mkdir -p /stage/bin /stage/lib/mcp-read
cp /build/mcp-read /stage/bin/
cp /build/libmcpread_pdf.so /stage/lib/mcp-read/
# The ICU the build chose (the dlopen soname), for the bundle's library list.
sed -n 's/^MCPREAD_ICU_MAJOR:STRING=//p' /build/CMakeCache.txt >/stage/icu-major
