#!/usr/bin/env bash
# Installs what is missing, builds mcp-read and its tests (Release), and runs every test:
# unit and end-to-end suites through ctest, the MCP Inspector CLI over stdio and HTTP, the
# official conformance suite over HTTP, the TypeScript SDK's client over stdio and HTTP, and a
# bounded load test of the HTTP transport.
set -euo pipefail
project=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bash "$project/scripts/install-deps.sh" --test
cmake -S "$project" -B "$project/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DMCPREAD_BUILD_TESTS=ON \
  -DMCPREAD_WERROR=ON
cmake --build "$project/build"
ctest --test-dir "$project/build" --output-on-failure -j "$(nproc)"
bash "$project/conformance/inspector.sh" "$project/build/mcp-read"
bash "$project/conformance/suite.sh" "$project/build/mcp-read"
bash "$project/conformance/sdk-client/run.sh" "$project/build/mcp-read"
node "$project/bench/http-load.mjs" "$project/build/mcp-read" --seconds 5
# With MCPREAD_FULL_TESTS=1: the tests again under ASan/UBSan and TSan, then a minute of
# fuzzing per fuzz target (about 25 minutes more on 2 cores).
if [[ "${MCPREAD_FULL_TESTS:-}" == 1 ]]; then
  bash "$project/scripts/test-sanitizers.sh"
  bash "$project/scripts/fuzz.sh" 60
fi
