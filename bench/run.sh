#!/usr/bin/env bash
# Benchmark mcp-read against the reference filesystem server, side by side.
#
#   bash bench/run.sh [path/to/mcp-read]      (default: build/mcp-read, built when missing)
#
# Installs the pinned peer into bench/.peer/ (once), writes the fixtures into a temporary
# directory, runs bench/bench.mjs and prints the table; the table is also written to
# bench/results/latest.md. Exits non-zero when a server fails to answer correctly.
# BENCH_ONLY=peer or BENCH_ONLY=mcp-read measures one side only. BENCH_ITERATIONS=k multiplies
# every row's calls and durations (default 1, a run of a few minutes).
# The image fixtures and the notebook's images need the `vips` command (Debian package
# libvips-tools), installed here with apt-get when missing; BENCH_IMAGES=0 leaves the image rows
# out, BENCH_DOCS=0 the document rows (PDF, notebook), BENCH_HTTP=0 the HTTP load run
# (bench/http-load.mjs), BENCH_NGINX=0 the nginx-against-direct row (bench/nginx-ratio.mjs),
# BENCH_MEMORY=0 the memory rows (bench/memory.mjs).
# Rows for Claude Code: BENCH_FIT=0 leaves out fitting photo.jpg and noise.png into its image
# budget (against `vips thumbnail`; needs the image fixtures), BENCH_TOOLS_LIST=0 the tools/list
# sizes, BENCH_HOSTS=0 the Claude Code round trip (bench/host-roundtrip.mjs, run here inside
# `unshare -n` with only loopback; skipped with a note when unshare is not usable or
# tests/hosts/claude-code/node_modules is missing: tests/hosts/claude-code/install.sh installs it).
# BENCH_CORE=0 runs only these rows (no startup, text, image, document or HTTP rows).
set -euo pipefail

PEER_PKG="@modelcontextprotocol/server-filesystem"
PEER_VERSION="2026.8.31"

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
cd "$repo"

mcp_read="${1:-build/mcp-read}"
only="${BENCH_ONLY:-}"
images="${BENCH_IMAGES:-1}"
docs="${BENCH_DOCS:-1}"
core="${BENCH_CORE:-1}"
hosts="${BENCH_HOSTS:-1}"
[[ "$core" == "0" ]] && docs=0   # the document rows are core rows

command -v node >/dev/null || { echo "bench: node is required" >&2; exit 2; }
command -v npm >/dev/null || { echo "bench: npm is required" >&2; exit 2; }

