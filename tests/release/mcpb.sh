#!/usr/bin/env bash
# The Claude Desktop bundle, as a host uses it: scripts/release/mcpb-pack.sh packs it from a
# bundle (mcpb validate + mcpb pack); it is unpacked (a zip), the server is started exactly as
# manifest.json's mcp_config says — ${__dirname} is the unpacked folder, the allowed directories
# the user picked expand to one argument each — and a real MCP client (the Inspector CLI) lists
# the tools (their descriptions must be the manifest's) and reads files through it. The Windows
# .mcpb's layout and manifest are checked too (the .exe is run under Wine by prove.sh, not here).
#
#   tests/release/mcpb.sh BUILD_DIR [BUNDLE_DIR]
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

packed="$tmp/mcpb"
name=$(basename "$bundle")
if bash "$repo/scripts/release/mcpb-pack.sh" --out "$packed" "$bundle" >"$tmp/pack.out" 2>&1; then
  ok "mcpb-pack.sh validates and packs $name.mcpb"
else
  not_ok "mcpb-pack.sh validates and packs $name.mcpb" "$(cat "$tmp/pack.out")"
  finish
fi
(cd "$packed" && sha256sum -c --quiet "$name.mcpb.sha256") && ok "its .sha256 matches" ||
  not_ok "its .sha256 matches"

