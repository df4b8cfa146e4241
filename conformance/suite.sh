#!/usr/bin/env bash
# Runs the official MCP conformance suite (pinned) against a server over Streamable HTTP.
#
#   bash conformance/suite.sh [path/to/server-binary] [expected-failures.yaml]
#
# Default: build/mcp-read with conformance/expected-failures.yaml, which lists the scenarios that
# need the suite's own fixture tools/resources/prompts. The server is started as
# `BINARY --transport http --port 0 ROOT` and its port read from its log. Exit status: the
# suite's, 0 when every scenario outside the baseline passed and every baseline entry failed.
# The suite needs Node.js 22, which npx fetches (`-p node@22`) on machines with an older one.
set -uo pipefail

CONFORMANCE_PKG="@modelcontextprotocol/conformance@0.1.16"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="${1:-$repo/build/mcp-read}"
baseline="${2:-$repo/conformance/expected-failures.yaml}"
timeout_s="${CONFORMANCE_TIMEOUT:-900}"

tmp="$(mktemp -d "${TMPDIR:-/tmp}/mcp-read-conformance.XXXXXX")"
mkdir -p "$tmp/root"
printf 'conformance fixture\n' >"$tmp/root/hello.txt"
"$bin" --transport http --port 0 "$tmp/root" 2>"$tmp/server.err" &
server_pid=$!
trap 'kill "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null; rm -rf "$tmp"' EXIT

port=""
for _ in $(seq 100); do
  port="$(sed -n 's|.*listening on http://127\.0\.0\.1:\([0-9]*\)/mcp.*|\1|p' "$tmp/server.err" | head -n 1)"
  [[ -n "$port" ]] && break
  sleep 0.1
done
if [[ -z "$port" ]]; then
  echo "conformance: $bin did not announce its port:" >&2
  tail -n 20 "$tmp/server.err" >&2
  exit 1
fi

export npm_config_loglevel=error npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
args=(server --url "http://127.0.0.1:$port/mcp")
[[ -n "$baseline" ]] && args+=(--expected-failures "$baseline")
timeout --kill-after=10 "$timeout_s" npx -y -p node@22 -p "$CONFORMANCE_PKG" -c "conformance ${args[*]}"
status=$?
if [[ $status -ne 0 ]]; then
  echo "conformance: failed (status $status); the server's log:" >&2
  tail -n 30 "$tmp/server.err" >&2
fi
exit $status
