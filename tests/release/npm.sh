#!/usr/bin/env bash
# The npm packages, as a user gets them: scripts/release/npm-pack.sh packs the launcher and the
# platform package from a bundle; they are installed into an empty folder with no network
# (a network namespace of its own, an empty npm cache, the tarballs as local specs), and
# `npx mcp-read DIR` is driven through the MCP Inspector CLI: tools/list, a text file, a PDF.
# Then @mcp-read/win32-x64 packed from a Windows bundle and the launcher's pick of its .exe, and
# the launcher's one line on an unsupported platform and without its platform package.
#
#   tests/release/npm.sh BUILD_DIR [BUNDLE_DIR]
#
# Prints the time from `npm install` to the first answer (measured, not asserted).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

packed="$tmp/npm"
if bash "$repo/scripts/release/npm-pack.sh" --out "$packed" "$bundle" >"$tmp/pack.out" 2>&1; then
  ok "npm-pack.sh packs mcp-read and @mcp-read/linux-$arch"
else
  not_ok "npm-pack.sh packs mcp-read and @mcp-read/linux-$arch" "$(cat "$tmp/pack.out")"
  finish
fi
launcher_tgz="$packed/mcp-read-$version.tgz"
platform_tgz="$packed/mcp-read-linux-$arch-$version.tgz"

# The platform package declares where it runs and keeps the binary executable.
manifest=$(tar -xzOf "$platform_tgz" package/package.json)
if node -e '
const p = JSON.parse(process.argv[1]), [arch, version] = process.argv.slice(2);
const bad = [];
if (p.name !== `@mcp-read/linux-${arch}`) bad.push(`name ${p.name}`);
if (p.version !== version) bad.push(`version ${p.version}`);
if (JSON.stringify(p.os) !== "[\"linux\"]") bad.push(`os ${JSON.stringify(p.os)}`);
if (JSON.stringify(p.cpu) !== JSON.stringify([arch])) bad.push(`cpu ${JSON.stringify(p.cpu)}`);
if (bad.length) { console.log(bad.join(", ")); process.exit(1); }' "$manifest" "$arch" "$version"; then
  ok "@mcp-read/linux-$arch is named at $version with os [linux] and cpu [$arch]"
else
  not_ok "@mcp-read/linux-$arch is named at $version with os [linux] and cpu [$arch]" "$manifest"
fi
mode=$(tar -tvzf "$platform_tgz" package/bin/mcp-read | cut -c1-10)
[[ $mode == -rwxr-xr-x ]] && ok "the packed bin/mcp-read is executable" ||
  not_ok "the packed bin/mcp-read is executable" "mode $mode"

# --- install offline into an empty folder
project="$tmp/project"
mkdir -p "$project"
echo '{"name":"mcp-read-offline-install","private":true}' >"$project/package.json"
start=$(now_ms)
if (cd "$project" && offline npm install --offline --cache "$tmp/npm-cache" \
  "$launcher_tgz" "$platform_tgz") >"$tmp/install.out" 2>&1; then
  ok "npm install of the two tarballs succeeds without the network"
else
  not_ok "npm install of the two tarballs succeeds without the network" "$(tail -n 30 "$tmp/install.out")"
  finish
fi
installed=$(now_ms)
[[ -x $project/node_modules/.bin/mcp-read ]] && ok "node_modules/.bin/mcp-read is installed" ||
  not_ok "node_modules/.bin/mcp-read is installed" "$(ls -la "$project/node_modules/.bin" 2>&1)"

# The first answer: initialize through npx, as a host starting `npx mcp-read DIR` gets it.
initialize='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"npm-check","version":"1"}}}'
answer=$(cd "$project" && printf '%s\n' "$initialize" |
  offline env npm_config_offline=true timeout 60 npx mcp-read "$data" 2>"$tmp/first.err" | head -n 1)
answered=$(now_ms)
if [[ $answer == *'"serverInfo"'*'"version":"'"$version"'"'* ]]; then
  ok "npx mcp-read answers initialize as mcp-read $version"
else
  not_ok "npx mcp-read answers initialize as mcp-read $version" "stdout: $answer" "$(tail -n 20 "$tmp/first.err")"
fi
echo "# measured: npm install $((installed - start)) ms, then the first answer through npx $((answered - installed)) ms; total $((answered - start)) ms (offline, goal < 10000 ms)"

