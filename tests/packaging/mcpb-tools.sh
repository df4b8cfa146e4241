#!/usr/bin/env bash
# The .mcpb manifest's tools (packaging/mcpb/manifest.json) are the server's: the names and
# descriptions a generic client's tools/list gives, so that a host showing the bundle's tools
# before starting it shows what the server will say. Usage: mcpb-tools.sh BUILD_DIR
here=$(dirname "${BASH_SOURCE[0]}")
source "$here/common.sh"

if reason=$(python3 "$source_dir/scripts/release/mcpb-tools.py" "$binary" 2>&1); then
  ok "packaging/mcpb/manifest.json's tools are the server's, names and descriptions"
else
  fail "packaging/mcpb/manifest.json's tools differ from the server's tools/list" \
    "(python3 scripts/release/mcpb-tools.py BINARY --write copies them over): $reason"
fi
finish
