#!/usr/bin/env python3
"""mcp-read beside Kreuzberg, a Rust document extractor (npm @kreuzberg/node, its native binding),
on the same real files in the same run: per format, the files each one reads, the word agreement
of each with an independent reference, the time and the peak RSS. A measurement, not a timed test.

Files come from the corpus (tests/corpus/manifest, Debian packages unpacked into
~/.cache/mcp-read-corpus/ by tests/corpus/fetch.py), a few per format, spread from the smallest to
the largest by the reference's word count. The references are the corpus's: `pandoc -t plain`
(DOCX, ODT, EPUB, HTML), `unrtf --text` (RTF), xlsx2csv (XLSX), content.xml read by the standard
library (ODS), the slides' text runs (PPTX, ODP; tests/corpus/slide_runs.py), `mutool draw -F txt`
(PDF), Python's csv module (CSV). Agreement is tests/corpus/checks.py's: 2|A∩B| / (|A|+|B|) over
lower-cased \\w+ words, mcp-read's own header, markers and notes left out.

Each file is read in fresh processes, one per side, so that each peak RSS is that file's:
  mcp-read   one server per file, started with --ocr off; the whole document is read (every page,
             sheet or chunk, following each answer's way on as a model would); time: the read
             calls, request to parsed answer; peak: the server's VmHWM before it is closed. Then
             once more in a second server that has first read another file of the format, untimed
             (its libraries loaded, as the binding is on Kreuzberg's side before its timed call,
             and as in a server a host keeps running): the "libraries loaded" column.
  Kreuzberg  one node process per file (bench/kreuzberg-extract.mjs) calling the binding's
             extractFileSync(path, null, {useCache: false, disableOcr: true}); time: that call;
             peak: the process's VmHWM right after it (node and the 89 MB binding included).

Usage: bench/kreuzberg.py build/mcp-read [--per-format N | --all] [--formats pdf,docx] [--out DIR]
Needs node and npm (the binding is installed into ~/.cache/mcp-read-bench/kreuzberg-<version>/),
and the corpus's tools: pandoc, unrtf, xlsx2csv, mutool. The binding needs glibc 2.39; on an older
system node is started through the loader of a newer Debian root (--glibc-root; see bench/README.md).
"""
import argparse
import collections
import csv
import json
import math
import os
import re
import statistics
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "corpus"))
import checks  # noqa: E402
import dbf_tables  # noqa: E402
import hwp_documents  # noqa: E402
import fetch  # noqa: E402
import run as corpus  # noqa: E402
import slide_runs  # noqa: E402
import text_formats  # noqa: E402
from kreuzberg_sides import (BINDING_PACKAGE, KREUZBERG_VERSION, binding_path, kreuzberg_extract,  # noqa: E402
                             mcp_read_whole, node_command)

FORMATS = ["docx", "odt", "rtf", "doc", "xlsx", "ods", "xls", "pptx", "odp", "ppt", "epub", "fb2", "html", "pdf",
           "csv", "mail", "hwp", "xlsb", "dbf"]
# PDF lines whose file has no text to agree on (a password, a photograph, a scan): both sides would
# be compared on nothing.
NO_TEXT = {"encrypted", "photo", "image-only"}
MIN_WORDS = 20  # a reference with fewer words says little about agreement
REFERENCE_SECONDS = 60  # a file whose reference takes longer is left out
LINK_TARGET = re.compile(r"\]\([^)\s]*\)")
ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")  # Markdown's backslash before ASCII punctuation
TABLES = {"xlsx", "ods", "xls", "csv", "xlsb", "dbf"}


# ---------------------------------------------------------------- words and references

def as_compared(text, kind):
    """In a table's text (CSV, XLSX, ODS) every number written at 10 significant digits, as the
    corpus compares cells (checks._cell_value): ".4" and "0.40" are one value, not the words "4"
    and "0", "40". Other text as it is."""
    return " ".join(checks._cell_value(token) for token in text.split()) if kind in TABLES else text