# --- a real MCP client: the Inspector CLI starts `npx mcp-read DIR`
if inspector_ready; then
  server_cmd=(npx mcp-read "$data")
  inspect list "$project" --method tools/list
  verify list "through npx: tools/list lists read and read_image" tools
  inspect text "$project" --method tools/call --tool-name read \
    --tool-arg "file_path=$data/hello.txt"
  verify text "through npx: read on a text file returns its numbered first line" first-line "$first_line"
  inspect pdf "$project" --method tools/call --tool-name read \
    --tool-arg "file_path=$data/sample.pdf" --tool-arg file_type=text
  verify pdf "through npx: read on a PDF returns its text (the plugin is found in the package)" contains "$pdf_text"
else
  not_ok "the MCP Inspector ($INSPECTOR_PKG) is available through npx" "$(tail -n 20 "$tmp/inspector-fetch.out")"
fi

# --- signals and exit status pass through the launcher
launcher="$project/node_modules/mcp-read/bin/mcp-read.js"
# Its stdin stays open (a FIFO we hold) so that only the signal can end it. It gets the signal
# once it has answered initialize: by then the server handles signals (it logs that it serves a
# little earlier, before its handlers are in place).
mkfifo "$tmp/sig.in" "$tmp/sig.out"
exec 3<>"$tmp/sig.in"
(cd "$project" && exec node "$launcher" "$data") <&3 >"$tmp/sig.out" 2>"$tmp/sig.err" &
wrapper=$!
exec 4<"$tmp/sig.out"
printf '%s\n' "$initialize" >&3
serving=0
IFS= read -r -t 60 line <&4 && [[ $line == *'"serverInfo"'* ]] && serving=1
kill -TERM "$wrapper"
wait "$wrapper"
status=$?
exec 3>&- 4<&-
if [[ $serving == 1 && $status == 0 ]] && grep -q "SIGTERM" "$tmp/sig.err"; then
  ok "SIGTERM to the launcher reaches the server, which stops cleanly (status 0 passed back)"
else
  not_ok "SIGTERM to the launcher reaches the server, which stops cleanly (status 0 passed back)" \
    "status $status" "$(tail -n 10 "$tmp/sig.err")"
fi
(cd "$project" && node "$launcher" --no-such-option </dev/null >/dev/null 2>"$tmp/usage.err")
status=$?
[[ $status == 2 ]] && ok "the server's exit status comes back through the launcher (2 on a bad option)" ||
  not_ok "the server's exit status comes back through the launcher (2 on a bad option)" "status $status" "$(cat "$tmp/usage.err")"

# --- Windows: @mcp-read/win32-x64 from a Windows bundle (common.sh's windows_bundle), installed
# the way npm on Windows installs it (--os win32 --cpu x64; --force, as this machine is not Windows).
windows_bundle
win_packed="$tmp/npm-win32"
if bash "$repo/scripts/release/npm-pack.sh" --out "$win_packed" "$win_bundle" >"$tmp/pack-win.out" 2>&1; then
  ok "npm-pack.sh packs @mcp-read/win32-x64 from the Windows bundle"
else
  not_ok "npm-pack.sh packs @mcp-read/win32-x64 from the Windows bundle" "$(cat "$tmp/pack-win.out")"
