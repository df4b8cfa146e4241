# Sourced by the release package checks (npm.sh, mcpb.sh): reporting, the bundle under test and
# an MCP client (the MCP Inspector CLI, the version conformance/inspector.sh pins).
#
# Each check takes:  <check>.sh BUILD_DIR [BUNDLE_DIR]
# BUNDLE_DIR is a portable bundle from scripts/release.sh (dist/mcp-read-<version>-linux-<arch>);
# without it (or $MCPREAD_BUNDLE_DIR) a stand-in is laid out from BUILD_DIR's mcp-read and PDF
# plugin (tests/release/standin-bundle.sh), which runs only where the build's libraries are.
set -uo pipefail
export LC_ALL=C

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=$(cd "${1:?usage: $0 BUILD_DIR [BUNDLE_DIR]}" && pwd)
bundle_arg=${2:-${MCPREAD_BUNDLE_DIR:-}}
version=$(sed -n 's/^project(mcp-read VERSION \([0-9][0-9.]*\).*/\1/p' "$repo/CMakeLists.txt")
INSPECTOR_PKG="@modelcontextprotocol/inspector@$(sed -n 's/^INSPECTOR_VERSION="\(.*\)"/\1/p' "$repo/conformance/inspector.sh")"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mcp-read-release.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

source "$repo/tests/support/tap.sh"
skip() { echo "skipped: $*"; exit 77; }
# now_ms: a monotonic-enough clock for the measurements these checks print (never asserted).
now_ms() { echo $(($(date +%s%N) / 1000000)); }

for tool in node npm npx timeout unshare; do
  command -v "$tool" >/dev/null || skip "$tool is not installed"
done
# Offline means a network namespace of our own (root, or user namespaces allowed).
unshare -n true 2>/dev/null || unshare -rn true 2>/dev/null || skip "unshare -n is not permitted here"
offline() { if unshare -n true 2>/dev/null; then unshare -n "$@"; else unshare -rn "$@"; fi; }

export npm_config_loglevel=error npm_config_update_notifier=false npm_config_fund=false \
  npm_config_audit=false

# The bundle under test: given, or the stand-in.
if [[ -n $bundle_arg ]]; then
  bundle=$(cd "$bundle_arg" && pwd) || { not_ok "bundle folder $bundle_arg exists"; finish; }
  echo "# bundle: $bundle"
else
  bundle=$(bash "$repo/tests/release/standin-bundle.sh" "$build" "$tmp/bundles") ||
    { not_ok "a stand-in bundle is laid out from $build"; finish; }
  echo "# bundle: stand-in from $build (not portable: it loads this machine's libraries)"
fi
arch=${bundle##*-linux-}

# windows_bundle: sets win_bundle to the Windows bundle under test: $MCPREAD_WINDOWS_BUNDLE_DIR
# (scripts/windows/bundle.sh's dist/mcp-read-<version>-win32-x64) or a stand-in whose .exe is
# only the headers of an x86-64 Windows executable (the layout and manifests are what is tested).
windows_bundle() {
  if [[ -n ${MCPREAD_WINDOWS_BUNDLE_DIR:-} ]]; then
    win_bundle=$(cd "$MCPREAD_WINDOWS_BUNDLE_DIR" && pwd)
  else
    win_bundle=$(bash "$repo/tests/release/standin-bundle.sh" --windows "$tmp/bundles")
  fi
  echo "# Windows bundle: $win_bundle"
}

# The inspector, fetched once into npx's cache (with the network: it is the test's client, not
# what is under test); later runs, offline ones included, find it there.
inspector_ready() {
  timeout --kill-after=10 900 npx -y "$INSPECTOR_PKG" --help >"$tmp/inspector-fetch.out" 2>&1 ||
    timeout --kill-after=10 900 npx -y "$INSPECTOR_PKG" --help >"$tmp/inspector-fetch.out" 2>&1
}

# inspect NAME DIR INSPECTOR_ARGS... : one Inspector CLI run without the network, from DIR,
# against the server started as "${server_cmd[@]}" with the Inspector options "${server_env[@]}"
# (-e K=V); output in $tmp/NAME.{out,err,status}.
server_cmd=()
server_env=()
inspect() {
  local name=$1 dir=$2
  shift 2
  (cd "$dir" && offline env npm_config_offline=true timeout --kill-after=10 180 \
    npx -y "$INSPECTOR_PKG" --cli "${server_env[@]}" "${server_cmd[@]}" "$@") >"$tmp/$name.out" 2>"$tmp/$name.err"
  echo $? >"$tmp/$name.status"
}

# verify NAME DESCRIPTION CHECK [ARG] : one reported check on the JSON the run NAME printed.
# CHECK: tools (read and read_image listed), first-line ARG (a read's numbered first line),
# contains ARG (the first text block contains ARG).
verify() {
  local name=$1 desc=$2 status reason
  shift 2
  status=$(cat "$tmp/$name.status")
  if [[ $status != 0 ]]; then
    not_ok "$desc" "the inspector exited with status $status" \
      "$(tail -n 30 "$tmp/$name.err")" "$(head -c 1500 "$tmp/$name.out")"
    return
  fi
  if reason=$(node -e "$verify_js" -- "$tmp/$name.out" "$@" 2>&1); then
    ok "$desc"
  else
    not_ok "$desc" "$reason"
  fi
}
verify_js='
const fs = require("fs");
const [file, what, arg] = process.argv.slice(1);
let r;
try { r = JSON.parse(fs.readFileSync(file, "utf8")); } catch (e) { console.log(`not JSON: ${e.message}`); process.exit(1); }
const fail = (m) => { console.log(`${m}\ngot: ${JSON.stringify(r).slice(0, 1500)}`); process.exit(1); };
const text0 = () => {
  if (r.isError) fail("isError is true");
  const c = (r.content || [])[0];
  if (!c || c.type !== "text") fail("content[0] is not a text block");
  return c.text;
};
if (what === "tools") {
  const names = (r.tools || []).map((t) => t.name);
  for (const n of ["read", "read_image"]) if (!names.includes(n)) fail(`tool ${n} is not listed`);
} else if (what === "first-line") {
  if (!text0().includes("     1\t" + arg)) fail(`no numbered first line ${JSON.stringify(arg)}`);
} else if (what === "contains") {
  if (!text0().includes(arg)) fail(`the text does not contain ${JSON.stringify(arg)}`);
} else { console.log(`unknown check ${what}`); process.exit(1); }
'

# A data folder for the servers under test: a text file and a one-page PDF (read_pdf.sh's
# writer), so that a read proves the PDF plugin is found where the bundle puts it.
data="$tmp/data"
mkdir -p "$data"
first_line="alpha: the first line of the release fixture"
printf '%s\n%s\n' "$first_line" "beta: the second line" >"$data/hello.txt"
work=$tmp  # read_pdf.sh writes $work/data/sample.pdf
# shellcheck source=../packaging/read_pdf.sh
source "$repo/tests/packaging/read_pdf.sh"
