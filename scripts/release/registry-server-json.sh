#!/usr/bin/env bash
# Writes the MCP Registry entry for a release: packaging/registry/server.json with the SHA-256 of
# each .mcpb it names, taken from the packed files.
#
#   scripts/release/registry-server-json.sh [DIST_DIR]        (default: dist)
#
# Reads DIST_DIR/<name>.mcpb for every mcpb package of the entry (name: the last part of its
# download URL) and writes DIST_DIR/server.json; a package whose file was not packed (an
# architecture not built) is left out, and said so. Fails when the entry's version is not the
# project's. Needs node.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
dist=${1:-$repo/dist}
[[ $dist == -h || $dist == --help ]] && { sed -n '2,9p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 2; }
version=$(sed -n 's/^project(mcp-read VERSION \([0-9][0-9.]*\).*/\1/p' "$repo/CMakeLists.txt")
node - "$repo/packaging/registry/server.json" "$dist" "$version" <<'JS'
const fs = require("fs"), path = require("path"), crypto = require("crypto");
const [template, dist, version] = process.argv.slice(2);
const entry = JSON.parse(fs.readFileSync(template, "utf8"));
const die = (m) => { console.error(`registry-server-json: ${m}`); process.exit(1); };
if (entry.version !== version) die(`${template} has version ${entry.version}, the project is at ${version}`);
entry.packages = entry.packages.filter((p) => {
  if (p.version !== version) die(`${template}: package ${p.identifier} is at ${p.version}, the project at ${version}`);
  if (p.registryType !== "mcpb") return true;
  const file = path.join(dist, path.basename(new URL(p.identifier).pathname));
  if (!fs.existsSync(file)) {
    console.log(`left out ${p.identifier}: ${file} was not packed`);
    return false;
  }
  p.fileSha256 = crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex");
  return true;
});
fs.writeFileSync(path.join(dist, "server.json"), JSON.stringify(entry, null, 2) + "\n");
console.log(`wrote ${path.join(dist, "server.json")}`);
JS
