#!/usr/bin/env bash
# Packs a Claude Desktop bundle (.mcpb, the anthropics/mcpb format) per portable bundle: the
# manifest at its root (packaging/mcpb/manifest.json; for Windows, mcpb-manifest.js's win32 form:
# server\bin\mcp-read.exe, platforms ["win32"]), the bundle's bin/, lib/ and share/ under
# server/, validated and packed with the pinned mcpb CLI.
#
#   scripts/release/mcpb-pack.sh [--out DIR] BUNDLE_DIR...
#
# BUNDLE_DIR: dist/mcp-read-<version>-linux-<x64|arm64>/ as scripts/release.sh makes it, or
# dist/mcp-read-<version>-win32-x64/ (scripts/windows/bundle.sh). Writes DIR/<bundle name>.mcpb
# and its .sha256 (DIR: dist). The manifest's version must be the project's (CMakeLists.txt).
# Needs node; the first run fetches the mcpb CLI into npx's cache.
set -euo pipefail
export LC_ALL=C

MCPB_CLI="@anthropic-ai/mcpb@2.1.2"
tool=mcpb-pack out="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/dist" help_lines=2,13
source "$(dirname "${BASH_SOURCE[0]}")/pack-args.sh"

manifest="$repo/packaging/mcpb/manifest.json"
manifest_version=$(node -p 'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).version' "$manifest")
[[ $manifest_version == "$version" ]] ||
  die "$manifest has version $manifest_version, the project is at $version"

mcpb() { npx -y "$MCPB_CLI" "$@"; }

for bundle in "$@"; do
  check_bundle "$bundle"
  dir="$stage/$name"
  mkdir -p "$dir/server"
  node "$repo/scripts/release/mcpb-manifest.js" "$os" >"$dir/manifest.json"
  # A zip keeps no symbolic links: copy what they point to.
  for part in bin lib share LICENSES; do
    [[ -d $bundle/$part ]] && cp -RL "$bundle/$part" "$dir/server/"
  done
  cp "$repo/LICENSE" "$dir/LICENSE"
  mcpb validate "$dir/manifest.json" >"$stage/validate.out" 2>&1 ||
    die "mcpb validate failed: $(cat "$stage/validate.out")"
  mcpb pack "$dir" "$out/$name.mcpb" >"$stage/pack.out" 2>&1 ||
    die "mcpb pack failed: $(cat "$stage/pack.out")"
  (cd "$out" && sha256sum "$name.mcpb" >"$name.mcpb.sha256")
  echo "packed $out/$name.mcpb ($(du -h "$out/$name.mcpb" | cut -f1), sha256 $(cut -d' ' -f1 "$out/$name.mcpb.sha256"))"
done
