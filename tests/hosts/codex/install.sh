#!/usr/bin/env bash
# Installs the pinned Codex CLI (npm @openai/codex + its native linux/darwin binary package) into
# this folder's node_modules, unless that exact version is already there. Quiet; bounded.
set -euo pipefail
cd "$(dirname "$0")"
want=$(node -p 'require("./package.json").dependencies["@openai/codex"]')
have=$(node -p 'try { require("./node_modules/@openai/codex/package.json").version } catch { "" }' 2>/dev/null || true)
bin_ok=$(node -e '
  const t = { "linux-x64": ["codex-linux-x64","x86_64-unknown-linux-musl"], "linux-arm64": ["codex-linux-arm64","aarch64-unknown-linux-musl"],
              "darwin-x64": ["codex-darwin-x64","x86_64-apple-darwin"], "darwin-arm64": ["codex-darwin-arm64","aarch64-apple-darwin"] }[process.platform + "-" + process.arch];
  const fs = require("fs");
  process.stdout.write(t && fs.existsSync(`node_modules/@openai/${t[0]}/vendor/${t[1]}/bin/codex`) ? "yes" : "no");' 2>/dev/null || echo no)
if [ "$have" = "$want" ] && [ "$bin_ok" = "yes" ]; then
  exit 0
fi
export npm_config_loglevel=error npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false
if [ -f package-lock.json ]; then
  timeout 600 npm ci --no-audit --no-fund --no-update-notifier >/dev/null
else
  timeout 600 npm install --no-audit --no-fund --no-update-notifier >/dev/null
fi