def counted(text, kind=None):
    return collections.Counter(w.lower() for w in checks.WORD.findall(as_compared(text, kind)))


def cell_words(cells):
    """The words of a Counter of cell values."""
    return counted(" ".join(cells.elements()), "csv")


def pdf_text(chunk):
    """mcp-read's PDF text without its header line, page markers and notes ("[Page 3 is blank.]",
    "[Pages 21-311 not shown; …]")."""
    lines = chunk.split("\n")[1:]
    return "\n".join(l for l in lines if not checks.PAGE_MARKER.match(l) and not re.match(r"\[Pages? \d", l))


def csv_words(chunk, meta):
    """mcp-read's CSV table as words: the cells, and the header row's names when it saw one (its
    "| Row |" line; without a header that line holds column letters, not the file's)."""
    words = cell_words(checks.sheet_cells(chunk))
    head = next((l for l in chunk.split("\n") if l.startswith("| Row |")), None)
    if head and meta.get("header"):
        words += cell_words(collections.Counter(re.split(r"(?<!\\) \| ", head[2:-2])[1:]))
    return words


def mcp_read_words(kind, chunks):
    """mcp-read's text as words without its own header, markers and notes (the corpus's cleaners),
    each answer on its own: every answer starts with a header line."""
    total = collections.Counter()
    for chunk, meta in chunks:
        if kind in ("docx", "odt", "rtf", "doc", "hwp"):
            total += checks._office_words(chunk)
        elif kind in ("pptx", "odp", "ppt", "epub"):
            total += checks._slide_words({"content": [{"type": "text", "text": chunk}]}, presentation=kind != "epub")
        elif kind == "html":
            total += text_formats._page_words(chunk)
        elif kind == "fb2":
            total += text_formats.fb2_words(chunk)
        elif kind == "mail":
            total += text_formats.mail_words(chunk)[0]
        elif kind in ("xlsx", "ods", "xls", "xlsb", "dbf"):
            total += cell_words(checks.sheet_cells(chunk))
        elif kind == "csv":
            total += csv_words(chunk, meta)
        elif kind == "pdf":
            total += counted(pdf_text(chunk))
    return total


def kreuzberg_words(kind, content):
    """Kreuzberg's content as words without its Markdown (HTML, EPUB; even in its "plain" output):
    link targets left out as mcp-read's are, and backslash escapes undone ("add\\_sheet" is the
    word add_sheet): neither is the document's text."""
    return counted(ESCAPED.sub(r"\1", LINK_TARGET.sub("]", content)), kind)


def reference_texts(kind, path, entry):
    """The reference's text (for XLSX two: xlsx2csv with ISO dates and with its own date formats;
    each side is compared with the one it agrees with more, as the corpus does)."""
    if kind in ("docx", "odt", "epub", "html"):
        return [checks._pandoc_plain(path)]
    if kind == "rtf":
        return [checks._unrtf_text(path)]
    if kind == "doc":
        return [checks._catdoc_text(path)]
    if kind == "ppt":
        return [slide_runs.ppt_runs(path)]
    if kind == "fb2":
        return [text_formats.fb2_text(path)]
    if kind == "pptx":
        return [slide_runs.pptx_runs(path)]
    if kind == "odp":
        return [slide_runs.odp_runs(path)]
    if kind == "xlsx":
        return [" ".join(checks.xlsx2csv_cells(path, iso).elements()) for iso in (True, False)]
    if kind == "xls":
        return [" ".join(checks.xls2csv_cells(path, iso, shift).elements())
                for iso, shift in ((True, False), (True, True), (False, False))]
    if kind == "mail":
        return [text_formats.email_text(path)[0]]
    if kind == "ods":
        return [" ".join(checks.ods_cells(path).elements())]
    if kind == "pdf":
        done = subprocess.run(["mutool", "draw", "-q", "-F", "txt", "-o", "-", path], capture_output=True,
                              text=True, errors="replace", check=True, timeout=REFERENCE_SECONDS * 2)
        return [checks._reference_page(done.stdout)]
    if kind == "xlsb":  # LibreOffice's ODS of it, read as the ODS rows are
        return [" ".join(checks.xlsb_cells(path).elements())]
    if kind == "dbf":  # dbfread, in the charset the manifest names for tables that name none
        encoding = entry["reference"].partition(":")[2] or None
        return [" ".join(dbf_tables.dbfread_cells(path, encoding).elements())]
    if kind == "hwp":  # the HWPML twin (candidates() keeps only the documents that have one)
        return [hwp_documents._hml_text(os.path.splitext(path)[0] + ".hml")]
    if kind == "csv":
        delimiter = text_formats.DELIMITERS[entry["reference"].partition(":")[0]]
        with open(path, newline="", encoding="utf-8-sig", errors="replace") as f:
            return [" ".join(c for row in csv.reader(f, delimiter=delimiter) for c in row)]
    raise ValueError(kind)


