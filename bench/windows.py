#!/usr/bin/env python3
"""mcp-read.exe under Wine against the Linux build, on the same fixtures in the same run: to spot
anything pathologically slow in the Windows build (scripts/windows/prove.sh makes it). Reported
as ratios (Wine time / Linux time), never as limits: Wine itself adds to every system call.

  bench/windows.py LINUX_MCP_READ WINDOWS_BUNDLE_DIR [--rounds N]

Rows: start (spawn to the initialize answer, Wine's process start included; the Wine server is
kept running, as it would be for a host that starts servers repeatedly), a 2,000-line read of a
300 KB text file (calls per second over one session), fitting a 3000x2000 PNG into the model's
image budget, and a PDF's text (when the bundle has the PDF plugin). Prints a Markdown table.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "scripts", "release"))
import fixtures  # noqa: E402


class Server:
    def __init__(self, command):
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL)
        self.next_id = 0

    def request(self, method, params):
        self.next_id += 1
        line = json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}) + "\n"
        self.proc.stdin.write(line.encode())
        self.proc.stdin.flush()
        while True:
            answer = json.loads(self.proc.stdout.readline())
            if answer.get("id") == self.next_id:
                return answer

    def initialize(self):
        answer = self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                             "clientInfo": {"name": "bench", "version": "1"}})
        self.proc.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        self.proc.stdin.flush()
        return answer

    def read(self, path, **arguments):
        answer = self.request("tools/call", {"name": "read", "arguments": {"file_path": path, **arguments}})
        result = answer.get("result", {})
        if result.get("isError"):
            raise RuntimeError(f"{path}: {result['content'][0].get('text', '')[:200]}")
        return result

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


def median_seconds(fn, rounds):
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def measure(command, root, path_of, rounds, pdf):
    rows = {}
    def start():
        s = Server(command + [path_of(root)])
        s.initialize()
        s.close()
    rows["start (spawn to initialize answer)"] = median_seconds(start, rounds)
    s = Server(command + [path_of(root)])
    s.initialize()
    text = path_of(os.path.join(root, "long.txt"))
    s.read(text, limit=2000)  # warm: the file in the page cache, the line index made
    calls = 20 * rounds
    start_time = time.perf_counter()
    for _ in range(calls):
        s.read(text, limit=2000)
    rows["2,000-line read (per call)"] = (time.perf_counter() - start_time) / calls
    big = path_of(os.path.join(root, "big.png"))
    rows["fit a 3000x2000 PNG (per call)"] = median_seconds(lambda: s.read(big), rounds)
    if pdf:
        page = path_of(os.path.join(root, "page.pdf"))
        rows["PDF text, one page (per call)"] = median_seconds(lambda: s.read(page), rounds)
    s.close()
    return rows


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("linux")
    parser.add_argument("bundle")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    wine = subprocess.run(["dpkg", "-L", "wine64"], capture_output=True, text=True).stdout.split()
    wine = next(p for p in wine if p.endswith("/wine64"))
    exe = os.path.join(args.bundle, "bin", "mcp-read.exe")
    pdf_on_windows = os.path.exists(os.path.join(args.bundle, "bin", "libmcpread_pdf.dll"))
    with tempfile.TemporaryDirectory() as root:
        fixtures.write_all(root)
        with open(os.path.join(root, "long.txt"), "w") as f:
            for n in range(1, 6001):
                f.write(f"line {n:5d}: the quick brown fox jumps over the lazy dog, {'x' * (n % 17)}\n")
        with open(os.path.join(root, "big.png"), "wb") as f:
            f.write(fixtures.png(3000, 2000))
        linux = measure([args.linux], root, lambda p: p, args.rounds, True)
        env_prefix = tempfile.mkdtemp(prefix="mcp-read-bench-wine.")
        os.environ.update(WINEPREFIX=env_prefix, WINEDEBUG="-all")
        subprocess.run([wine, "cmd", "/c", "exit"], capture_output=True)  # the prefix, made once
        windows = measure([wine, exe], root, lambda p: "Z:" + p.replace("/", "\\"), args.rounds, pdf_on_windows)
        subprocess.run([os.path.join(os.path.dirname(wine), "wineserver"), "-k"], capture_output=True)
        subprocess.run(["rm", "-rf", env_prefix])
    print("| row | Linux | Windows under Wine | Wine ÷ Linux |")
    print("|---|---|---|---|")
    for row, seconds in linux.items():
        if row in windows:
            print(f"| {row} | {seconds * 1000:.2f} ms | {windows[row] * 1000:.2f} ms | {windows[row] / seconds:.1f}× |")
        else:
            print(f"| {row} | {seconds * 1000:.2f} ms | no PDF plugin in this bundle yet | — |")


if __name__ == "__main__":
    main()
