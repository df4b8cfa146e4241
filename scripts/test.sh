#!/usr/bin/env bash
# Installs what is missing, builds mcp-read and its tests (Release), and runs every test:
# unit and end-to-end suites through ctest, then the MCP Inspector CLI against the binary.
set -euo pipefail
project=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bash "$project/scripts/install-deps.sh" --test
cmake -S "$project" -B "$project/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DMCPREAD_BUILD_TESTS=ON \
  -DMCPREAD_WERROR=ON
cmake --build "$project/build"
ctest --test-dir "$project/build" --output-on-failure -j "$(nproc)"
bash "$project/conformance/inspector.sh" "$project/build/mcp-read"