def agreement(kind, words, references):
    """The best agreement of `words` with any of the references, and the reference's first words
    `words` lacks (the corpus's checks.word_agreement)."""
    best = None
    for reference in references:
        value, missing, _ = checks.word_agreement(words, as_compared(reference, kind))
        if best is None or value > best[0]:
            best = (value, missing)
    return best


# ---------------------------------------------------------------- choosing the files

def candidates(formats, fetcher):
    """(kind, package, package root, relative path, manifest entry) of every manifest file of the
    formats, once per path (a file named by several lines, e.g. with pages=, is read whole once)."""
    entries = [e for e in corpus.parse_manifest(os.path.join(HERE, "..", "tests", "corpus", "manifest"))
               if e["kind"] in formats]
    files, roots = {}, {}
    for entry in entries:
        if entry["package"] not in roots:
            try:
                roots[entry["package"]] = fetcher.unpack(entry["package"])
            except RuntimeError as error:
                print(f"kreuzberg: skipped {entry['package']}: {error}", flush=True)
                roots[entry["package"]] = None
        root = roots[entry["package"]]
        if root is None:
            continue
        for relative in corpus.expand(root, entry):
            path = os.path.join(root, relative)
            # As in the corpus, a later line naming a file again says what it is (a glob's
            # Fpdf_*.pdf takes in the encrypted one a later line names); arguments other than
            # pages are the same on every line of a file.
            # Messages named .txt (read with file_type=mail) would be plain text to Kreuzberg,
            # which goes by the name: only .eml files are compared.
            if entry["kind"] == "mail" and not path.endswith(".eml"):
                continue
            # An HWP document's preview (PrvText) is only its start: only those with an HWPML
            # twin, Hancom's export of the whole text, have a reference to agree with.
            if entry["kind"] == "hwp" and not os.path.exists(os.path.splitext(path)[0] + ".hml"):
                continue
            if os.path.isfile(path) and (path not in files or not entry["arguments"].get("pages")):
                files[path] = (entry["kind"], entry["package"], root, relative, entry)
    return [f for f in files.values() if f[4]["reference"] not in NO_TEXT]


def spread(items, n):
    """n of the (words, ...) items, sorted by words, from the smallest to the largest with sizes
    in between evenly spaced on a log scale: many small files of one kind (gofpdf's examples)
    would otherwise take most places."""
    if n is None or len(items) <= n:
        return items
    low, high = math.log(items[0][0]), math.log(items[-1][0])
    left, chosen = list(items), []
    for i in range(n):
        target = high if n == 1 else low + (high - low) * i / (n - 1)
        best = min(left, key=lambda item: abs(math.log(item[0]) - target))
        left.remove(best)
        chosen.append(best)
    return sorted(chosen, key=lambda item: (item[0], item[1][3]))


