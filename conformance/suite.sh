#!/usr/bin/env bash
# Runs the official MCP conformance suite (pinned) over Streamable HTTP, six times:
#
#   1. against the conformance fixture (mcpread_conformance_fixture, built with the tests beside
#      mcp-read): mcp-read's own protocol core and HTTP transport serving the tools, resources and
#      prompts the suite expects of its test server. Every active scenario must pass.
#   2. against mcp-read itself, with conformance/expected-failures.yaml: the scenarios that call
#      those fixture tools, resources and prompts, which mcp-read does not have.
#   3, 4. the 2026-07-28 requirement set (0.2.0-alpha.12, --requirements 2026-07-28, pending
#      scenarios included): the fixture must pass every check; mcp-read runs with
#      conformance/expected-failures-2026-07-28.yaml, each entry naming the fixture tool it needs.
#   5, 6. the tasks extension's scenarios (tasks-*, SEP-2663): the fixture without a baseline,
#      mcp-read with the same one.
#      --requirements runs them as well, but as not_scored (reason: extension), and the runner
#      judges a baseline only on scored scenarios: there a tasks failure would pass unnoticed.
#
#   bash conformance/suite.sh [path/to/mcp-read] [expected-failures.yaml]
#
# The fixture is looked for beside the binary (MCPREAD_CONFORMANCE_FIXTURE overrides the path).
# Each server is started on port 0 and its port read from its log. Exit status: 0 when every run
# passes (with a baseline: every scenario outside it passed and every baseline entry failed). The suite needs Node.js 22, which npx fetches (`-p node@22`) on older machines.
set -uo pipefail

CONFORMANCE_PKG="@modelcontextprotocol/conformance@0.1.16"
# The 2026-07-28 requirement set lives in a pre-release; each server runs it with its own baseline.
CONFORMANCE_2026_PKG="@modelcontextprotocol/conformance@0.2.0-alpha.12"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="${1:-$repo/build/mcp-read}"
baseline="${2:-$repo/conformance/expected-failures.yaml}"
fixture="${MCPREAD_CONFORMANCE_FIXTURE:-$(dirname "$bin")/mcpread_conformance_fixture}"
timeout_s="${CONFORMANCE_TIMEOUT:-900}"

tmp="$(mktemp -d "${TMPDIR:-/tmp}/mcp-read-conformance.XXXXXX")"
server_pid=""
cleanup() {
  [[ -n "$server_pid" ]] && { kill "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null; }
  rm -rf "$tmp"
}
trap cleanup EXIT
export npm_config_loglevel=error npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false

# run_suite <label> <baseline or ""> <server command...>: starts the server, runs the suite
# against it, stops the server; returns the suite's status.
run_suite() {
  local label=$1 expected=$2
  shift 2
  local log="$tmp/$label.err" port=""
  echo "conformance: === $label"
  "$@" 2>"$log" &
  server_pid=$!
  for _ in $(seq 100); do
    port="$(sed -n 's|.*listening on http://127\.0\.0\.1:\([0-9]*\)/mcp.*|\1|p' "$log" | head -n 1)"
    [[ -n "$port" ]] && break
    sleep 0.1
  done
  if [[ -z "$port" ]]; then
    echo "conformance: $label did not announce its port:" >&2
    tail -n 20 "$log" >&2
    return 1
  fi
  local args=(server --url "http://127.0.0.1:$port/mcp" "${suite_args[@]}")
  [[ -n "$expected" ]] && args+=(--expected-failures "$expected")
  local status=0
  if [[ ${#suite_scenarios[@]} -eq 0 ]]; then
    timeout --kill-after=10 "$timeout_s" npx -y -p node@22 -p "$suite_pkg" -c "conformance ${args[*]}"
    status=$?
  else  # one scenario at a time, against the same server
    local scenario
    for scenario in "${suite_scenarios[@]}"; do
      timeout --kill-after=10 "$timeout_s" npx -y -p node@22 -p "$suite_pkg" \
        -c "conformance ${args[*]} --scenario $scenario" || status=1
    done
  fi
  if [[ $status -ne 0 ]]; then
    echo "conformance: $label failed (status $status); its log:" >&2
    tail -n 30 "$log" >&2
  fi
  kill "$server_pid" 2>/dev/null
  wait "$server_pid" 2>/dev/null
  server_pid=""
  return $status
}

if [[ ! -x "$fixture" ]]; then
  echo "conformance: no fixture server at $fixture; build the tests (-DMCPREAD_BUILD_TESTS=ON)" >&2
  exit 1
fi
suite_pkg=$CONFORMANCE_PKG suite_args=() suite_scenarios=()
run_suite fixture "" "$fixture" --port 0
fixture_status=$?

mkdir -p "$tmp/root"
printf 'conformance fixture\n' >"$tmp/root/hello.txt"
run_suite mcp-read "$baseline" "$bin" --transport http --port 0 "$tmp/root"
read_status=$?

# 3 and 4: the 2026-07-28 requirement set (the stateless era): the fixture passes every check, mcp-read
# against its baseline.
suite_pkg=$CONFORMANCE_2026_PKG suite_args=(--requirements 2026-07-28)
run_suite fixture-2026-07-28 "" "$fixture" --port 0
fixture_2026_status=$?
run_suite mcp-read-2026-07-28 "$repo/conformance/expected-failures-2026-07-28.yaml" \
  "$bin" --transport http --port 0 "$tmp/root"
read_2026_status=$?

# 5 and 6: the tasks extension (--force: an extension is not on the spec timeline).
suite_args=(--spec-version 2026-07-28 --force)
suite_scenarios=(tasks-lifecycle tasks-capability-negotiation tasks-wire-fields tasks-request-state-removal
  tasks-mrtr-input tasks-request-headers tasks-dispatch-and-envelope tasks-status-notifications
  tasks-required-task-error tasks-mrtr-composition)
run_suite fixture-tasks "" "$fixture" --port 0
fixture_tasks_status=$?
run_suite mcp-read-tasks "$repo/conformance/expected-failures-2026-07-28.yaml" \
  "$bin" --transport http --port 0 "$tmp/root"
read_tasks_status=$?

echo "conformance: fixture (every scenario must pass): status $fixture_status;" \
  "mcp-read (expected-failures.yaml): status $read_status;" \
  "2026-07-28 requirements: fixture status $fixture_2026_status, mcp-read status $read_2026_status;" \
  "tasks extension: fixture status $fixture_tasks_status, mcp-read status $read_tasks_status"
[[ $fixture_status -eq 0 && $read_status -eq 0 && $fixture_2026_status -eq 0 && $read_2026_status -eq 0 &&
  $fixture_tasks_status -eq 0 && $read_tasks_status -eq 0 ]]
