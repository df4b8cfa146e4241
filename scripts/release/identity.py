#!/usr/bin/env python3
"""The project's repository URL and MCP Registry name live in packaging/identity.json; every
file that names them (the npm launcher's package.json, the registry entry, the .mcpb manifest)
is checked against it. Checks by default (exit 1 naming each difference); --write rewrites
those fields from identity.json.

    python3 scripts/release/identity.py [--write]
"""
import json
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def fields(repo, name):
    """Per file: (path of keys, the value it must hold). A key path ending in a number indexes a list."""
    download = repo + "/releases/download/"
    return {
        "packaging/npm/mcp-read/package.json": [
            (("homepage",), repo + "#install"),
            (("repository", "url"), "git+" + repo + ".git"),
            (("mcpName",), name),
        ],
        "packaging/registry/server.json": [
            (("name",), name),
            (("repository", "url"), repo),
            (("websiteUrl",), repo + "#install"),
        ] + [(("packages", i, "identifier"), download) for i in range(16)],
        "packaging/mcpb/manifest.json": [
            (("author", "url"), repo),
            (("repository", "url"), repo + ".git"),
            (("homepage",), repo),
            (("support",), repo + "/issues"),
        ],
    }


def walk(document, keys):
    """(the container, its last key) for a key path, or None when the path is absent."""
    node = document
    for key in keys[:-1]:
        if isinstance(key, int):
            if not isinstance(node, list) or key >= len(node):
                return None
        elif not isinstance(node, dict) or key not in node:
            return None
        node = node[key]
    last = keys[-1]
    if isinstance(last, int) and (not isinstance(node, list) or last >= len(node)):
        return None
    return node, last


def main():
    write = "--write" in sys.argv[1:]
    with open(os.path.join(ROOT, "packaging", "identity.json"), encoding="utf-8") as f:
        identity = json.load(f)
    problems = []
    for relative, wanted in fields(identity["repository"], identity["registryName"]).items():
        path = os.path.join(ROOT, relative)
        with open(path, encoding="utf-8") as f:
            document = json.load(f)
        changed = False
        for keys, value in wanted:
            found = walk(document, keys)
            if found is None:
                if isinstance(keys[-1], int) or keys[0] == "packages":
                    continue  # fewer packages than the 16 looked at
                problems.append(f"{relative}: {'.'.join(map(str, keys))} is missing")
                continue
            node, key = found
            if keys[0] == "packages":
                # Only release downloads (the .mcpb files) carry the repository in their URL.
                if node[key].startswith("https://") and not node[key].startswith(value):
                    if write:
                        node[key] = value + node[key].split("/releases/download/", 1)[-1]
                        changed = True
                    else:
                        problems.append(f"{relative}: {'.'.join(map(str, keys))} is {node[key]!r}, not under {value!r}")
                continue
            if node[key] != value:
                if write:
                    node[key] = value
                    changed = True
                else:
                    problems.append(f"{relative}: {'.'.join(map(str, keys))} is {node[key]!r}, not {value!r}")
        if changed:
            with open(path, "w", encoding="utf-8") as f:
                f.write(json.dumps(document, indent=2, ensure_ascii=False) + "\n")
            print(f"identity: rewrote {relative}")
    for p in problems:
        print(f"identity: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
