"""The text runs of a PPTX's or an ODP's slides, read with Python's own zipfile and ElementTree:
the independent reading mcp-read's presentations are compared with (pandoc 2.17 reads neither,
python3-pptx is not in Debian 12; LibreOffice headless is only the converter of legacy .ppt decks
to ODP, ppt_runs). Slides in presentation
order (PPTX: ppt/presentation.xml's sldIdLst through its relationships; ODP: draw:page order), with
their notes; slide furniture (slide number, date, footer placeholders) left out, as mcp-read does.
Used by checks.py (the corpus) and bench/slides-agreement.py, with mcp_read_text for the other side."""
import os
import re
import subprocess
import tempfile
import xml.etree.ElementTree as ET
import zipfile

A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
P = "{http://schemas.openxmlformats.org/presentationml/2006/main}"
R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
PR = "{http://schemas.openxmlformats.org/package/2006/relationships}"
DGM = "{http://schemas.openxmlformats.org/drawingml/2006/diagram}"
TEXT = "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}"
DRAW = "{urn:oasis:names:tc:opendocument:xmlns:drawing:1.0}"
PRES = "{urn:oasis:names:tc:opendocument:xmlns:presentation:1.0}"
OFFICE = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}"
FURNITURE = {"sldNum", "dt", "ftr"}


def rels(z, part):
    folder, name = os.path.split(part)
    path = os.path.join(folder, "_rels", name + ".rels")
    if path not in z.namelist():
        return {}
    out = {}
    for r in ET.fromstring(z.read(path)).iter(PR + "Relationship"):
        out[r.get("Id")] = (r.get("Type", "").rsplit("/", 1)[-1], os.path.normpath(os.path.join(folder, r.get("Target", ""))))
    return out


def paragraphs(node):
    """The a:p under `node`, each its a:t joined as written (a word may be cut across runs: "b",
    "ewusste") and its a:br as spaces."""
    return ["".join(" " if e.tag == A + "br" else (e.text or "") for e in p.iter() if e.tag in (A + "t", A + "br"))
            for p in node.iter(A + "p")]


def pptx_runs(path):
    """Every a:t of every slide in show order (a SmartArt diagram's in its data part), and of its
    notes slide's body, a paragraph's runs joined."""
    z = zipfile.ZipFile(path)
    pres = "ppt/presentation.xml"
    out = []

    def shape_text(root, only_body=False, part_rels=None):
        for sp in root.iter(P + "sp"):
            ph = sp.find(f"{P}nvSpPr/{P}nvPr/{P}ph")
            kind = ph.get("type", "") if ph is not None else ""
            if kind in FURNITURE or (only_body and kind != "body"):
                continue
            out.extend(paragraphs(sp))
        if not only_body:
            for frame in root.iter(P + "graphicFrame"):
                out.extend(paragraphs(frame))
                for ids in frame.iter(DGM + "relIds"):
                    data = (part_rels or {}).get(ids.get(R + "dm"), (None, None))[1]
                    if data in z.namelist():
                        out.extend(paragraphs(ET.fromstring(z.read(data))))

    pres_rels = rels(z, pres)
    for sid in ET.fromstring(z.read(pres)).iter(P + "sldId"):
        slide = pres_rels.get(sid.get(R + "id"), (None, None))[1]
        if slide is None or slide not in z.namelist():
            continue
        slide_rels = rels(z, slide)
        shape_text(ET.fromstring(z.read(slide)), part_rels=slide_rels)
        for kind, target in slide_rels.values():
            if kind == "notesSlide" and target in z.namelist():
                shape_text(ET.fromstring(z.read(target)), only_body=True)
    return " ".join(out)


def paragraph_text(node):
    """A text:p's text, its spaces, tabs and line breaks as spaces."""
    out = [node.text or ""]
    for child in node:
        if child.tag in (TEXT + "s", TEXT + "tab", TEXT + "line-break"):
            out.append(" ")
        else:
            out.append(paragraph_text(child))
        out.append(child.tail or "")
    return "".join(out)


def odp_runs(path):
    """The text of every page's frames and shapes (and notes), furniture frames left out."""
    root = ET.fromstring(zipfile.ZipFile(path).read("content.xml"))
    out = []
    for page in root.iter(DRAW + "page"):
        stack = [page]
        while stack:
            node = stack.pop()
            if node.get(PRES + "class") in ("page-number", "date-time", "footer", "header"):
                continue
            if node.tag in (TEXT + "p", TEXT + "h"):
                out.append(paragraph_text(node))
                continue
            stack.extend(reversed(list(node)))
    return " ".join(out)


def ppt_runs(path):
    """A PowerPoint 97-2003 deck's runs: LibreOffice (headless, a profile of its own so that runs
    in parallel do not share one) converts it to ODP, read as above."""
    with tempfile.TemporaryDirectory(prefix="corpus-ppt-") as scratch:
        subprocess.run(["soffice", f"-env:UserInstallation=file://{scratch}/profile", "--headless", "--convert-to",
                        "odp", "--outdir", scratch, path], capture_output=True, check=True, timeout=300)
        converted = os.path.join(scratch, os.path.splitext(os.path.basename(path))[0] + ".odp")
        if not os.path.exists(converted):
            raise RuntimeError("LibreOffice wrote no ODP")
        return odp_runs(converted)


def mcp_read_text(text, numbering=False):
    """mcp-read's text of a presentation or book without what the references lack: its header,
    markers (a slide's title kept), closing notes, [Image …] markers, bullets. numbering: the
    text is a presentation's, whose readers escape a number typed at a line's start ("1\\. "):
    an unescaped "1. " there is their own numbering (PowerPoint's auto-numbers), not a run's
    text, and goes as the bullets do; the escapes are undone. A book's is not (the HTML reader
    escapes nothing: "1. Introduction" may be a heading's own text)."""
    kept = []
    for line in text.split("\n"):
        slide = re.match(r"\u2500\u2500 Slide \d+ of \d+: (.*?)( \(hidden\))? \u2500\u2500$", line)
        if slide:  # a slide's title is its text (a chapter's, from the table of contents, is not)
            # On its marker line a title is not escaped: its "1. " is its own, as a line's "1\. ".
            kept.append(re.sub(r"^(\d{1,9})([.)])", r"\1\\\2", slide.group(1)) if numbering else slide.group(1))
            continue
        if line.startswith(("PowerPoint presentation ", "PowerPoint 97-2003 presentation ", "OpenDocument presentation ", "EPUB book ",
                            "Title: ", "Author: ", "\u2500\u2500 ", "[Slide", "[Chapter", "[From line ",
                            "[It has no ")):
            continue
        kept.append(line)
    text = "\n".join(kept)
    text = re.sub(r"\[Image \d*[^\]]*\]", " ", text)
    text = text.replace("[Notes: ", " ")
    if numbering:
        text = re.sub(r"^[ \t]*\d{1,9}[.)][ \t]", " ", text, flags=re.M)
    text = re.sub(r"^\s*(#+|-)\s", " ", text, flags=re.M)
    if numbering:
        text = re.sub(r"^([ \t]*\d{1,9})\\([.)])", r"\1\2", text, flags=re.M)
    return text.replace("<br>", " ").replace("| --- ", " ")
