#!/usr/bin/env bash
# The repository URL and the MCP Registry name come from packaging/identity.json alone: the npm
# launcher's package.json, the registry entry and the .mcpb manifest must agree with it.
# Usage: identity.sh BUILD_DIR
here=$(dirname "${BASH_SOURCE[0]}")
source "$here/common.sh"

if reason=$(python3 "$source_dir/scripts/release/identity.py" 2>&1); then
  ok "package.json, server.json and the .mcpb manifest name the repository and registry entry of packaging/identity.json"
else
  fail "a packaging file disagrees with packaging/identity.json" \
    "(python3 scripts/release/identity.py --write rewrites them): $reason"
fi
finish
