#!/usr/bin/env bash
# Installs the pinned Gemini CLI into this folder's node_modules, only when it is missing or
# another version. Needs the npm registry (run before entering the network namespace).
set -euo pipefail
cd "$(dirname "$0")"
want=$(node -p 'require("./package.json").dependencies["@google/gemini-cli"]')
have=$(node -p 'try { require("./node_modules/@google/gemini-cli/package.json").version } catch { "" }' 2>/dev/null || true)
if [ "$have" = "$want" ]; then
  exit 0
fi
export npm_config_loglevel=error npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false
if [ -f package-lock.json ]; then
  timeout 600 npm ci --no-audit --no-fund --no-update-notifier
else
  timeout 600 npm install --no-audit --no-fund --no-update-notifier
fi
have=$(node -p 'require("./node_modules/@google/gemini-cli/package.json").version')
if [ "$have" != "$want" ]; then
  echo "install.sh: wanted @google/gemini-cli $want, got $have" >&2
  exit 1
fi
