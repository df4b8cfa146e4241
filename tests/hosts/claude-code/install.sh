#!/usr/bin/env bash
# Install the pinned Claude Code (package.json) into ./node_modules unless it is already there.
# Quiet, bounded; needs the npm registry (run it before entering a network namespace).
set -euo pipefail
cd "$(dirname "$0")"
want=$(node -p "require('./package.json').dependencies['@anthropic-ai/claude-code']")
have=$(node -p "try { require('./node_modules/@anthropic-ai/claude-code/package.json').version } catch { '' }" 2>/dev/null || true)
bin=node_modules/@anthropic-ai/claude-code-linux-x64/claude
if [ "$have" = "$want" ] && [ -x "$bin" ] && [ "$("$bin" --version 2>/dev/null | cut -d' ' -f1)" = "$want" ]; then
  exit 0
fi
export npm_config_loglevel=error npm_config_audit=false npm_config_fund=false \
       npm_config_update_notifier=false npm_config_progress=false
if [ -f package-lock.json ]; then
  timeout 600 npm ci --no-audit --no-fund
else
  timeout 600 npm install --no-audit --no-fund
fi
"$bin" --version >/dev/null
