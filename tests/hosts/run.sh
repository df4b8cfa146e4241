#!/usr/bin/env bash
# The host suite: real MCP hosts (Claude Code, Gemini CLI, Codex, the Vercel AI SDK), pinned in
# tests/hosts/<host>/package.json, each talking to mcp-read over stdio and to a loopback mock of
# its model API; checks that what mcp-read sends arrives at the model whole (see README.md).
#
#   bash tests/hosts/run.sh [path/to/mcp-read]      (default: build/mcp-read)
#
# Installs each host with its install.sh (npm, only when the pinned version is missing), makes
# sure the `vips` command exists (Debian package libvips-tools, installed with apt-get when
# missing), then runs suite.mjs inside a network namespace that has only loopback
# (`unshare -n`), so nothing can leave the machine. suite.mjs prints `ok - ...` / `not ok - ...`
# per host variant and case and ends with `hosts: N passed, M failed`; then claude-code/sequence.mjs
# checks Claude Code's own connection sequence. Exit status: 0 when every
# check passed, 1 otherwise.
# HOSTS_ONLY=claude-code,gemini-cli/gemini-3-flash-preview,... picks variants or hosts (only those
# hosts are installed); HOSTS_CASES, HOSTS_SHORT, HOSTS_CONCURRENCY, HOSTS_ROUND_TIMEOUT_S,
# HOSTS_FIXTURES, HOSTS_SERVER_ARGS, HOSTS_VERBOSE: see suite.mjs. HOSTS_INSTALL_TIMEOUT (seconds,
# default 600) bounds each host's install. Needs node 20 or later, npm, and root (or
# unprivileged user namespaces) for unshare.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
bin="${1:-$repo/build/mcp-read}"
[[ "$bin" == /* ]] || bin="$PWD/$bin"

fail() {
  echo "not ok - $1"
  echo "hosts: 0 passed, 1 failed"
  exit 1
}

for tool in node npm unshare ip; do
  command -v "$tool" >/dev/null || fail "$tool is available"
done
[[ -x "$bin" ]] || fail "mcp-read binary exists ($bin)"

export npm_config_loglevel=error npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false

# --- the hosts: every tests/hosts/<host>/ with a driver.mjs, or those HOSTS_ONLY names
hosts=()
for d in "$here"/*/; do
  h="$(basename "$d")"
  [[ -f "$d/driver.mjs" && -f "$d/install.sh" ]] || continue
  if [[ -n "${HOSTS_ONLY:-}" ]]; then
    wanted=0
    IFS=',' read -ra picks <<<"$HOSTS_ONLY"
    for p in "${picks[@]}"; do [[ "${p%%/*}" == "$h" ]] && wanted=1; done
    [[ $wanted == 1 ]] || continue
  fi
  hosts+=("$h")
done
not_installed=()
for h in "${hosts[@]}"; do
  t0=$SECONDS
  if timeout --kill-after=10 "${HOSTS_INSTALL_TIMEOUT:-600}" bash "$here/$h/install.sh" >&2; then
    echo "# $h installed ($((SECONDS - t0)) s)"
  else
    echo "# $h: install.sh failed" >&2
    not_installed+=("$h")
  fi
done

# --- vips, for the image fixtures (as bench/run.sh does)
if ! command -v vips >/dev/null; then
  echo "# vips not found; installing the Debian package libvips-tools" >&2
  sudo=()
  [[ "$(id -u)" != "0" ]] && command -v sudo >/dev/null && sudo=(sudo -n)
  if command -v apt-get >/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    "${sudo[@]}" apt-get update -q >&2 || true
    "${sudo[@]}" apt-get install -y -q libvips-tools >&2 || true
  fi
  command -v vips >/dev/null || fail "the vips command is available (Debian package libvips-tools)"
fi

# --- the suite, in a network namespace with loopback only
netns=(unshare -n)
[[ "$(id -u)" != "0" ]] && netns=(unshare -r -n)
"${netns[@]}" true 2>/dev/null || fail "${netns[*]} works (the suite runs in a network namespace; needs root or user namespaces)"
export HOSTS_NOT_INSTALLED="$(IFS=','; echo "${not_installed[*]}")"
"${netns[@]}" bash -c 'ip link set lo up && exec node "$1" "$2"' bash "$here/suite.mjs" "$bin"
status=$?
# Claude Code's own connection sequence (server/discover, stateless requests, roots through
# input_required with --stateless-roots ask), when Claude Code is among the hosts and installed.
if [[ " ${hosts[*]} " == *" claude-code "* && " ${not_installed[*]} " != *" claude-code "* ]]; then
  "${netns[@]}" bash -c 'ip link set lo up && exec node "$1" "$2"' bash "$here/claude-code/sequence.mjs" "$bin" || status=1
fi
exit $status
