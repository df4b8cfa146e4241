#!/usr/bin/env bash
# Installs what is missing, builds mcp-read (Release) and serves MCP on stdio with the current
# directory as root. Arguments go to mcp-read (try --help). Only the server writes to stdout.
set -euo pipefail
project=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
{
  bash "$project/scripts/install-deps.sh"
  cmake -S "$project" -B "$project/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DMCPREAD_BUILD_TESTS=OFF
  cmake --build "$project/build" --target mcp-read
} >&2
exec "$project/build/mcp-read" "$@"
