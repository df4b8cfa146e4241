#!/usr/bin/env python3
"""Reads a corpus of real files from Debian packages with mcp-read and checks every answer
against an independent reference (see README.md beside this file).

    python3 tests/corpus/run.py build/mcp-read                 # the whole corpus
    python3 tests/corpus/run.py build/mcp-read --kind pdf      # one kind
    python3 tests/corpus/run.py build/mcp-read --only tutor    # paths matching a regex

Prints one PASS/FAIL line per file, then the counts, the download size and the time; exits 1
when any file fails.
"""
import argparse
import glob
import os
import re
import shlex
import shutil
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import checks  # noqa: E402
import fetch  # noqa: E402
import writers  # noqa: E402
from mcp_client import Client, ServerError  # noqa: E402


def parse_manifest(path):
    """Lines of `package path-or-glob kind reference [name=value ...]`; '#' starts a comment.
    A file named again by a later line is checked as that line says."""
    entries = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            words = shlex.split(line)
            if len(words) < 4 or words[2] not in checks.CHECKS:
                raise SystemExit(f"{path}:{number}: want `package path kind reference [k=v ...]`")
            arguments = {}
            for word in words[4:]:
                key, _, value = word.partition("=")
                arguments[key] = int(value) if key in ("offset", "limit") else value
            entries.append({"package": words[0], "pattern": words[1], "kind": words[2],
                            "reference": words[3], "arguments": arguments, "line": number})
    return entries


def expand(root, entry):
    """The files an entry names, relative to the package root, sorted; a glob must match."""
    pattern = entry["pattern"]
    if not glob.has_magic(pattern):
        return [pattern]
    found = sorted(os.path.relpath(p, root)
                   for p in glob.glob(os.path.join(glob.escape(root), pattern), recursive=True)
                   if os.path.isfile(p))
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary", help="the mcp-read binary")
    parser.add_argument("--manifest", default=os.path.join(os.path.dirname(__file__), "manifest"))
    parser.add_argument("--kind", choices=sorted(checks.CHECKS), help="check only this kind")
    parser.add_argument("--only", help="check only paths matching this regex")
    parser.add_argument("--timeout", type=int, default=120, help="seconds per answer")
    options = parser.parse_args()
    binary = os.path.abspath(options.binary)
    started = time.monotonic()
    missing = [tool for tool in ("apt-get", "apt-cache", "dpkg-deb", "mutool", "vipsheader")
               if not shutil.which(tool)]
    if missing or not os.access(binary, os.X_OK):
        print(f"corpus: missing {', '.join(missing) or binary} (bash scripts/install-deps.sh --test)")
        return 2

    entries = [e for e in parse_manifest(options.manifest)
               if not options.kind or e["kind"] == options.kind]
    packages = []
    for entry in entries:
        if entry["package"] not in packages:
            packages.append(entry["package"])

    fetcher = fetch.Fetcher(lambda message: print(message, flush=True))
    passed = failed = 0

    def report(ok, entry, path, why):
        nonlocal passed, failed
        if ok:
            passed += 1
        else:
            failed += 1
        print(f"{'PASS' if ok else 'FAIL'} {entry['kind']:8} {entry['package']} {path}"
              f"{' ' + str(entry['arguments']) if entry['arguments'] else ''}: {why}", flush=True)

    for package in packages:
        mine = [e for e in entries if e["package"] == package]
        try:
            root = fetcher.unpack(package)
        except RuntimeError as error:
            for entry in mine:
                report(False, entry, entry["pattern"], f"fetch: {error}")
            continue
        work = []
        for entry in mine:
            files = expand(root, entry)
            if options.only:
                files = [f for f in files if re.search(options.only, f)]
            elif not files:
                report(False, entry, entry["pattern"], "manifest: the glob matches no file")
            work += [(entry, f) for f in files]
        # A later line naming a file again (with the same arguments) replaces what a glob said.
        chosen = {}
        for entry, relative in work:
            chosen[(relative, repr(sorted(entry["arguments"].items())))] = (entry, relative)
        work = list(chosen.values())
        if not work:
            continue
        client = None
        for entry, relative in work:
            path = os.path.join(root, relative)
            if not os.path.isfile(path):
                report(False, entry, relative, "manifest: no such file in the package")
                continue
            try:
                if client is None:
                    client = Client(binary, [root], options.timeout)
                result = client.read(dict(entry["arguments"], file_path=path))
                ok, why = checks.CHECKS[entry["kind"]](root, path, result, entry["reference"],
                                                       entry["arguments"])
            except ServerError as error:
                ok, why = False, f"server: {error}"
                # A dead or hung server is replaced, so one bad file cannot fail the rest.
                client.close() if client else None
                client = None
            except (OSError, ValueError, KeyError, IndexError, TypeError) as error:
                # An answer shaped unlike any the checks expect fails that file, not the run.
                ok, why = False, f"check stopped: {error!r}"
            report(ok, entry, relative, why.replace(root + os.sep, ""))
        if client:
            client.close()

    # Workbooks their writers did not calculate, made on the spot (writers.py).
    if not options.only and options.kind in (None, "xlsx", "ods", "pdf"):
        def written(ok, name, why):
            report(ok, {"kind": "written", "package": "made on the spot", "arguments": {}}, name, why)
        photo = None
        if options.kind in (None, "pdf"):
            try:
                photo = os.path.join(fetcher.unpack("libvips-doc"), "usr/share/gtk-doc/html/libvips/owl.jpg")
            except RuntimeError as error:
                written(False, "owl.jpg as a PDF page", f"fetch: {error}")
        writers.run(binary, written, photo)

    elapsed = time.monotonic() - started
    print(f"corpus: {len(packages)} packages, {fetcher.downloaded_bytes / 1e6:.1f} MB downloaded, "
          f"{fetcher.cached_bytes / 1e6:.1f} MB reused from {fetch.cache_root()}; {elapsed:.0f}s")
    print(f"corpus: {passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
