#!/usr/bin/env bash
# Drives mcp-read through the MCP Inspector CLI (pinned version) and checks the answers.
#
#   bash conformance/inspector.sh [path/to/mcp-read]      (default: build/mcp-read)
#
# Checks, over stdio: tools/list lists `read` and `read_image`, each with an inputSchema that
# requires file_path; `read` on a small text file returns its numbered first line; `read` on a
# missing file returns isError with a message containing "not found". Then over HTTP, with the
# server started as `mcp-read --transport http --port 0`: tools/list and `read` through the
# Inspector's Streamable HTTP transport (/mcp) and its legacy SSE transport (/sse).
# Prints `ok - ...` / `not ok - ...` per check and ends with `inspector: N passed, M failed`.
# Exit status: 0 when every check passed, 1 otherwise.
#
# The first run downloads the inspector into npx's cache (~/.npm/_npx); later runs reuse it.
# Timeouts (seconds) can be raised through the environment:
#   INSPECTOR_INSTALL_TIMEOUT (default 900)  first download of the inspector
#   INSPECTOR_CALL_TIMEOUT    (default 180)  each inspector run
set -uo pipefail

INSPECTOR_VERSION="0.15.0"
INSPECTOR_PKG="@modelcontextprotocol/inspector@${INSPECTOR_VERSION}"
install_timeout="${INSPECTOR_INSTALL_TIMEOUT:-900}"
call_timeout="${INSPECTOR_CALL_TIMEOUT:-180}"

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="${1:-$repo/build/mcp-read}"
[[ "$bin" == /* ]] || bin="$PWD/$bin"

TAP_NAME=inspector
source "$repo/tests/support/tap.sh"

for tool in node npx timeout; do
  if ! command -v "$tool" >/dev/null; then
    not_ok "$tool is available" "install it first"
    finish
  fi
done
if [[ ! -x "$bin" ]]; then
  not_ok "server binary $bin exists and is executable" "build the project first or pass the binary's path"
  finish
fi

tmp="$(mktemp -d "${TMPDIR:-/tmp}/mcp-read-inspector.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
root="$tmp/root"
mkdir -p "$root"
first_line="alpha: the first line of the inspector fixture"
printf '%s\n%s\n%s\n' "$first_line" "beta: the second line" "gamma: the third line" >"$root/hello.txt"
missing="$root/no-such-file.txt"

# Quiet npm's own chatter; errors still show.
export npm_config_loglevel=error npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false

# --- fetch the inspector once (slow the first time), retrying once on failure
fetch_ok=0
for attempt in 1 2; do
  if timeout --kill-after=10 "$install_timeout" npx -y "$INSPECTOR_PKG" --help >"$tmp/fetch.out" 2>"$tmp/fetch.err"; then
    fetch_ok=1
    break
  fi
done
if [[ $fetch_ok -eq 1 ]]; then
  ok "inspector ${INSPECTOR_VERSION} is available through npx"
else
  not_ok "inspector ${INSPECTOR_VERSION} is available through npx" \
    "npx -y $INSPECTOR_PKG --help failed twice (timeout ${install_timeout}s each); its stderr:" \
    "$(tail -n 30 "$tmp/fetch.err")"
  finish
fi

# run NAME ARGS... : one inspector CLI run against the server; stdout/stderr/status in $tmp/NAME.*
# The target is the binary over stdio unless $target is set (a URL, with --transport).
target=()
run() {
  local name="$1"
  shift
  local server=("$bin" "$root")
  [[ ${#target[@]} -gt 0 ]] && server=("${target[@]}")
  timeout --kill-after=10 "$call_timeout" \
    npx -y "$INSPECTOR_PKG" --cli "${server[@]}" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
  echo $? >"$tmp/$name.status"
}

# check NAME CHECK [ARG] : runs the node check CHECK on the JSON in $tmp/NAME.out; prints the
# failure reason and returns 1 when it does not hold.
check() {
  node --input-type=module -e "$checks_js" -- "$@"
}
checks_js='
import { readFileSync } from "node:fs";
const [, file, what, arg] = process.argv;
const out = readFileSync(file, "utf8");
let r;
try { r = JSON.parse(out); } catch (e) {
  console.log(`the inspector output is not JSON (${e.message}):\n${out.slice(0, 2000)}`); process.exit(1);
}
const show = (v) => JSON.stringify(v, null, 2).slice(0, 1500);
const failWith = (msg, detail = r) => { console.log(`${msg}\n${detail === null ? "" : "got: " + show(detail)}`); process.exit(1); };
const text0 = () => {
  const c = Array.isArray(r.content) ? r.content[0] : undefined;
  if (!c || c.type !== "text" || typeof c.text !== "string") failWith("content[0] is not a text block");
  return c.text;
};
switch (what) {
  case "tools": {
    const names = (r.tools || []).map((t) => t.name);
    for (const n of ["read", "read_image"]) if (!names.includes(n)) failWith(`tool ${n} is not listed (tools: ${names.join(", ")})`, null);
    break;
  }
  case "schema": {
    const t = (r.tools || []).find((x) => x.name === arg);
    if (!t) failWith(`tool ${arg} is not listed`, null);
    const s = t.inputSchema;
    if (!s || s.type !== "object") failWith(`${arg}: inputSchema.type is not "object"`, s);
    if (!Array.isArray(s.required) || !s.required.includes("file_path")) failWith(`${arg}: inputSchema.required does not include file_path`, s);
    if (!s.properties || !s.properties.file_path) failWith(`${arg}: inputSchema.properties has no file_path`, s);
    break;
  }
  case "first-line": {
    if (r.isError) failWith("isError is true");
    const want = "     1\t" + arg;
    const text = text0();
    if (!text.includes(want)) failWith(`content[0].text does not contain ${JSON.stringify(want)}`);
    break;
  }
  case "not-found": {
    if (r.isError !== true) failWith("isError is not true");
    const text = text0();
    if (!/not found/i.test(text)) failWith(`content[0].text does not mention "not found": ${JSON.stringify(text)}`);
    // The unknown-tool error also says "not found"; it must not pass for a missing file.
    if (/-32602|tool "?read"? not found|unknown tool/i.test(text)) failWith(`the error is about the tool, not the file: ${JSON.stringify(text)}`);
    break;
  }
  default: console.log(`unknown check ${what}`); process.exit(1);
}
'

# verify NAME DESCRIPTION CHECK [ARG] : one reported check on the run NAME
shown=" "
verify() {
  local name="$1" desc="$2"
  shift 2
  local status reason
  status="$(cat "$tmp/$name.status")"
  if [[ "$status" != 0 ]]; then
    local why="the inspector exited with status $status"
    [[ "$status" == 124 || "$status" == 137 ]] && why="the inspector did not finish within ${call_timeout}s"
    if [[ "$shown" == *" $name "* ]]; then
      not_ok "$desc" "$why (output above)"
    else
      shown+="$name "
      local out="" err=""
      [[ -s "$tmp/$name.err" ]] && err="$(printf 'its stderr:\n%s' "$(tail -n 40 "$tmp/$name.err")")"
      [[ -s "$tmp/$name.out" ]] && out="$(printf 'its stdout:\n%s' "$(head -c 2000 "$tmp/$name.out")")"
      not_ok "$desc" "$why" "$err" "$out"
    fi
    return
  fi
  if reason="$(check "$tmp/$name.out" "$@" 2>&1)"; then
    ok "$desc"
  else
    local err=""
    [[ -s "$tmp/$name.err" ]] && err="$(printf 'inspector stderr:\n%s' "$(tail -n 20 "$tmp/$name.err")")"
    not_ok "$desc" "$reason" "$err"
  fi
}

run list --method tools/list
verify list "tools/list lists read and read_image" tools
verify list "read: inputSchema is an object that requires file_path" schema read
verify list "read_image: inputSchema is an object that requires file_path" schema read_image

run call --method tools/call --tool-name read --tool-arg "file_path=$root/hello.txt"
verify call "tools/call read on a text file returns its numbered first line" first-line "$first_line"

run missing --method tools/call --tool-name read --tool-arg "file_path=$missing"
verify missing "tools/call read on a missing file returns isError with \"not found\"" not-found

# --- over HTTP: one server process serves both transports
"$bin" --transport http --port 0 "$root" 2>"$tmp/http-server.err" &
server_pid=$!
trap 'kill "$server_pid" 2>/dev/null; rm -rf "$tmp"' EXIT
port=""
for _ in $(seq 100); do
  port="$(sed -n 's|.*listening on http://127\.0\.0\.1:\([0-9]*\)/mcp.*|\1|p' "$tmp/http-server.err" | head -n 1)"
  [[ -n "$port" ]] && break
  sleep 0.1
done
if [[ -z "$port" ]]; then
  not_ok "mcp-read --transport http announces its port" "$(tail -n 20 "$tmp/http-server.err")"
else
  for transport in http sse; do
    path=/mcp
    [[ $transport == sse ]] && path=/sse
    target=("http://127.0.0.1:$port$path" --transport "$transport")
    run "$transport-list" --method tools/list
    verify "$transport-list" "over $transport ($path): tools/list lists read and read_image" tools
    run "$transport-call" --method tools/call --tool-name read --tool-arg "file_path=$root/hello.txt"
    verify "$transport-call" "over $transport ($path): read returns the numbered first line" first-line "$first_line"
  done
  target=()
  kill -TERM "$server_pid" 2>/dev/null
  if wait "$server_pid"; then
    ok "the HTTP server exits cleanly on SIGTERM"
  else
    not_ok "the HTTP server exits cleanly on SIGTERM" "$(tail -n 20 "$tmp/http-server.err")"
  fi
fi

# The inspector does not show the server's stderr; when a run failed, start the server once
# directly with an initialize request and show what it said.
if grep -qvx 0 "$tmp"/*.status; then
  printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"inspector.sh","version":"1"}}}' |
    timeout --kill-after=5 10 "$bin" "$root" >"$tmp/direct.out" 2>"$tmp/direct.err"
  echo "# diagnostics: the server started directly with an initialize request exited with status $?"
  [[ -s "$tmp/direct.out" ]] && head -c 1500 "$tmp/direct.out" | sed 's/^/#   stdout: /'
  [[ -s "$tmp/direct.err" ]] && tail -n 20 "$tmp/direct.err" | sed 's/^/#   stderr: /'
fi

finish
