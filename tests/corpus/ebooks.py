"""The corpus checks of MOBI books: mcp-read's chapters against the text of the markup libmobi's
own tool reconstructs (`mobitool -s`), read by Python's html.parser. Adds itself to
checks.CHECKS."""

import collections
import glob
import html.parser
import os
import re
import subprocess
import tempfile

import checks
import slide_runs


class _Text(html.parser.HTMLParser):
    """The text of a page: script, style and head left out."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts, self.skip = [], 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style", "head"):
            self.skip += 1

    def handle_endtag(self, tag):
        if tag in ("script", "style", "head") and self.skip:
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip:
            self.parts.append(data)


def html_words(markup):
    parser = _Text()
    parser.feed(markup)
    parser.close()
    return " ".join(parser.parts)


def mobitool_chapters(path):
    """The book's chapters as mobitool reconstructs its markup: each part file (KF8), cut at its
    page breaks, chapters without words left out."""
    with tempfile.TemporaryDirectory() as out:
        subprocess.run(["mobitool", "-s", "-o", out, path], capture_output=True, check=True, timeout=120)
        parts = sorted(glob.glob(os.path.join(out, "*", "part*.html")) + glob.glob(os.path.join(out, "*", "*", "part*.html")))
        chapters = []
        for part in parts:
            with open(part, encoding="utf-8", errors="replace") as f:
                markup = f.read()
            for piece in re.split(r"<mbp:pagebreak[^>]*>", markup, flags=re.IGNORECASE):
                text = html_words(piece)
                if checks.WORD.search(text) or "<img" in piece.lower():
                    chapters.append(text)
        return chapters


def _selected(ranges, count):
    """The chapter numbers of a shown_chapters value ("1-3,7")."""
    numbers = []
    for item in ranges.split(","):
        first, _, last = item.partition("-")
        numbers += range(int(first), int(last or first) + 1)
    return [n for n in numbers if 1 <= n <= count]


def check_mobi(root, path, result, reference, arguments):
    """reference: the least word agreement with the text of `mobitool -s`'s markup (html.parser),
    over the chapters the answer shows (its shown_chapters); the chapter counts must agree."""
    chapters, failure = checks._anchor_text(result, lambda: mobitool_chapters(path), "mobitool failed")
    if failure:
        return failure
    meta = result.get("_meta", {})
    if meta.get("chapters") != len(chapters):
        return False, f"{meta.get('chapters')} chapters, mobitool's markup has {len(chapters)}"
    shown = _selected(meta.get("shown_chapters", ""), len(chapters))
    theirs = "\n".join(chapters[n - 1] for n in shown)
    text = slide_runs.mcp_read_text("\n".join(checks.texts(result)))
    text = "\n".join(line for line in text.split("\n")
                     if not line.startswith(("MOBI book ", "Kindle (KF8) book ", "Publisher: ")))
    ours = collections.Counter(w.lower() for w in checks.WORD.findall(text))
    agreement, missing, words = checks.word_agreement(ours, theirs)
    if agreement < float(reference):
        return False, f"word agreement with mobitool {agreement:.3f} < {reference}; its words missing: {missing}"
    return True, f"chapters {meta.get('shown_chapters')} of {len(chapters)}, {words} words, agreement with mobitool {agreement:.3f}"


checks.CHECKS.update({"mobi": check_mobi})
