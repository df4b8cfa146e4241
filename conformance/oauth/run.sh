#!/usr/bin/env bash
# Proves mcp-read's OAuth resource server (--oauth-issuer) against a real authorization server,
# oidc-provider, and the official MCP TypeScript SDK client's OAuth flow (oauth.mjs says what
# is checked); then a team, alice and bob, through three replicas with roots per identity behind
# nginx (team.mjs; needs nginx, as tests/service/ does).
#
#   bash conformance/oauth/run.sh [path/to/mcp-read]      (default: build/mcp-read)
#
# Installs the exact versions in package.json (oidc-provider, @modelcontextprotocol/sdk, jose)
# into conformance/oauth/node_modules when one is missing or another version, then runs oauth.mjs
# inside a network namespace that has only loopback (`unshare -n`), so nothing can leave the
# machine. oauth.mjs prints `ok - ...` / `not ok - ...` per check and ends with
# `oauth: N passed, M failed` (team.mjs: `oauth team: N passed, M failed`). Exit status: 0 when every check passed, 1 otherwise. Needs node 20
# or later (node 22 runs the checks: npx fetches it on older machines), npm, and root (or
# unprivileged user namespaces) for unshare. OAUTH_INSTALL_TIMEOUT
# (seconds, default 600) bounds the install.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
bin="${1:-$repo/build/mcp-read}"
[[ "$bin" == /* ]] || bin="$PWD/$bin"

fail() {
  echo "not ok - $1"
  echo "oauth: 0 passed, 1 failed"
  exit 1
}

for tool in node npm unshare ip; do
  command -v "$tool" >/dev/null || fail "$tool is available"
done
[[ -x "$bin" ]] || fail "mcp-read binary exists ($bin)"

export npm_config_loglevel=error npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
# Every pinned package at its version, or (re)install.
installed="$(node -e '
  const { readFileSync } = require("node:fs");
  const deps = require(process.argv[1] + "/package.json").dependencies;
  for (const [name, want] of Object.entries(deps)) {
    let have = "";
    try { have = JSON.parse(readFileSync(`${process.argv[1]}/node_modules/${name}/package.json`, "utf8")).version; } catch {}
    if (have !== want) { console.log("no"); process.exit(0); }
  }
  console.log("yes");' "$here")"
if [[ "$installed" != yes ]]; then
  timeout --kill-after=10 "${OAUTH_INSTALL_TIMEOUT:-600}" npm install --prefix "$here" --no-audit --no-fund >&2 ||
    fail "npm installs oidc-provider, @modelcontextprotocol/sdk and jose into $here/node_modules"
fi

netns=(unshare -n)
[[ "$(id -u)" != "0" ]] && netns=(unshare -r -n)
"${netns[@]}" true 2>/dev/null || fail "${netns[*]} works (the proof runs in a network namespace; needs root or user namespaces)"
# oidc-provider 9 supports Node.js 22 and later: on an older node, npx brings node 22 as the
# conformance suite's phase does (its path is found before the namespace shuts the network out).
node_bin="$(command -v node)"
if (($(node -p 'parseInt(process.versions.node)') < 22)); then
  node_bin="$(timeout --kill-after=10 "${OAUTH_INSTALL_TIMEOUT:-600}" npx -y -p node@22 -c 'node -p process.execPath')" &&
    [[ -x "$node_bin" ]] || fail "npx brings Node.js 22 for oidc-provider"
fi
# oidc-provider warns on stderr of what a test means to use (its development login pages and
# in-memory storage): those warnings are dropped, any other is shown.
run_in_netns() {  # <script.mjs>
  "${netns[@]}" bash -c 'ip link set lo up && exec "$1" "$2" "$3"' bash "$node_bin" "$1" "$bin" \
    2> >(grep -v -E '^oidc-provider WARNING: a quick start development-only' >&2)
}
run_in_netns "$here/oauth.mjs"
status=$?
# Then the team (team.mjs): three replicas with --oauth-roots behind nginx, alice and bob kept
# apart, and a soak with tokens expiring and refreshed (OAUTH_TEAM_SOAK_S seconds, 30 here).
OAUTH_TEAM_SOAK_S="${OAUTH_TEAM_SOAK_S:-30}" run_in_netns "$here/team.mjs" || status=1
wait
exit $status