fi
win_tgz="$win_packed/mcp-read-win32-x64-$version.tgz"
if reason=$(tar -xzOf "$win_tgz" package/package.json | node -e '
const p = JSON.parse(require("fs").readFileSync(0, "utf8")), version = process.argv[1], bad = [];
if (p.name !== "@mcp-read/win32-x64") bad.push(`name ${p.name}`);
if (p.version !== version) bad.push(`version ${p.version}`);
if (JSON.stringify(p.os) !== "[\"win32\"]") bad.push(`os ${JSON.stringify(p.os)}`);
if (JSON.stringify(p.cpu) !== "[\"x64\"]") bad.push(`cpu ${JSON.stringify(p.cpu)}`);
if (bad.length) { console.log(bad.join(", ")); process.exit(1); }' "$version" 2>&1); then
  ok "@mcp-read/win32-x64 is named at $version with os [win32] and cpu [x64]"
else
  not_ok "@mcp-read/win32-x64 is named at $version with os [win32] and cpu [x64]" "$reason"
fi
files=$(tar -tzf "$win_tgz" 2>&1 | sort | tr '\n' ' ')
if [[ $files == *" package/bin/mcp-read.exe "* && $files == *" package/share/misc/magic.mgc "* &&
  $files != *bcryptprimitives* ]]; then
  ok "it holds bin/mcp-read.exe and share/misc/magic.mgc, and not Wine's bcryptprimitives.dll"
else
  not_ok "it holds bin/mcp-read.exe and share/misc/magic.mgc, and not Wine's bcryptprimitives.dll" "$files"
fi
mkdir -p "$tmp/bad" && cp -R "$win_bundle" "$tmp/bad/"
touch "$tmp/bad/$(basename "$win_bundle")/bin/bcryptprimitives.dll"
if bash "$repo/scripts/release/npm-pack.sh" --out "$tmp/bad-out" "$tmp/bad/$(basename "$win_bundle")" >"$tmp/bad.out" 2>&1; then
  not_ok "npm-pack.sh refuses a Windows bundle holding Wine's bcryptprimitives.dll" "it packed it"
else
  grep -q "bcryptprimitives.dll is Wine's stand-in" "$tmp/bad.out" &&
    ok "npm-pack.sh refuses a Windows bundle holding Wine's bcryptprimitives.dll" ||
    not_ok "npm-pack.sh refuses a Windows bundle holding Wine's bcryptprimitives.dll" "$(cat "$tmp/bad.out")"
fi

win_project="$tmp/win-project"
mkdir -p "$win_project"
echo '{"name":"mcp-read-win32-install","private":true}' >"$win_project/package.json"
if (cd "$win_project" && offline npm install --offline --cache "$tmp/npm-cache" --force --os=win32 --cpu=x64 \
  "$launcher_tgz" "$win_tgz") >"$tmp/win-install.out" 2>&1; then
  ok "npm install --os=win32 --cpu=x64 of the launcher and @mcp-read/win32-x64 succeeds offline"
else
  not_ok "npm install --os=win32 --cpu=x64 of the launcher and @mcp-read/win32-x64 succeeds offline" \
    "$(tail -n 20 "$tmp/win-install.out")"
fi
# The launcher, told it runs on win32-x64, picks bin\mcp-read.exe of the installed package and
# checks only that it exists (Windows has no execute bit): without the bit it gets as far as
# starting it, which fails here because this is not Windows; without the file it says so.
win_exe="$win_project/node_modules/@mcp-read/win32-x64/bin/mcp-read.exe"
win_launcher="$win_project/node_modules/mcp-read/bin/mcp-read.js"
chmod a-x "$win_exe" 2>/dev/null
MCP_READ_LAUNCHER_TEST_PLATFORM=win32-x64 node "$win_launcher" "$data" </dev/null >/dev/null 2>"$tmp/win-pick.err"
if [[ $(cat "$tmp/win-pick.err") == "mcp-read: $win_exe could not be started ("* ]]; then
  ok "on win32-x64 the launcher starts the installed package's bin/mcp-read.exe (no execute bit needed)"
else
  not_ok "on win32-x64 the launcher starts the installed package's bin/mcp-read.exe (no execute bit needed)" \
    "$(cat "$tmp/win-pick.err")"
fi
rm -f "$win_exe"
MCP_READ_LAUNCHER_TEST_PLATFORM=win32-x64 node "$win_launcher" "$data" </dev/null >/dev/null 2>"$tmp/win-gone.err"
if [[ $(cat "$tmp/win-gone.err") == "mcp-read: $win_exe cannot be run (ENOENT);"* ]]; then
  ok "on win32-x64 without bin/mcp-read.exe the launcher names the missing file"
else
  not_ok "on win32-x64 without bin/mcp-read.exe the launcher names the missing file" "$(cat "$tmp/win-gone.err")"
fi

# --- unsupported platforms: one line, non-zero
check_line() {
  local desc=$1 want=$2 status=$3 err=$4 lines
  lines=$(wc -l <"$err")
  if [[ $status != 0 && $lines == 1 ]] && grep -qF "$want" "$err" &&
    grep -qF "prebuilt binaries exist for linux-x64, linux-arm64 (glibc 2.31 or newer), win32-x64 (Windows 10 or later)" "$err" && grep -qF "build it from source" "$err"; then
    ok "$desc"
  else
    not_ok "$desc" "status $status, $lines line(s):" "$(cat "$err")"
  fi
}
(cd "$project" && MCP_READ_LAUNCHER_TEST_PLATFORM=darwin-arm64 npx mcp-read "$data" </dev/null >/dev/null 2>"$tmp/darwin.err")
check_line "on darwin-arm64 the launcher says in one line what is supported and how to build" \
  "mcp-read: no prebuilt binary for darwin-arm64;" $? "$tmp/darwin.err"
rm -rf "$project/node_modules/@mcp-read"
(cd "$project" && npx mcp-read "$data" </dev/null >/dev/null 2>"$tmp/missing.err")
check_line "without its platform package the launcher says which package is missing" \
  "the package @mcp-read/linux-$arch for linux-$arch is not installed" $? "$tmp/missing.err"

finish
