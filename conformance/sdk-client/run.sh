#!/usr/bin/env bash
# Runs the official MCP TypeScript SDK client against mcp-read over stdio and Streamable HTTP.
#
#   bash conformance/sdk-client/run.sh [path/to/mcp-read]      (default: build/mcp-read)
#
# Installs @modelcontextprotocol/sdk (the exact version in package.json) into
# conformance/sdk-client/node_modules when it is missing or another version, then runs
# sdk-client.mjs, which prints `ok - ...` / `not ok - ...` per check and ends with
# `sdk-client: N passed, M failed`. Exit status: 0 when every check passed, 1 otherwise.
# Needs node 20 or later and npm. SDK_CLIENT_INSTALL_TIMEOUT (seconds, default 600) bounds the
# install.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
bin="${1:-$repo/build/mcp-read}"
[[ "$bin" == /* ]] || bin="$PWD/$bin"

for tool in node npm; do
  if ! command -v "$tool" >/dev/null; then
    echo "not ok - $tool is available"
    echo "sdk-client: 0 passed, 1 failed"
    exit 1
  fi
done

export npm_config_loglevel=error npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
want="$(node -p 'require(process.argv[1]).dependencies["@modelcontextprotocol/sdk"]' "$here/package.json")"
have="$(node -p 'try { require(process.argv[1]).version } catch { "" }' \
  "$here/node_modules/@modelcontextprotocol/sdk/package.json")"
if [[ "$have" != "$want" ]]; then
  if ! timeout --kill-after=10 "${SDK_CLIENT_INSTALL_TIMEOUT:-600}" \
    npm install --prefix "$here" --no-audit --no-fund >&2; then
    echo "not ok - npm installs @modelcontextprotocol/sdk@$want into $here/node_modules"
    echo "sdk-client: 0 passed, 1 failed"
    exit 1
  fi
fi

exec node "$here/sdk-client.mjs" "$bin"
