"""The corpus checks of compiled HTML help (.chm): mcp-read's listing against Free Pascal's own CHM
reader (`chmls`, fp-utils), which shares no code with CHMLib. With a table of contents, the topics
are those of the .hhc the answer names, extracted by chmls and read by Python's html.parser; without
one, the HTML files chmls lists. The topic counts must agree, and the topics shown must be the
reference's, in order: their agreement is the share of the lines shown that start with the
reference's topic. Adds itself to checks.CHECKS."""

import html.parser
import os
import subprocess
import tempfile

import checks


class _Sitemap(html.parser.HTMLParser):
    """The <OBJECT type="text/sitemap"> entries of a table of contents: (Name, Local)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.entries = []
        self.current = None

    def handle_starttag(self, tag, attrs):
        attrs = {k: (v or "") for k, v in attrs}
        if tag == "object":
            self.current = {} if attrs.get("type", "").lower() == "text/sitemap" else None
        elif tag == "param" and self.current is not None:
            name = attrs.get("name", "").lower()
            if name in ("name", "local") and name not in self.current:
                self.current[name] = attrs.get("value", "")

    def handle_endtag(self, tag):
        if tag == "object" and self.current is not None:
            if self.current.get("name") or self.current.get("local"):
                self.entries.append((self.current.get("name", ""), self.current.get("local", "")))
            self.current = None


def _chmls(*arguments):
    return subprocess.run(["chmls", "-p", "-n", *arguments], capture_output=True, check=True, timeout=300).stdout


def _names(path):
    """The files chmls lists: no folders, no internal #, $ or :: entries."""
    lines = _chmls("list", path).decode("utf-8", "replace").split("\n")
    return [l[1:] for l in lines if l.startswith("/") and len(l) > 1 and not l.endswith("/") and l[1] not in "#$"]


def _decoded(raw):
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("cp1252", "replace")


def _reference(path, contents):
    """The topics' first words as listed: the .hhc's titles (their Local when untitled), else the
    HTML files' names."""
    if not contents:
        return [n for n in _names(path) if n.lower().endswith((".htm", ".html"))]
    with tempfile.TemporaryDirectory() as scratch:
        out = os.path.join(scratch, "toc.hhc")
        _chmls("extract", path, "/" + contents, out)
        with open(out, "rb") as f:
            parser = _Sitemap()
            parser.feed(_decoded(f.read()))
    # An untitled topic is listed by its file's name: the reference keeps the Local's last part.
    return [" ".join(name.split()) or ("/" + local.split("#")[0]).rsplit("/", 1)[1] for name, local in parser.entries]


def check_chm(root, path, result, reference, arguments):
    """reference: the least share of the topics shown that agree with chmls's (see above)."""
    meta = result.get("_meta", {})
    topics, failure = checks._anchor_text(result, lambda: _reference(path, meta.get("contents", "")), "chmls failed")
    if failure:
        return failure
    if meta.get("topics") != len(topics):
        return False, f"{meta.get('topics')} topics, the reference has {len(topics)}"
    lines = "\n".join(checks.texts(result)).split("\n")[1:]
    ours = [l.strip() for l in lines if l and not l.startswith("[")]
    start = meta.get("start_entry", 1) - 1
    theirs = topics[start:start + len(ours)]
    if not ours:
        return len(topics) == 0, f"no topic shown, the reference has {len(topics)}"
    def agree(o, t):
        return o.startswith(t) or (t and o.split("  ")[0].endswith("/" + t))
    agreeing = sum(1 for o, t in zip(ours, theirs) if agree(o, t))
    agreement = agreeing / len(ours)
    if agreement < float(reference):
        wrong = [(o, t) for o, t in zip(ours, theirs) if not agree(o, t)][:3]
        return False, f"topic agreement with chmls {agreement:.3f} < {reference}; first differences: {wrong}"
    return True, f"{len(topics)} topics, {len(ours)} shown, agreement with chmls {agreement:.3f}"


checks.CHECKS.update({"chm": check_chm})
