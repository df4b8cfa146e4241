#!/usr/bin/env bash
# Three mcp-read replicas behind nginx, with the documented config (deploy/nginx/mcp-read.conf)
# pointed at loopback ports; then tests/service/service.mjs drives them through nginx (the SDK
# client in a session, stateless calls, the Inspector CLI, a replica killed and one drained).
#
#   bash tests/service/run.sh [path/to/mcp-read]      (default: build/mcp-read)
#
# Needs nginx (Debian's nginx-light is enough), node 20+ and npm; installs the pinned npm packages
# of package.json into tests/service/node_modules when they are missing. Exit status 0 when every
# check passed. SERVICE_TEST_TIMEOUT (seconds, default 400) bounds the whole run.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
bin="${1:-$repo/build/mcp-read}"
[[ "$bin" == /* ]] || bin="$PWD/$bin"
fail() { echo "not ok - $1"; echo "service: 0 passed, 1 failed"; exit 1; }

nginx_bin="$(command -v nginx || echo /usr/sbin/nginx)"
[[ -x "$nginx_bin" ]] || fail "nginx is installed (apt-get install nginx-light)"
for tool in node npm; do command -v "$tool" >/dev/null || fail "$tool is available"; done

export npm_config_loglevel=error npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
pinned_ok=1
for pkg in @modelcontextprotocol/sdk parse-prometheus-text-format; do
  want="$(node -p 'require(process.argv[1]).dependencies[process.argv[2]]' "$here/package.json" "$pkg")"
  have="$(node -p 'try { require(process.argv[1]).version } catch { "" }' "$here/node_modules/$pkg/package.json")"
  [[ "$have" == "$want" ]] || pinned_ok=0
done
if [[ $pinned_ok == 0 ]]; then
  timeout --kill-after=10 600 npm install --prefix "$here" --no-audit --no-fund >&2 ||
    fail "npm installs the pinned packages into $here/node_modules"
fi

tmp="$(mktemp -d "${TMPDIR:-/tmp}/mcp-read-service.XXXXXX")"
pids=()
nginx_pid=""
cleanup() {
  [[ -n "$nginx_pid" ]] && kill "$nginx_pid" 2>/dev/null && wait "$nginx_pid" 2>/dev/null
  for pid in "${pids[@]}"; do kill -9 "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; done
  rm -rf "$tmp"
}
trap cleanup EXIT

mkdir -p "$tmp/docs"
printf 'alpha: the service test%ss file\nbeta\n' "'" > "$tmp/docs/a.txt"

# --- three replicas on free ports, each found in its log line
replica_args=()
for i in 1 2 3; do
  # --task-after-ms 0: a read from a client declaring the tasks extension becomes a task at once
  # (only service.mjs's task check declares it).
  "$bin" --transport http --port 0 --replica-id "r$i" --drain-seconds 5 --task-after-ms 0 "$tmp/docs" \
    2>"$tmp/r$i.log" &
  pids+=($!)
  port=""
  for _ in $(seq 1 500); do
    port="$(sed -n 's|.*listening on http://127\.0\.0\.1:\([0-9]*\)/mcp.*|\1|p' "$tmp/r$i.log" | head -1)"
    [[ -n "$port" ]] && break
    sleep 0.02
  done
  [[ -n "$port" ]] || fail "replica r$i announces its port; log: $(cat "$tmp/r$i.log")"
  replica_args+=("$port:${pids[-1]}")
  ports[$i]=$port
done

# --- nginx with the documented config, addresses swapped for loopback ones (nginx-front.sh)
nginx_port="$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
bash "$here/nginx-front.sh" "$tmp" "$nginx_port" "${ports[1]}" "${ports[2]}" "${ports[3]}" 2>>"$tmp/nginx-error.log" &
nginx_pid=$!
for _ in $(seq 1 500); do
  (exec 3<>"/dev/tcp/127.0.0.1/$nginx_port") 2>/dev/null && break
  kill -0 "$nginx_pid" 2>/dev/null || fail "nginx starts with the documented config: $(cat "$tmp/nginx-error.log")"
  sleep 0.02
done

timeout --kill-after=10 "${SERVICE_TEST_TIMEOUT:-400}" node "$here/service.mjs" "$nginx_port" "$tmp/docs/a.txt" \
  "${replica_args[@]}" | tee "$tmp/service.out"
status=${PIPESTATUS[0]}
drained="$(sed -n 's/^drained: //p' "$tmp/service.out")"
if [[ -n "$drained" ]]; then
  wait "$drained"
  drained_status=$?
  if [[ $drained_status == 0 ]]; then echo "ok - the drained replica exited 0"
  else echo "not ok - the drained replica exited $drained_status"; status=1; fi
fi
if [[ $status != 0 ]]; then
  for i in 1 2 3; do echo "--- replica r$i log (tail)"; tail -n 15 "$tmp/r$i.log"; done
  echo "--- nginx error log (tail)"; tail -n 20 "$tmp/nginx-error.log"
fi
exit "$status"