# ---------------------------------------------------------------- the table

def mib(kib):
    return f"{kib / 1024:.1f}"


def geomean(values):
    return math.exp(statistics.mean(math.log(v) for v in values)) if values else None


def summary(rows, name):
    """One table row over `rows`."""
    ours = [r["mcp_read"] for r in rows if r["mcp_read"]["ok"]]
    theirs = [r["kreuzberg"] for r in rows if r["kreuzberg"]["ok"]]
    both = [r for r in rows if r["mcp_read"]["ok"] and r["kreuzberg"]["ok"]]
    ratios = [r["kreuzberg"]["ms"] / r["mcp_read"]["ms"] for r in both if r["mcp_read"]["ms"] > 0]
    warm = [r["kreuzberg"]["ms"] / r["mcp_read"]["warm_ms"] for r in both if r["mcp_read"].get("warm_ms", 0) > 0]

    def agree(side):
        values = [s["agreement"] for s in side]
        return f"{statistics.mean(values):.3f} ({min(values):.3f})" if values else "—"

    def ms(side):
        return f"{statistics.median(s['ms'] for s in side):.1f}" if side else "—"

    def rss(side):
        values = [s["hwm_kib"] for s in side if s.get("hwm_kib")]
        return f"{mib(statistics.median(values))} ({mib(max(values))})" if values else "—"

    ratio, warm_ratio = geomean(ratios), geomean(warm)
    return (f"| {name} | {len(rows)} | {len(ours)} / {len(theirs)} | {agree(ours)} | {agree(theirs)} | "
            f"{ms(ours)} / {ms(theirs)} | {f'{ratio:.2f}×' if ratio else '—'} | "
            f"{f'{warm_ratio:.2f}×' if warm_ratio else '—'} | {rss(ours)} | {rss(theirs)} |")


def table(rows, formats):
    lines = ["| format | files | read (mcp-read / Kreuzberg) | mcp-read agreement, mean (min) | "
             "Kreuzberg agreement, mean (min) | median ms (mcp-read / Kreuzberg) | time, Kreuzberg ÷ mcp-read "
             "(geometric mean) | the same, mcp-read's libraries loaded | mcp-read peak RSS MiB, median (max) | "
             "Kreuzberg peak RSS MiB, median (max) |",
             "|---|---:|---|---|---|---|---:|---:|---|---|"]
    for kind in formats:
        mine = [r for r in rows if r["format"] == kind]
        if mine:
            lines.append(summary(mine, kind))
    lines.append(summary(rows, "**all**"))
    return "\n".join(lines)


def context(rows):
    """What the table's cells hold besides the work: each side's fixed costs, and the ratio against
    mcp-read's own time for its answers (without the client's decoding and the pipe)."""
    ours = [r["mcp_read"] for r in rows if r["mcp_read"]["ok"]]
    theirs = [r["kreuzberg"] for r in rows if r["kreuzberg"]["ok"]]
    both = [r for r in rows if r["mcp_read"]["ok"] and r["kreuzberg"]["ok"] and r["mcp_read"]["server_ms"] > 0]
    out = []
    if ours:
        out.append(f"- mcp-read: RSS after initialize {mib(statistics.median(s['rss_initialized_kib'] for s in ours))} MiB "
                   f"(median); {sum(s['calls'] for s in ours)} read calls for {len(ours)} files.")
    if theirs:
        out.append(f"- Kreuzberg: RSS of node with the binding loaded, before extracting, "
                   f"{mib(statistics.median(s['rss_loaded_kib'] for s in theirs))} MiB (median); a process's "
                   f"wall time (spawn to exit: node's start, the binding's load, the extraction) "
                   f"{statistics.median(s['wall_ms'] for s in theirs):.0f} ms (median).")
    ratio = geomean([r["kreuzberg"]["ms"] / r["mcp_read"]["server_ms"] for r in both])
    if ratio:
        out.append(f"- Against mcp-read's own time for its answers (its debug log, without the pipe and the "
                   f"client's decoding) the time ratio over all files is {ratio:.2f}×.")
    return out


