#!/usr/bin/python3
"""XLSX and ODS: the values mcp-read shows against an independent converter's, cell by cell, and
the time each takes. Not a timed test: a measurement for bench/README.md (issue 14 asks for value
agreement >= 0.97 on real spreadsheets and mcp-read >= 10x faster than the anchor).

pandoc 2.17 reads neither format, so the anchors are:
- XLSX: xlsx2csv (Debian package xlsx2csv, 0.7.8; a small Python converter that applies the cell
  formats as mcp-read does), run as `xlsx2csv -a -f %Y-%m-%d` (dates as ISO dates, the form
  mcp-read gives the locale-dependent short date in);
- ODS: odfpy (Debian package python3-odf), its cells' text:p paragraphs, repeats expanded, timed
  in-process (no interpreter start counted, which favours the anchor).
gnumeric's ssconvert and LibreOffice read both, but pull in a desktop's worth of libraries.

Real files come from Debian packages fetched with `apt-get download` (nothing installed):
r-cran-readxl's and r-cran-openxlsx's example workbooks, xlsx2csv's own test workbooks,
python-odf-doc's example spreadsheet. `--big FILE` adds a generated workbook
(bench/gen-sheet.py) and measures the server's peak RSS (VmHWM) reading its first page and its
last rows (which streams the whole sheet).

Usage: bench/sheets-agreement.py build/mcp-read [--keep DIR] [--big FILE] [--only NAME]
`--only readTest.xlsx` measures only the files of that name (the others are still fetched).
Agreement is 2|A∩B| / (|A|+|B|) over the multisets of non-empty cell values (whitespace trimmed;
numbers compared at 10 significant digits), all sheets; from mcp-read's text only the table cells
are taken (the row-number column left out).
"""
import argparse
import collections
import csv
import glob
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "corpus"))
from mcp_client import Client  # noqa: E402

PACKAGES = {
    "r-cran-readxl": "usr/lib/R/site-library/readxl/extdata/*.xlsx",
    "r-cran-openxlsx": "usr/lib/R/site-library/openxlsx/extdata/*.xlsx",
    "xlsx2csv": "usr/share/doc/xlsx2csv/examples/test/*.xlsx",
    "python-odf-doc": "usr/share/python-odf/examples/*.ods",
}


def norm(value):
    value = " ".join(value.split())  # a tab or line break in a cell: mcp-read shows a space or <br>
    try:
        return "%.10g" % float(value)
    except ValueError:
        return value


def ours_cells(text):
    cells = collections.Counter()
    for line in text.split("\n"):
        if not line.startswith("| ") or line.startswith("| Row |") or line.startswith("| ---:"):
            continue
        parts = re.split(r"(?<!\\) \| ", line[2:-2])
        for cell in parts[1:]:
            cell = cell.replace("\\|", "|").replace("<br>", "\n").strip()
            if cell:
                cells[norm(cell)] += 1
    return cells


def xlsx2csv_cells(path, iso_dates=True):
    dates = ["-f", "%Y-%m-%d"] if iso_dates else []
    out = subprocess.run(["xlsx2csv", "-a", *dates, path], capture_output=True, text=True).stdout
    cells = collections.Counter()
    for row in csv.reader(io.StringIO(out)):
        if len(row) == 1 and row[0].startswith("-------- "):
            continue
        for cell in row:
            if cell.strip():
                cells[norm(cell)] += 1
    return cells


def odfpy_cells(path):
    from odf import opendocument, table, teletype, text
    cells = collections.Counter()
    doc = opendocument.load(path)
    for t in doc.spreadsheet.getElementsByType(table.Table):
        for row in t.getElementsByType(table.TableRow):
            rows = int(row.getAttribute("numberrowsrepeated") or 1)
            for cell in row.childNodes:
                if cell.qname[1] not in ("table-cell", "covered-table-cell"):
                    continue
                ps = cell.getElementsByType(text.P)
                value = "\n".join(teletype.extractText(p) for p in ps)
                if not ps:
                    value = cell.getAttribute("value") or "" if cell.qname[1] == "table-cell" else ""
                if value.strip():
                    cells[norm(value)] += rows * int(cell.getAttribute("numbercolumnsrepeated") or 1)
    return cells


def agreement(a, b):
    common = sum((a & b).values())
    total = sum(a.values()) + sum(b.values())
    return 1.0 if total == 0 else 2 * common / total


