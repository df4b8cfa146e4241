"""The two sides of bench/kreuzberg.py, each run on one file in a fresh process: Kreuzberg's native
binding (installed with npm, started through a newer glibc when the host's is too old) and an
mcp-read server reading the whole document as a model would."""
import glob
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "corpus"))
import checks  # noqa: E402
from mcp_client import Client, ServerError, meta_ways  # noqa: E402

KREUZBERG_VERSION = "4.10.2"
BINDING_PACKAGE = "@kreuzberg/node-linux-x64-gnu"
BINDING_FILE = "kreuzberg-node.linux-x64-gnu.node"
NEEDED_GLIBC = (2, 39)  # the binding's newest symbol version (GLIBC_2.39; GLIBCXX_3.4.31 with it)

# ---------------------------------------------------------------- Kreuzberg: install and run

def binding_path(directory):
    """The native binding's .node file, installed with npm into `directory` unless the pinned
    version is already there. Only the binding: the JS wrapper is not used (kreuzberg-extract.mjs
    says why)."""
    package = os.path.join(directory, "node_modules", *BINDING_PACKAGE.split("/"))
    try:
        with open(os.path.join(package, "package.json"), encoding="utf-8") as f:
            installed = json.load(f).get("version")
    except (OSError, ValueError):
        installed = None
    if installed != KREUZBERG_VERSION:
        os.makedirs(directory, exist_ok=True)
        print(f"kreuzberg: npm install {BINDING_PACKAGE}@{KREUZBERG_VERSION} into {directory}", flush=True)
        # The package declares node >= 22; N-API keeps the binding loadable by node 20 (checked by
        # the probe below), so npm's engine warning is no reason to stop.
        subprocess.run(["npm", "install", "--prefix", directory, "--no-save", "--no-package-lock",
                        "--no-audit", "--no-fund", "--loglevel=error",
                        f"{BINDING_PACKAGE}@{KREUZBERG_VERSION}"], check=True)
    return os.path.join(package, BINDING_FILE)


def glibc_version():
    found = re.search(r"(\d+)\.(\d+)", os.confstr("CS_GNU_LIBC_VERSION") or "")
    return (int(found.group(1)), int(found.group(2))) if found else (0, 0)


def node_command(glibc_root):
    """How to start node so that the binding loads: node itself on glibc >= 2.39; otherwise node
    run by a newer Debian root's dynamic loader, with that root's libraries first and the host's
    after them (for whatever node links that the root lacks)."""
    node = subprocess.run(["sh", "-c", "command -v node"], capture_output=True, text=True).stdout.strip()
    if not node:
        raise SystemExit("kreuzberg: node is needed")
    if glibc_version() >= NEEDED_GLIBC and not glibc_root:
        return [node], "host glibc"
    roots = [glibc_root] if glibc_root else sorted(
        p for p in glob.glob(os.path.expanduser("~/.cache/mcp-read-release/roots/trixie-amd64-*"))
        if os.path.isdir(p))
    for root in roots:
        loader = os.path.join(root, "lib", "x86_64-linux-gnu", "ld-linux-x86-64.so.2")
        if os.path.exists(loader):
            paths = [os.path.join(root, "lib", "x86_64-linux-gnu"),
                     os.path.join(root, "usr", "lib", "x86_64-linux-gnu"), "/usr/lib/x86_64-linux-gnu"]
            return [loader, "--library-path", ":".join(paths), node], f"loader of {root}"
    raise SystemExit(f"kreuzberg: the binding needs glibc {'.'.join(map(str, NEEDED_GLIBC))}, this system has "
                     f"{'.'.join(map(str, glibc_version()))}; give a Debian trixie root with --glibc-root "
                     "(bash scripts/release/root.sh trixie amd64 makes one)")


def kreuzberg_extract(node, binding, path, timeout):
    """One extraction in a fresh node process: its content, the call's time, the process's peak RSS
    and its wall time (spawn to exit: node's start and the binding's load included)."""
    started = time.perf_counter()
    try:
        done = subprocess.run([*node, os.path.join(HERE, "kreuzberg-extract.mjs"), binding, path],
                              capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"ok": False, "error": f"no answer within {timeout} s"}
    wall = (time.perf_counter() - started) * 1000
    try:
        out = json.loads(done.stdout)
    except ValueError:
        # The process died (a Rust panic that aborts): its last line, and the panic's place and
        # message when it printed them.
        lines = done.stderr.decode(errors="replace").strip().splitlines() or ["no output"]
        panic = next((i for i, l in enumerate(lines) if " panicked at " in l), None)
        said = lines[-1] if panic is None else f"{lines[-1]} ({' '.join(lines[panic:panic + 2])[:240]})"
        return {"ok": False, "error": f"exit code {done.returncode}: {said}", "wall_ms": wall}
    out["wall_ms"] = wall
    out["ok"] = "error" not in out
    return out


# ---------------------------------------------------------------- mcp-read: one server per file

def status_kib(pid, field):
    with open(f"/proc/{pid}/status", encoding="utf-8") as f:
        found = re.search(rf"^{field}:\s+(\d+) kB", f.read(), re.M)
    return int(found.group(1)) if found else None


def mcp_read_whole(binary, root, path, arguments, timeout, warmup=None):
    """The whole document in one fresh server: its answers' texts (one per call), the time of the
    calls, the server's own time for them (its debug log) and its peak RSS. With `warmup` (another
    file of the same format, under the same root), that file is read whole first, untimed: the
    format's libraries are then loaded, as Kreuzberg's binding is before its timed call, and as
    they are in a server a host keeps running."""
    try:
        client = Client(binary, [root], timeout, answer_times=True)
    except ServerError as failure:
        return {"ok": False, "error": f"server: {failure}"}
    if warmup is not None:
        try:
            client.read_all(dict(arguments, file_path=warmup), lambda result, chunk: meta_ways(result, chunk))
        except ServerError as failure:
            client.close()
            return {"ok": False, "error": f"server: {failure}"}
    answered = len(client.answer_micros)
    chunks = []

    def ways(result, chunk):
        chunks.append((chunk, result.get("_meta", {})))
        found = meta_ways(result, chunk)
        meta = result.get("_meta", {})
        # A PDF read with explicit pages names no next range (those pages were what was asked):
        # go on after the last page shown, 20 at a time, as a model reading it all would. (Its
        # _meta kind is "text" when read with file_type="text".)
        if not found and meta.get("selected") and isinstance(meta.get("pages"), int):
            last, pages = max(meta["selected"]), meta["pages"]
            if last < pages:
                found = [{"pages": f"{last + 1}-{min(last + 20, pages)}"}]
        return found

    try:
        rss = status_kib(client.process.pid, "VmRSS")
        started = time.perf_counter()
        text, calls, error = client.read_all(dict(arguments, file_path=path), ways)
        elapsed = (time.perf_counter() - started) * 1000
        hwm = status_kib(client.process.pid, "VmHWM")
    except ServerError as failure:
        return {"ok": False, "error": f"server: {failure}"}
    finally:
        client.close()
    out = {"calls": calls, "ms": elapsed, "server_ms": sum(client.answer_micros[answered:]) / 1000,
           "hwm_kib": hwm, "rss_initialized_kib": rss, "chunks": chunks}
    if error:
        out.update(ok=False, error=checks.short(text, 300))
    else:
        out["ok"] = True
    return out
