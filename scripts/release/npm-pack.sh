#!/usr/bin/env bash
# Packs the npm packages from portable bundles: `mcp-read` (the launcher, packaging/npm/mcp-read)
# and one `@mcp-read/<os>-<arch>` per bundle given, holding that bundle (bin/, lib/, share/).
#
#   scripts/release/npm-pack.sh [--out DIR] BUNDLE_DIR...
#
# BUNDLE_DIR: dist/mcp-read-<version>-linux-<x64|arm64>/ as scripts/release.sh makes it, or
# dist/mcp-read-<version>-win32-x64/ (scripts/windows/bundle.sh). The version is the project's
# (CMakeLists.txt); the launcher's package.json must carry the same and name each platform
# package at it. Writes DIR/mcp-read-<version>.tgz and DIR/mcp-read-<os>-<arch>-<version>.tgz
# (DIR: dist/npm). Needs node and npm; no network.
set -euo pipefail
export LC_ALL=C

tool=npm-pack out="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/dist/npm" help_lines=2,11
source "$(dirname "${BASH_SOURCE[0]}")/pack-args.sh"
launcher="$repo/packaging/npm/mcp-read"
# The launcher's manifest is committed; it must name this version everywhere.
node - "$launcher/package.json" "$version" <<'EOF' || exit 1
const [file, version] = process.argv.slice(2);
const p = JSON.parse(require("fs").readFileSync(file, "utf8"));
const wrong = [];
if (p.version !== version) wrong.push(`version is ${p.version}`);
for (const [name, v] of Object.entries(p.optionalDependencies || {}))
  if (v !== version) wrong.push(`${name} is pinned at ${v}`);
if (wrong.length) {
  console.error(`npm-pack: ${file}: ${wrong.join(", ")}, not the project's ${version}`);
  process.exit(1);
}
EOF


# ELF machine names (readelf -h) of the architectures npm calls x64 and arm64.
declare -A machine=([x64]="X86-64" [arm64]="AArch64")
for bundle in "$@"; do
  check_bundle "$bundle"  # a Windows executable's machine is checked there
  [[ $os == win32 ]] || readelf -h "$bundle/$exe" | grep -q "Machine:.*${machine[$arch]}" ||
    die "$bundle/$exe is not a ${machine[$arch]} executable"
  key=$os-$arch
  pkg="$stage/$key"
  mkdir -p "$pkg"
  # npm pack leaves symbolic links out: copy what they point to.
  for part in bin lib share; do
    [[ -d $bundle/$part ]] && cp -RL "$bundle/$part" "$pkg/"
  done
  for doc in README.md LICENSES; do
    [[ -e $bundle/$doc ]] && cp -R "$bundle/$doc" "$pkg/"
  done
  cp "$repo/LICENSE" "$pkg/LICENSE"
  case $os in
    linux) runs="Linux $arch (glibc 2.31 or newer)" ;;
    win32) runs="Windows $arch (Windows 10 or later)" ;;
  esac
  node - "$launcher/package.json" "$os" "$arch" "$runs" >"$pkg/package.json" <<'EOF'
const [file, os, arch, runs] = process.argv.slice(2);
const l = JSON.parse(require("fs").readFileSync(file, "utf8"));
const p = {
  name: `@mcp-read/${os}-${arch}`,
  version: l.version,
  description: `The mcp-read server for ${runs}; installed by the mcp-read package`,
  // The bundled libraries keep their own licences: LICENSES/README says which file is under which.
  license: "SEE LICENSE IN LICENSES/README",
  homepage: l.homepage,
  repository: l.repository,
  os: [os],
  cpu: [arch],
  files: ["bin", "lib", "share", "LICENSES", "LICENSE"],
  preferUnplugged: true,
};
process.stdout.write(JSON.stringify(p, null, 2) + "\n");
EOF
  [[ -f $pkg/README.md ]] || printf '# @mcp-read/%s\n\nThe native mcp-read for %s, run by the `mcp-read` package (`npx mcp-read DIR`).\n' \
    "$key" "$runs" >"$pkg/README.md"
  (cd "$pkg" && npm pack --pack-destination "$out" >/dev/null)
  echo "packed $out/mcp-read-$key-$version.tgz ($(du -h "$out/mcp-read-$key-$version.tgz" | cut -f1))"
done

cp -R "$launcher" "$stage/mcp-read"
cp "$repo/LICENSE" "$stage/mcp-read/LICENSE"
(cd "$stage/mcp-read" && npm pack --pack-destination "$out" >/dev/null)
echo "packed $out/mcp-read-$version.tgz ($(du -h "$out/mcp-read-$version.tgz" | cut -f1))"
