#!/usr/bin/env python3
"""The portable bundle against the Debian build on the same machine, in one run: start-up time
(spawn to the parsed `initialize` answer) and RSS (VmRSS once a `ping` is answered after
initialize, and VmHWM after one read each of a PNG, a PPM through libvips, a PDF page's text and
render, and a notebook: the lazily loaded libraries counted). Spawns alternate between the two
binaries; medians over --runs spawns each, after one warm-up spawn each.

  python3 bench/bundle-vs-debian.py dist/mcp-read-<version>-linux-x64/bin/mcp-read build/mcp-read [--runs 20]
Prints a Markdown table (ratio = bundle / Debian; the goal is within 10 %).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "release"))
import fixtures  # noqa: E402


def status_kib(pid, field):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def one_spawn(binary, folder, reads):
    start = time.perf_counter()
    proc = subprocess.Popen([binary, folder], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    ask_id = 0

    def ask(method, params=None):
        nonlocal ask_id
        ask_id += 1
        message = {"jsonrpc": "2.0", "id": ask_id, "method": method}
        if params is not None:
            message["params"] = params
        proc.stdin.write(json.dumps(message) + "\n")
        proc.stdin.flush()
        while True:
            answer = json.loads(proc.stdout.readline())
            if answer.get("id") == ask_id:
                return answer

    ask("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                       "clientInfo": {"name": "bench", "version": "1"}})
    startup = time.perf_counter() - start
    proc.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n")
    ask("ping")
    idle = status_kib(proc.pid, "VmRSS")
    peak = None
    if reads:
        for name, extra in (("small.png", {}), ("picture.ppm", {}), ("page.pdf", {}),
                            ("page.pdf", {"file_type": "image"}), ("analysis.ipynb", {})):
            answer = ask("tools/call", {"name": "read", "arguments": {"file_path": f"{folder}/{name}", **extra}})
            if answer.get("result", {}).get("isError") or "error" in answer:
                raise SystemExit(f"{binary}: reading {name} failed: {json.dumps(answer)[:300]}")
        peak = status_kib(proc.pid, "VmHWM")
    proc.stdin.close()
    proc.wait(timeout=30)
    return startup, idle, peak


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("bundle")
    parser.add_argument("debian")
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        fixtures.write_all(folder)
        sides = {"bundle": args.bundle, "debian": args.debian}
        samples = {side: {"startup": [], "idle": [], "peak": []} for side in sides}
        for side, binary in sides.items():
            one_spawn(binary, folder, reads=True)  # warm-up: page cache, not counted
        for run in range(args.runs):
            for side, binary in (sides.items() if run % 2 == 0 else reversed(sides.items())):
                startup, idle, peak = one_spawn(binary, folder, reads=run % 4 < 2)
                samples[side]["startup"].append(startup * 1000)
                samples[side]["idle"].append(idle / 1024)
                if peak is not None:
                    samples[side]["peak"].append(peak / 1024)
    rows = (("start-up (spawn to initialize answer)", "startup", "ms"),
            ("idle RSS after initialize", "idle", "MiB"),
            ("peak RSS after PNG, PPM, PDF text + render, notebook", "peak", "MiB"))
    print(f"| row ({args.runs} spawns each, medians) | bundle | Debian build | ratio |")
    print("|---|---|---|---|")
    for title, key, unit in rows:
        b = statistics.median(samples["bundle"][key])
        d = statistics.median(samples["debian"][key])
        print(f"| {title} | {b:.1f} {unit} | {d:.1f} {unit} | {b / d:.2f} |")


if __name__ == "__main__":
    main()