# The default binary is built (Release, into build/) when missing; a binary named on the command
# line must exist.
if [[ "$only" != "peer" && ! -x "$mcp_read" ]]; then
  if [[ $# -ge 1 ]]; then
    echo "bench: $mcp_read not found or not executable" >&2
    exit 2
  fi
  echo "bench: $mcp_read not found; building it (Release, build/)" >&2
  gen=(); command -v ninja >/dev/null && gen=(-G Ninja)
  [[ -f build/CMakeCache.txt ]] || cmake -S . -B build "${gen[@]}" -DCMAKE_BUILD_TYPE=Release >&2
  cmake --build build --target mcp-read >&2
  [[ -x "$mcp_read" ]] || { echo "bench: the build did not produce $mcp_read" >&2; exit 2; }
fi

# --- the peer, pinned to an exact version, installed into bench/.peer/ (git-ignored)
peer_dir="$here/.peer"
peer_pkg_json="$peer_dir/node_modules/$PEER_PKG/package.json"
peer_entry="$peer_dir/node_modules/$PEER_PKG/dist/index.js"
installed="$(node -e 'try{console.log(require(process.argv[1]).version)}catch{}' "$peer_pkg_json" 2>/dev/null || true)"
if [[ "$only" != "mcp-read" && ( "$installed" != "$PEER_VERSION" || ! -f "$peer_entry" ) ]]; then
  echo "bench: installing $PEER_PKG@$PEER_VERSION into bench/.peer/"
  mkdir -p "$peer_dir"
  npm install --prefix "$peer_dir" --no-save --no-package-lock --no-audit --no-fund \
    --loglevel=error "$PEER_PKG@$PEER_VERSION" >&2
  [[ -f "$peer_entry" ]] || { echo "bench: $peer_entry missing after npm install" >&2; exit 2; }
fi

# --- vips, for the image fixtures and the notebook's images
if [[ "$images" != "0" || "$docs" != "0" ]] && ! command -v vips >/dev/null; then
  echo "bench: vips not found; installing the Debian package libvips-tools" >&2
  sudo=()
  [[ "$(id -u)" != "0" ]] && command -v sudo >/dev/null && sudo=(sudo -n)
  if command -v apt-get >/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    if ! "${sudo[@]}" apt-get install -y -q libvips-tools >&2; then
      "${sudo[@]}" apt-get update -q >&2 && "${sudo[@]}" apt-get install -y -q libvips-tools >&2 || true
    fi
  fi
  command -v vips >/dev/null || {
    echo "bench: the image and notebook fixtures need the vips command (Debian package libvips-tools);" \
      "install it, or run with BENCH_IMAGES=0 BENCH_DOCS=0 to leave those rows out" >&2
    exit 2
  }
fi

# --- fixtures: ~300 KB source file, ~170 MB log, four images (~34 MB), a 40-page PDF and a
# notebook (~3.5 MB), deterministic
fixtures="$(mktemp -d "${TMPDIR:-/tmp}/mcp-read-bench.XXXXXX")"
trap 'rm -rf "$fixtures"' EXIT
node "$here/gen-fixtures.mjs" "$fixtures"
noise=(); [[ "${BENCH_FIT:-1}" == "0" ]] && noise=(--without-noise)
[[ "$images" != "0" ]] && node "$here/gen-images.mjs" "$fixtures" "${noise[@]}"
[[ "$docs" != "0" ]] && node "$here/gen-docs.mjs" "$fixtures"

# --- Claude Code round trip: the real CLI against a loopback mock of its model API, in a network
# namespace with only loopback. Its figures go to $fixtures/hosts.json, which bench.mjs puts in
# the table (a skip reason instead when it cannot run).
host_status=0
host_args=()
if [[ "$hosts" != "0" ]]; then
  hosts_json="$fixtures/hosts.json"
  host_args=(--hosts "$hosts_json")
  cc="$repo/tests/hosts/claude-code"
  skip=""
  if [[ ! -f "$cc/driver.mjs" ]]; then
    skip="tests/hosts/claude-code/driver.mjs is missing"
  elif [[ ! -d "$cc/node_modules" ]]; then
    skip="tests/hosts/claude-code/node_modules is missing (tests/hosts/claude-code/install.sh installs Claude Code)"
  elif ! command -v unshare >/dev/null || ! command -v ip >/dev/null; then
    skip="unshare or ip is not available (the row must run in a network namespace with only loopback)"
  elif ! unshare -n true 2>/dev/null; then
    skip="unshare -n is not permitted here (needs root or unprivileged user namespaces)"
  fi
  if [[ -n "$skip" ]]; then
    echo "bench: Claude Code round trip skipped: $skip" >&2
    node -e 'require("fs").writeFileSync(process.argv[1], JSON.stringify({ skipped: process.argv[2] }) + "\n")' "$hosts_json" "$skip"
  else
    echo "bench: Claude Code round trip (unshare -n, loopback only)"
    rt=(--fixtures "$fixtures" --out "$hosts_json" --rounds "$((5 * ${BENCH_ITERATIONS:-1}))")
    [[ "$only" != "peer" ]] && rt+=(--mcp-read "$mcp_read")
    [[ "$only" != "mcp-read" ]] && rt+=(--peer "$peer_entry")
    [[ -n "$only" ]] && rt+=(--only "$only")
    unshare -n bash -c 'ip link set lo up && exec node "$@"' bash "$here/host-roundtrip.mjs" "${rt[@]}" || host_status=$?
  fi
fi

# --- measure
args=(--fixtures "$fixtures" --out "$here/results/latest.md" --peer "$peer_entry" "${host_args[@]}")
[[ "$only" != "peer" ]] && args+=(--mcp-read "$mcp_read")
[[ -n "$only" ]] && args+=(--only "$only")
echo
status=0
node "$here/bench.mjs" "${args[@]}" || status=$?
[[ $status -eq 0 && $host_status -ne 0 ]] && status=$host_status

# --- memory and the hot paths: idle and peak RSS (against `vips thumbnail`), pass-through against
# the floor, the 2000-line read's p50 and p99 (bench/memory.mjs), appended to the table
if [[ "$only" != "peer" && "${BENCH_MEMORY:-1}" != "0" && "$core" != "0" ]]; then
  echo
  mem=(--fixtures "$fixtures" --mcp-read "$mcp_read" --out "$here/results/latest.md")
  [[ "$only" != "mcp-read" ]] && mem+=(--peer "$peer_entry")
  node "$here/memory.mjs" "${mem[@]}" || { mem_status=$?; [[ $status -eq 0 ]] && status=$mem_status; }
fi

# --- HTTP under load (mcp-read only: the peer speaks stdio only)
if [[ "$only" != "peer" && "${BENCH_HTTP:-1}" != "0" && "$core" != "0" ]]; then
  echo
  echo "HTTP load: 200 clients calling read (half in sessions, half stateless), 20 slow-header and"
  echo "5 oversize-body clients, one client pinging on a thread of its own, 10 s:"
  http_status=0
  node "$here/http-load.mjs" "$mcp_read" --seconds 10 --clients 200 | tee "$here/results/http-load.txt" || http_status=$?
  { echo; echo '## HTTP load (mcp-read only)'; echo; echo '```'; cat "$here/results/http-load.txt"; echo '```'; } \
    >>"$here/results/latest.md"
  [[ $http_status -ne 0 ]] && status=$http_status
fi

# --- through nginx against direct, three replicas, the same load (mcp-read only)
if [[ "$only" != "peer" && "${BENCH_NGINX:-1}" != "0" && "$core" != "0" ]]; then
  if command -v nginx >/dev/null || [[ -x /usr/sbin/nginx ]]; then
    echo
    echo "Through nginx against direct (three replicas, deploy/nginx/mcp-read.conf):"
    nginx_status=0
    node "$here/nginx-ratio.mjs" "$mcp_read" --seconds 10 | tee "$here/results/nginx-ratio.txt" || nginx_status=$?
    { echo; echo '## Through nginx against direct (mcp-read only)'; echo; echo '```'; cat "$here/results/nginx-ratio.txt"; echo '```'; } \
      >>"$here/results/latest.md"
    [[ $nginx_status -ne 0 ]] && status=$nginx_status
  else
    echo "bench: nginx not installed; the nginx row is left out (apt-get install nginx-light)" >&2
  fi
fi
echo
echo "bench: table written to bench/results/latest.md"
if [[ $status -ne 0 ]]; then
  echo "bench: FAILED (a server did not answer correctly, see above)" >&2
fi
exit "$status"
