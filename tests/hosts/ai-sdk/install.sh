#!/usr/bin/env bash
# Install the pinned AI SDK packages (package.json / package-lock.json) into ./node_modules unless
# they are all already there at the pinned versions. Quiet and bounded; needs the npm registry, so
# run it before entering a network namespace.
set -euo pipefail
cd "$(dirname "$0")"
ok=$(node -e '
  const fs = require("fs");
  const deps = require("./package.json").dependencies;
  let ok = true;
  for (const [n, v] of Object.entries(deps)) {
    try { if (JSON.parse(fs.readFileSync(`node_modules/${n}/package.json`, "utf8")).version !== v) ok = false; }
    catch { ok = false; }
  }
  process.stdout.write(ok ? "yes" : "no");
' 2>/dev/null || echo no)
[ "$ok" = yes ] && exit 0
export npm_config_loglevel=error npm_config_audit=false npm_config_fund=false \
       npm_config_update_notifier=false npm_config_progress=false
if [ -f package-lock.json ]; then
  timeout 600 npm ci --no-audit --no-fund >/dev/null
else
  timeout 600 npm install --no-audit --no-fund >/dev/null
fi