# The registry entry for this .mcpb: the committed one with the packed file's hash.
if bash "$repo/scripts/release/registry-server-json.sh" "$packed" >"$tmp/registry.out" 2>&1 &&
  reason=$(node -e '
const fs = require("fs"), [made, committed, file, sum] = process.argv.slice(1);
const m = JSON.parse(fs.readFileSync(made, "utf8")), c = JSON.parse(fs.readFileSync(committed, "utf8"));
const p = m.packages.find((x) => x.identifier.endsWith("/" + file));
if (!p) { console.log(`no package for ${file}`); process.exit(1); }
if (p.fileSha256 !== sum) { console.log(`fileSha256 ${p.fileSha256}, the file has ${sum}`); process.exit(1); }
p.fileSha256 = c.packages.find((x) => x.identifier === p.identifier).fileSha256;
c.packages = c.packages.filter((x) => m.packages.some((y) => y.identifier === x.identifier));
if (JSON.stringify(m) !== JSON.stringify(c)) { console.log("other fields differ from packaging/registry/server.json"); process.exit(1); }
' "$packed/server.json" "$repo/packaging/registry/server.json" "$name.mcpb" "$(cut -d' ' -f1 "$packed/$name.mcpb.sha256")" 2>&1); then
  ok "registry-server-json.sh writes the registry entry with this .mcpb's SHA-256"
else
  not_ok "registry-server-json.sh writes the registry entry with this .mcpb's SHA-256" "$(cat "$tmp/registry.out")" "${reason:-}"
fi

# --- Windows: the .mcpb packed from a Windows bundle (common.sh's windows_bundle) carries the
# manifest's win32 form, whose command is the unpacked server\bin\mcp-read.exe.
windows_bundle
win_name=$(basename "$win_bundle")
win_packed="$tmp/mcpb-win32"
if bash "$repo/scripts/release/mcpb-pack.sh" --out "$win_packed" "$win_bundle" >"$tmp/pack-win.out" 2>&1 &&
  unzip -q "$win_packed/$win_name.mcpb" -d "$tmp/win-unpacked" 2>"$tmp/unzip-win.err"; then
  ok "mcpb-pack.sh validates and packs $win_name.mcpb, which unpacks as a zip"
  if reason=$(node -e '
const fs = require("fs"), [dir, committed] = process.argv.slice(1);
const m = JSON.parse(fs.readFileSync(`${dir}/manifest.json`, "utf8")), c = JSON.parse(fs.readFileSync(committed, "utf8"));
const bad = [];
if (JSON.stringify(m.compatibility.platforms) !== "[\"win32\"]") bad.push(`platforms ${JSON.stringify(m.compatibility.platforms)}`);
if (m.server.entry_point !== "server/bin/mcp-read.exe") bad.push(`entry_point ${m.server.entry_point}`);
if (m.server.mcp_config.command !== "${__dirname}/server/bin/mcp-read.exe") bad.push(`command ${m.server.mcp_config.command}`);
if (!fs.statSync(`${dir}/${m.server.entry_point}`, { throwIfNoEntry: false })?.isFile()) bad.push("no file at the entry point");
if (!/Windows 10 or later/.test(m.long_description) || /Runs on Linux/.test(m.long_description)) bad.push("long_description does not say Windows");
for (const k of Object.keys(c)) if (!["long_description", "server", "compatibility"].includes(k) &&
  JSON.stringify(m[k]) !== JSON.stringify(c[k])) bad.push(`${k} differs from packaging/mcpb/manifest.json`);
if (JSON.stringify(m.server.mcp_config.args) !== JSON.stringify(c.server.mcp_config.args)) bad.push("args differ");
if (bad.length) { console.log(bad.join("; ")); process.exit(1); }' "$tmp/win-unpacked" "$repo/packaging/mcpb/manifest.json" 2>&1); then
    ok "its manifest serves win32 with \${__dirname}/server/bin/mcp-read.exe, the rest as committed"
  else
    not_ok "its manifest serves win32 with \${__dirname}/server/bin/mcp-read.exe, the rest as committed" "$reason"
  fi
  listed=$(unzip -Z1 "$win_packed/$win_name.mcpb" | tr '\n' ' ')
  [[ $listed == *server/share/misc/magic.mgc* && $listed != *bcryptprimitives* ]] &&
    ok "it holds server/share/misc/magic.mgc and not Wine's bcryptprimitives.dll" ||
    not_ok "it holds server/share/misc/magic.mgc and not Wine's bcryptprimitives.dll" "$listed"
  if bash "$repo/scripts/release/registry-server-json.sh" "$win_packed" >"$tmp/registry-win.out" 2>&1 &&
    node -e '
const [made, file, sum] = process.argv.slice(1);
const p = JSON.parse(require("fs").readFileSync(made, "utf8")).packages.find((x) => x.identifier.endsWith("/" + file));
process.exit(p && p.fileSha256 === sum ? 0 : 1);' "$win_packed/server.json" "$win_name.mcpb" \
      "$(cut -d' ' -f1 "$win_packed/$win_name.mcpb.sha256")"; then
    ok "the registry entry names $win_name.mcpb with its SHA-256"
  else
    not_ok "the registry entry names $win_name.mcpb with its SHA-256" "$(cat "$tmp/registry-win.out")"
  fi
else
  not_ok "mcpb-pack.sh validates and packs $win_name.mcpb, which unpacks as a zip" \
    "$(cat "$tmp/pack-win.out" "$tmp/unzip-win.err" 2>/dev/null)"
fi

unpacked="$tmp/unpacked"
if unzip -q "$packed/$name.mcpb" -d "$unpacked" 2>"$tmp/unzip.err"; then
  ok "the .mcpb unpacks as a zip"
else
  not_ok "the .mcpb unpacks as a zip" "$(cat "$tmp/unzip.err")"
  finish
fi
cmp -s "$unpacked/manifest.json" "$repo/packaging/mcpb/manifest.json" &&
  ok "it carries packaging/mcpb/manifest.json at its root" ||
  not_ok "it carries packaging/mcpb/manifest.json at its root"

# The user's choice of directories: two, so that the expansion into two arguments is seen.
docs="$data"
other="$tmp/other-dir"
mkdir -p "$other"
echo "gamma: a file in the second allowed directory" >"$other/second.txt"
echo "outside" >"$tmp/outside.txt"

# The host's substitution (MANIFEST.md, "Variable Substitution"): ${__dirname}, and
# ${user_config.KEY}, an argument of its own per value when the option takes several.
LAUNCH="$tmp/launch" node - "$unpacked" "$docs" "$other" >"$tmp/launch" <<'EOF'
const [dir, ...dirs] = process.argv.slice(2);
const m = JSON.parse(require("fs").readFileSync(`${dir}/manifest.json`, "utf8"));
const user = { allowed_directories: dirs };
for (const [key, opt] of Object.entries(m.user_config || {}))
  if (opt.required && !(key in user)) throw new Error(`no value for required user_config.${key}`);
const sub = (s) => s.replace(/\$\{__dirname\}/g, dir)
  .replace(/\$\{user_config\.([A-Za-z0-9_]+)\}/g, (_, k) => [].concat(user[k]).join(" "));
const args = [];
for (const a of m.server.mcp_config.args || []) {
  const whole = /^\$\{user_config\.([A-Za-z0-9_]+)\}$/.exec(a);
  if (whole && Array.isArray(user[whole[1]])) args.push(...user[whole[1]]);
  else args.push(sub(a));
}
const env = Object.entries(m.server.mcp_config.env || {}).map(([k, v]) => `${k}=${sub(v)}`);
// NUL-separated words: the command and its arguments; the environment (K=V) to launch.env.
require("fs").writeFileSync(`${process.env.LAUNCH}.env`, env.map((e) => e + "\0").join(""));
process.stdout.write([sub(m.server.mcp_config.command), ...args].map((w) => w + "\0").join(""));
EOF
mapfile -d '' -t server_cmd <"$tmp/launch"
mapfile -d '' -t env_words <"$tmp/launch.env"
for word in "${env_words[@]}"; do server_env+=(-e "$word"); done
echo "# started as: ${server_env[*]} ${server_cmd[*]}"
entry=$(node -p 'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).server.entry_point' "$unpacked/manifest.json")
[[ -x $unpacked/$entry ]] && ok "the entry point $entry is in the bundle and executable" ||
  not_ok "the entry point $entry is in the bundle and executable"

if ! inspector_ready; then
  not_ok "the MCP Inspector ($INSPECTOR_PKG) is available through npx" "$(tail -n 20 "$tmp/inspector-fetch.out")"
  finish
fi
inspect list "$tmp" --method tools/list
verify list "started as the manifest says: tools/list lists read and read_image" tools
if reason=$(node -e '
const fs = require("fs");
const listed = JSON.parse(fs.readFileSync(process.argv[1], "utf8")).tools.map((t) => ({ name: t.name, description: t.description }));
const declared = JSON.parse(fs.readFileSync(process.argv[2], "utf8")).tools;
if (JSON.stringify(listed) !== JSON.stringify(declared)) {
  console.log(`server: ${JSON.stringify(listed).slice(0, 600)}\nmanifest: ${JSON.stringify(declared).slice(0, 600)}`);
  process.exit(1);
}' "$tmp/list.out" "$unpacked/manifest.json" 2>&1); then
  ok "the manifest's tools are the server's, names and descriptions"
else
  not_ok "the manifest's tools are the server's, names and descriptions (update packaging/mcpb/manifest.json)" "$reason"
fi
inspect text "$tmp" --method tools/call --tool-name read --tool-arg "file_path=$docs/hello.txt"
verify text "read on a text file in the first allowed directory returns its numbered first line" first-line "$first_line"
inspect second "$tmp" --method tools/call --tool-name read --tool-arg "file_path=$other/second.txt"
verify second "read in the second allowed directory works (one argument per directory)" first-line \
  "gamma: a file in the second allowed directory"
inspect pdf "$tmp" --method tools/call --tool-name read \
  --tool-arg "file_path=$docs/sample.pdf" --tool-arg file_type=text
verify pdf "read on a PDF returns its text (the plugin is found under server/lib)" contains "$pdf_text"
inspect outside "$tmp" --method tools/call --tool-name read --tool-arg "file_path=$tmp/outside.txt"
if [[ $(cat "$tmp/outside.status") == 0 ]] && grep -q '"isError": *true' "$tmp/outside.out"; then
  ok "a file outside the allowed directories is refused"
else
  not_ok "a file outside the allowed directories is refused" "$(head -c 800 "$tmp/outside.out")" "$(tail -n 5 "$tmp/outside.err")"
fi

finish