def fetch(workdir):
    subprocess.run(["apt-get", "download", *PACKAGES], cwd=workdir, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for deb in glob.glob(os.path.join(workdir, "*.deb")):
        subprocess.run(["dpkg-deb", "-x", deb, os.path.join(workdir, "x")], check=True)
    files = []
    for pattern in PACKAGES.values():
        files += sorted(glob.glob(os.path.join(workdir, "x", pattern)))
    return files


def text_ways(_result, text):
    """The ways on an answer's text names (the rest of a sheet, then the sheets the output cap left
    out), in order: a workbook's meta gives only one."""
    return [{"pages": m.group(1), **({"offset": int(m.group(2))} if m.group(2) else {})}
            for m in re.finditer(r'call read again with pages="([^"]+)"(?: and offset=(\d+))?', text)]


def hwm_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def cpu_seconds(pid):
    """User and system time of a running process (its server's work, not the client's)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def big(binary, path):
    """Each read in a fresh server: its wall and CPU time and the server's peak RSS; then
    xlsx2csv on the whole sheet, and the ratios side by side (CPU time too, as the wall time of a
    loaded machine says more about the load)."""
    size = os.path.getsize(path) / 1e6
    ours = []
    for what, args in (("first page", {}), ("the last 11 rows (offset 999,990: the whole sheet streamed)", {"offset": 999990})):
        client = Client(os.path.abspath(binary), ["/"])
        try:
            c0 = cpu_seconds(client.process.pid)
            t0 = time.perf_counter()
            r = client.read({"file_path": path, **args})
            t, cpu = time.perf_counter() - t0, cpu_seconds(client.process.pid) - c0
            ok = "error" if r.get("isError") else "ok"
            ours.append((what, t, cpu))
            print(f"{os.path.basename(path)} ({size:.0f} MB), {what}: {t * 1000:.0f} ms ({cpu:.2f} s CPU), peak RSS "
                  f"{hwm_kib(client.process.pid) / 1024:.1f} MiB ({ok})")
        finally:
            client.close()
    before = os.times()
    t0 = time.perf_counter()
    subprocess.run(["xlsx2csv", path, os.devnull], check=True)
    t_anchor = time.perf_counter() - t0
    after = os.times()
    cpu_anchor = after.children_user + after.children_system - before.children_user - before.children_system
    print(f"xlsx2csv, the whole first sheet: {t_anchor * 1000:.0f} ms ({cpu_anchor:.2f} s CPU)")
    for what, t, cpu in ours:
        print(f"  speed, {what}: {t_anchor / max(t, 1e-9):.1f}x wall, {cpu_anchor / max(cpu, 0.01):.1f}x CPU")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--keep")
    parser.add_argument("--big")
    parser.add_argument("--only", help="only the files of this base name (readTest.xlsx, say)")
    args = parser.parse_args()
    workdir = args.keep or tempfile.mkdtemp(prefix="sheets-bench-")
    os.makedirs(workdir, exist_ok=True)
    files = fetch(workdir)
    if args.only:
        files = [f for f in files if os.path.basename(f) == args.only]
    client = Client(os.path.abspath(args.binary), ["/"], answer_times=True)
    print(f"{'file':32} {'cells':>6} {'agree':>6} {'agree2':>6} {'anchor ms':>10} {'mcp-read ms':>12} {'calls':>5} "
          f"{'speed':>6} {'server ms':>9} {'speed':>6} {'CPU ms: anchor':>14} {'mcp-read':>8} {'speed':>6}")
    common = total = 0
    try:
        for path in files:
            before = os.times()
            t0 = time.perf_counter()
            ref = odfpy_cells(path) if path.endswith(".ods") else xlsx2csv_cells(path)
            t_anchor = time.perf_counter() - t0
            after = os.times()
            cpu_anchor = sum(after[:4]) - sum(before[:4])  # in-process (odfpy) or the child's (xlsx2csv)
            # xlsx2csv again with its own date formats: the better of the two counts, as dates
            # differ only in presentation (ISO here, the locale's order there).
            ref2 = ref if path.endswith(".ods") else xlsx2csv_cells(path, iso_dates=False)
            c0 = cpu_seconds(client.process.pid)
            answered = len(client.answer_micros)
            t0 = time.perf_counter()
            text, calls, _ = client.read_all({"file_path": path}, text_ways)
            t_ours = time.perf_counter() - t0
            cpu_ours = cpu_seconds(client.process.pid) - c0
            time.sleep(0.05)  # the log lines of the last answer (stderr is read by its own thread)
            server_ms = sum(client.answer_micros[answered:]) / 1000
            ours = ours_cells(text)
            best = max((ref, ref2), key=lambda r: agreement(ours, r))
            common += 2 * sum((ours & best).values())
            total += sum(ours.values()) + sum(best.values())
            print(f"{os.path.basename(path):32} {sum(ref.values()):6} {agreement(ours, ref):6.3f} "
                  f"{agreement(ours, ref2):6.3f} {t_anchor * 1000:10.1f} {t_ours * 1000:12.1f} {calls:5} "
                  f"{t_anchor / max(t_ours, 1e-9):5.0f}x {server_ms:9.1f} {t_anchor * 1000 / max(server_ms, 1e-6):5.0f}x "
                  f"{cpu_anchor * 1000:14.0f} {cpu_ours * 1000:8.0f} "
                  # the server's CPU time is counted in clock ticks (10 ms): no ratio below one
                  f"{(f'{cpu_anchor / cpu_ours:5.0f}x') if cpu_ours > 0.005 else '     -'}")
        print(f"all cells: agreement {common / max(total, 1):.3f} (the better of the two date forms per file)")
    finally:
        client.close()
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)
    if args.big:
        big(args.binary, args.big)


if __name__ == "__main__":
    main()
