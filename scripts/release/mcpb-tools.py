#!/usr/bin/env python3
"""The .mcpb manifest's tools against the server's tools/list (generic client: names and
descriptions). Checks by default (exit 1 naming the first difference); --write copies the
server's into packaging/mcpb/manifest.json.

    python3 scripts/release/mcpb-tools.py build/mcp-read [--write]
"""
import json
import os
import subprocess
import sys
import tempfile

MANIFEST = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "packaging", "mcpb", "manifest.json")


def listed_tools(binary):
    requests = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "mcpb-tools", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    ]
    with tempfile.TemporaryDirectory() as root:
        out = subprocess.run([binary, root], input="".join(json.dumps(r) + "\n" for r in requests),
                             capture_output=True, text=True, timeout=60).stdout
    answers = [json.loads(line) for line in out.splitlines() if line.strip()]
    tools = next(a for a in answers if a.get("id") == 2)["result"]["tools"]
    return [{"name": t["name"], "description": t["description"]} for t in tools]


def main():
    if len(sys.argv) < 2 or sys.argv[1].startswith("-"):
        raise SystemExit(__doc__)
    listed = listed_tools(sys.argv[1])
    with open(MANIFEST, encoding="utf-8") as f:
        manifest = json.load(f)
    if "--write" in sys.argv[2:]:
        manifest["tools"] = listed
        with open(MANIFEST, "w", encoding="utf-8") as f:
            f.write(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")
        return 0
    declared = manifest["tools"]
    if listed == declared:
        return 0
    for want, have in zip(listed, declared):
        if want != have:
            print(f"{want['name']}: the server says {json.dumps(want['description'])[:300]}…, "
                  f"the manifest {json.dumps(have.get('description', ''))[:300]}…")
            return 1
    print(f"the server lists {[t['name'] for t in listed]}, the manifest {[t.get('name') for t in declared]}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