def notes(rows):
    """What failed or came out empty, on either side."""
    out = []
    for r in rows:
        for side, name in (("mcp_read", "mcp-read"), ("kreuzberg", "Kreuzberg")):
            s = r[side]
            if not s["ok"]:
                out.append(f"- {r['format']} `{r['file']}`: {name} failed: {s['error']}")
            elif s["words"] == 0:
                out.append(f"- {r['format']} `{r['file']}`: {name} read no words "
                           f"(the reference has {r['reference_words']})")
    return out


# ---------------------------------------------------------------- main

def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary", help="the mcp-read binary")
    parser.add_argument("--formats", default=",".join(FORMATS), help="comma-separated (default: all)")
    parser.add_argument("--per-format", type=int, default=6, help="files per format (default 6)")
    parser.add_argument("--all", action="store_true", help="every file of the formats")
    parser.add_argument("--kreuzberg-dir", default=os.path.expanduser(
        f"~/.cache/mcp-read-bench/kreuzberg-{KREUZBERG_VERSION}"), help="where the binding is installed")
    parser.add_argument("--glibc-root", help="a Debian root with glibc >= 2.39 whose loader starts node")
    parser.add_argument("--timeout", type=int, default=300, help="seconds per file and side")
    parser.add_argument("--out", default=os.path.join(HERE, "results"),
                        help="folder for kreuzberg.md and kreuzberg.json (default bench/results)")
    options = parser.parse_args()
    started = time.monotonic()
    formats = [f for f in options.formats.split(",") if f]
    if set(formats) - set(FORMATS):
        raise SystemExit(f"kreuzberg: formats are {', '.join(FORMATS)}")
    binary = os.path.abspath(options.binary)
    if not os.access(binary, os.X_OK):
        raise SystemExit(f"kreuzberg: no mcp-read binary at {binary}")

    binding = binding_path(options.kreuzberg_dir)
    node, how = node_command(options.glibc_root)
    probe = subprocess.run([*node, "-e", f"require({json.dumps(binding)}).extractFileSync"],
                           capture_output=True, text=True)
    if probe.returncode != 0:
        raise SystemExit(f"kreuzberg: the binding does not load ({how}): {probe.stderr.strip()[-500:]}")
    # mcp-read OCRs PDF pages without a text layer by default; Kreuzberg runs with OCR disabled.
    os.environ["MCP_READ_OCR"] = "off"

    fetcher = fetch.Fetcher(lambda message: print(message, flush=True))
    chosen, skipped = [], []
    files = candidates(set(formats), fetcher)
    for kind in formats:
        pool = []
        for item in (c for c in files if c[0] == kind):
            path = os.path.join(item[2], item[3])
            t0 = time.perf_counter()
            try:
                references = reference_texts(kind, path, item[4])
            except (subprocess.SubprocessError, OSError, ValueError) as error:
                skipped.append(f"- {kind} `{item[3]}`: the reference failed: {checks.short(str(error), 200)}")
                continue
            seconds = time.perf_counter() - t0
            words = max(sum(counted(r, kind).values()) for r in references)
            if seconds > REFERENCE_SECONDS:
                skipped.append(f"- {kind} `{item[3]}`: the reference took {seconds:.0f} s")
            elif words >= MIN_WORDS:
                pool.append((words, item, references, seconds))
        pool.sort(key=lambda p: (p[0], p[1][3]))
        chosen += spread(pool, None if options.all else options.per_format)
    print(f"kreuzberg: {len(chosen)} files; Kreuzberg {KREUZBERG_VERSION} through {how}", flush=True)

    rows, warmed = [], set()
    for index, (words, (kind, package, root, relative, entry), references, seconds) in enumerate(chosen):
        path = os.path.join(root, relative)
        arguments = dict(entry["arguments"])
        arguments.pop("pages", None)  # the whole document, every page
        if kind in ("pdf", "docx", "odt"):
            # Text only, as Kreuzberg gives: a PDF's default answer adds the pages as a PDF resource,
            # a document's its pictures. (An RTF or a CSV asked for as text is its source.)
            arguments["file_type"] = "text"
        if kind not in warmed:
            # Not counted: the first read of a format pulls its libraries (mcp-read's plugins,
            # the binding's 89 MB) from disk into the page cache.
            warmed.add(kind)
            mcp_read_whole(binary, root, path, arguments, options.timeout)
            kreuzberg_extract(node, binding, path, options.timeout)
        # The order alternates from file to file, so that load from other work falls on both.
        if index % 2 == 0:
            ours = mcp_read_whole(binary, root, path, arguments, options.timeout)
            theirs = kreuzberg_extract(node, binding, path, options.timeout)
        else:
            theirs = kreuzberg_extract(node, binding, path, options.timeout)
            ours = mcp_read_whole(binary, root, path, arguments, options.timeout)
        # A second server reads another file of the format first: the time of a server that has
        # its libraries loaded (the peak RSS and the words are the fresh server's).
        others = [c for c in chosen if c[1][0] == kind and c[1][3] != relative]
        if ours["ok"] and others:
            other = os.path.join(others[0][1][2], others[0][1][3])
            warm = mcp_read_whole(binary, root if other.startswith(root + os.sep) else "/", path, arguments,
                                  options.timeout, warmup=other)
            if warm["ok"]:
                ours["warm_ms"], ours["warm_server_ms"] = warm["ms"], warm["server_ms"]
        if ours["ok"]:
            got = mcp_read_words(kind, ours.pop("chunks"))
            ours["words"] = sum(got.values())
            ours["agreement"], ours["missing"] = agreement(kind, got, references)
        ours.pop("chunks", None)
        if theirs["ok"]:
            got = kreuzberg_words(kind, theirs.pop("content"))
            theirs["words"] = sum(got.values())
            theirs["agreement"], theirs["missing"] = agreement(kind, got, references)
        row = {"format": kind, "package": package, "file": relative, "reference_words": words,
               "reference_s": round(seconds, 3), "arguments": arguments, "mcp_read": ours, "kreuzberg": theirs}
        rows.append(row)

        def cell(s):
            return (f"{s['agreement']:.3f} {s['ms']:8.1f} ms {mib(s['hwm_kib']):>6} MiB" if s["ok"]
                    else f"FAILED: {checks.short(s['error'], 60)}")
        print(f"{kind:5} {os.path.basename(relative)[:34]:34} {words:7} words | mcp-read {cell(ours)} | "
              f"Kreuzberg {cell(theirs)}", flush=True)

    elapsed = time.monotonic() - started
    report = [f"Kreuzberg {KREUZBERG_VERSION} (`{BINDING_PACKAGE}`, through {how}) beside mcp-read "
              f"`{binary}`; {len(rows)} files; {elapsed:.0f} s in all; load average {os.getloadavg()[0]:.1f}.", "",
              table(rows, formats)]
    report += ["", *context(rows)]
    problems = notes(rows)
    if problems:
        report += ["", "Failed or empty:", *problems]
    if skipped:
        report += ["", "Left out (the reference):", *skipped]
    text = "\n".join(report)
    print("\n" + text)
    os.makedirs(options.out, exist_ok=True)
    with open(os.path.join(options.out, "kreuzberg.md"), "w", encoding="utf-8") as f:
        f.write(text + "\n")
    with open(os.path.join(options.out, "kreuzberg.json"), "w", encoding="utf-8") as f:
        json.dump({"kreuzberg": KREUZBERG_VERSION, "mcp_read": binary, "seconds": round(elapsed, 1),
                   "rows": rows}, f, indent=1, ensure_ascii=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
