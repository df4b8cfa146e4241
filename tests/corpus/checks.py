"""Per-kind checks of a `read` answer against a reference that does not come from mcp-read.

Each check returns (ok, why). The references: for text, the WHATWG Encoding Standard's decoder
for the label, implemented from the standard in whatwg_decode.py (Python's codecs for labels
outside it, or a UTF-8 copy shipped beside the file), mutool for PDFs, vipsheader for images, the notebook's
own JSON, the file's magic bytes for audio and binaries, pandoc's plain text for DOCX and ODT, unrtf's for RTF, catdoc's for Word 97-2003,
xlsx2csv's cells for XLSX, catdoc's xls2csv's for XLS and the standard library's reading of content.xml for ODS.
"""
import base64
import collections
import csv
import datetime
import io
import json
import os
import re
import subprocess
import tarfile
import tempfile
import zipfile
from xml.etree import ElementTree

import media
import slide_runs
import whatwg_decode

# Labels outside the standard's legacy encodings -> the Python codec for the one decoder they can
# mean: UTF-8, a "utf-16" that may start with a byte-order mark, cp737, cp850, ISO-2022-KR (which
# the standard maps to its replacement decoder) and HZ. The standard's own labels are decoded by
# whatwg_decode.py, as Python's codecs differ from the standard in places.
OUTSIDE_WHATWG = {
    "utf-8": "utf-8-sig", "utf8": "utf-8-sig", "utf-16": "utf-16",
    "cp737": "cp737", "cp850": "cp850", "iso-2022-kr": "iso2022_kr", "hz-gb-2312": "hz",
}

MAX_LINE_CHARS = 2000  # the documented cut of one shown line
MAX_EDGE = 2000  # documented image limits (README: long edge, base64 length)
MAX_BASE64 = 5 * 1024 * 1024
ENCODING_HINT = re.compile(r"\bencoding\s*=|[`\"']encoding[`\"']|\ban encoding\b", re.I)
NUMBERED = re.compile(r"^ *(\d+)\t(.*)$", re.S)
CUT_MARKER = re.compile(r" \u2026 \[[^\]]*\]$")


def texts(result):
    return [c.get("text", "") for c in result.get("content", []) if c.get("type") == "text"]


def blocks(result, kind):
    return [c for c in result.get("content", []) if c.get("type") == kind]


def short(text, n=160):
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "\u2026"


def refusal(result):
    return "refused: " + short(" ".join(texts(result)))


def reference_text(root, path, label):
    """The whole file decoded by the reference, split into lines as `cat -n` counts them."""
    if label.startswith("utf8:"):
        # utf8:<path> names a UTF-8 copy in the package; utf8:self is the file itself (SVG, XML).
        copy = path if label == "utf8:self" else os.path.join(root, label[5:])
        with open(copy, "rb") as f:
            text = f.read().decode("utf-8-sig")
    elif label.lower() in OUTSIDE_WHATWG:
        with open(path, "rb") as f:
            text = f.read().decode(OUTSIDE_WHATWG[label.lower()])
    else:
        with open(path, "rb") as f:
            text = whatwg_decode.decode(label, f.read())
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def check_text(root, path, result, label, arguments):
    try:
        expected = reference_text(root, path, label)
    except (ValueError, OSError) as error:  # UnicodeDecodeError is a ValueError
        return False, f"manifest: reference {label} does not decode the file ({error})"
    if result.get("isError"):
        return False, refusal(result)
    body = texts(result)
    if not body:
        return False, "no text block"
    # The numbered lines, wherever they start: a note may come before them, or in its own block.
    shown = []
    for line in "\n".join(body).split("\n"):
        match = NUMBERED.match(line)
        if not match and not shown:
            continue
        if not match or (shown and int(match.group(1)) != shown[-1][0] + 1):
            break
        shown.append((int(match.group(1)), match.group(2)))
    if not shown:
        return False, "no numbered lines: " + short(body[0])
    first = arguments.get("offset", 1)
    if shown[0][0] != first:
        return False, f"first line shown is {shown[0][0]}, asked for {first}"
    wanted = min(len(expected) - first + 1, arguments.get("limit", 200))
    if len(shown) < wanted:
        return False, f"only {len(shown)} lines shown of the {wanted} expected at least"
    wrong = []
    for number, got in shown:
        if number > len(expected):
            wrong.append((number, got, "<past the end of the file>"))
            continue
        want = expected[number - 1]
        cut = CUT_MARKER.search(got)
        if cut and len(want) > MAX_LINE_CHARS:
            kept = got[: cut.start()]
            if want.startswith(kept) and len(kept) >= MAX_LINE_CHARS // 2:
                continue
        if got != want:
            wrong.append((number, got, want))
    source = "its UTF-8 copy" if label.startswith("utf8:") else label
    if wrong:
        number, got, want = wrong[0]
        at = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
        return False, (f"{len(wrong)} of {len(shown)} lines differ from {source}; line {number} "
                       f"col {at + 1}: got {got[max(0, at - 8):at + 12]!r}, "
                       f"want {want[max(0, at - 8):at + 12]!r}")
    return True, f"{len(shown)} lines equal {source}"


def _mutool(*args):
    return subprocess.run(["mutool", *args], capture_output=True, text=True, errors="replace",
                          check=False)


def _non_blank(text):
    return collections.Counter(c for c in text if not c.isspace())


def _reference_page(text):
    """mutool's page text without consecutive repeats of a line: titles drawn several times over
    themselves for a shadow come out once per drawing, where a reader sees (and poppler keeps) one."""
    lines = []
    for line in text.split("\n"):
        if not (lines and line.strip() and line == lines[-1]):
            lines.append(line)
    return "\n".join(lines)


# A page marker; an OCR'd page's carries what the OCR was ("[OCR, eng, mean confidence 95%]").
PAGE_MARKER = re.compile(r"^── Page (\d+) of (\d+) ──(?: \[[^\]\n]*\])?$", re.M)


def check_pdf(root, path, result, reference, arguments):
    if reference == "encrypted":
        message = " ".join(texts(result))
        if not result.get("isError"):
            return False, "a password-protected PDF was not refused: " + short(message)
        if not re.search(r"password|encrypt", message, re.I) or ENCODING_HINT.search(message):
            return False, "refusal does not say it needs a password: " + short(message)
        return True, "refused, needs a password: " + short(message, 80)
    info = _mutool("info", path)
    match = re.search(r"^Pages: (\d+)", info.stdout, re.M)
    if not match:
        return False, f"manifest: mutool info failed: {short(info.stderr)}"
    pages = int(match.group(1))
    if result.get("isError"):
        return False, refusal(result)
    text = "\n".join(texts(result))
    markers = list(PAGE_MARKER.finditer(text))
    if not markers:
        return False, "no page markers: " + short(text)
    counts = {int(m.group(2)) for m in markers}
    if counts != {pages}:
        return False, f"page count {sorted(counts)}, mutool says {pages}"
    sections = {}
    ocr_pages = set()  # pages whose text was read from their pixels: the marker says so
    for i, m in enumerate(markers):
        end = markers[i + 1].start() if i + 1 < len(markers) else len(text)
        sections[int(m.group(1))] = text[m.end():end]
        if m.group(0).endswith("]") and "[OCR" in m.group(0):
            ocr_pages.add(int(m.group(1)))
    shown = sorted(sections)
    if reference == "photo":
        # Every page shown is a photograph: said to be one, never OCR'd, no text made up.
        for page in shown:
            said = sections[page].strip()
            if page in ocr_pages or not said.startswith(f"[Page {page} looks like a photograph or shading"):
                return False, f"page {page} is a photograph, not said to be one (or OCR'd): {short(said)}"
        return True, f"{pages} page(s), each said to be a photograph, none OCR'd"
    if reference.startswith("blank:"):
        # These pages draw nothing: said to be blank from their content alone, without OCR.
        for page in map(int, reference[len("blank:"):].split(",")):
            if page not in sections:
                return False, f"manifest: blank page {page} is not among the pages read"
            if page in ocr_pages or sections[page].strip() != f"[Page {page} is blank.]":
                return False, f"page {page} draws nothing, yet: {short(sections[page])}"
    if reference == "over-300" and pages <= 300:
        return False, f"manifest: {pages} pages, not over 300"
    if reference == "form" and "/Fields" not in _mutool("show", path, "trailer/Root/AcroForm").stdout:
        return False, "manifest: no AcroForm fields"
    worst = None
    image_only = 0
    total_ref = total_got = 0
    with tempfile.TemporaryDirectory() as work:
        out = os.path.join(work, "p%d.txt")
        done = _mutool("draw", "-q", "-F", "txt", "-o", out, path, ",".join(map(str, shown)))
        if done.returncode != 0:
            return False, f"manifest: mutool draw failed: {short(done.stderr)}"
        for page in shown:
            with open(out.replace("%d", str(page)), encoding="utf-8", errors="replace") as f:
                want = _non_blank(_reference_page(f.read()))
            got = _non_blank(sections[page])
            need = sum(want.values())
            have = sum(min(n, got[c]) for c, n in want.items())
            total_ref += need
            total_got += have
            if need == 0:
                images = _mutool("info", "-I", path, str(page)).stdout
                if re.search(r"Images \(([1-9]\d*)\)", images):
                    image_only += 1
                    if page not in ocr_pages and ("file_type" not in sections[page] or "image" not in sections[page]):
                        return False, (f"page {page} is image-only and its section says nothing of "
                                       f"file_type=\"image\": {short(sections[page])}")
                continue
            ratio = have / need
            if need >= 20 and (worst is None or ratio < worst[0]):
                worst = (ratio, page, have, need)
    if reference == "image-only" and image_only == 0:
        return False, "manifest: no image-only page among those shown"
    if worst and worst[0] < 0.9:
        ratio, page, have, need = worst
        return False, (f"page {page}: {have} of mutool's {need} non-blank characters "
                       f"({ratio:.0%}); pages {shown[0]}-{shown[-1]} overall "
                       f"{total_got}/{total_ref}")
    if total_ref and total_got / total_ref < 0.9:
        return False, f"{total_got} of mutool's {total_ref} non-blank characters"
    note = f", {image_only} image-only page(s) with the note" if image_only else ""
    return True, (f"{pages} pages; pages {shown[0]}-{shown[-1]} hold {total_got}/{total_ref} "
                  f"of mutool's characters{note}")


def jbig2_first_page(path):
    """The first page of a JBIG2 file as jbig2dec's own CLI writes it (binary PBM): the
    reference for the image mcp-read sends of it, pixel for pixel."""
    with tempfile.TemporaryDirectory() as work:
        out = os.path.join(work, "pages.pbm")
        done = subprocess.run(["jbig2dec", "-t", "pbm", "-o", out, path], capture_output=True, check=False)
        if not os.path.exists(out):
            return None
        data = open(out, "rb").read()
    match = re.match(rb"P4\n(\d+) (\d+)\n", data)
    if not match:
        return None
    width, height = int(match.group(1)), int(match.group(2))
    return width, height, data[:match.end() + (width + 7) // 8 * height]


def same_pixels(first, second):
    """True when libvips reads the same grey samples from both images (PBM, PNG)."""
    with tempfile.TemporaryDirectory() as work:
        csvs = []
        for i, data in enumerate((first, second)):
            image, csv = os.path.join(work, f"{i}.img"), os.path.join(work, f"{i}.csv")
            open(image, "wb").write(data)
            if subprocess.run(["vips", "csvsave", image, csv], capture_output=True, check=False).returncode != 0:
                return False
            csvs.append(open(csv).read())
        return csvs[0] == csvs[1]


def check_jbig2(path, result):
    page = jbig2_first_page(path)
    sent = blocks(result, "image")
    if page is None:
        if sent:
            return False, "jbig2dec decodes no page, yet an image was sent"
        return True, "jbig2dec decodes no page either; refused: " + short(" ".join(texts(result)), 80)
    width, height, pbm = page
    if result.get("isError") or not sent:
        return False, f"jbig2dec decodes {width}x{height}; " + short(" ".join(texts(result)))
    raw = base64.b64decode(sent[0].get("data", ""))
    size = media.image_size(raw)
    if size is None or size[1:] != (width, height):
        return False, f"jbig2dec decodes {width}x{height}; sent {size}"
    if not same_pixels(pbm, raw):
        return False, f"the sent {width}x{height} image differs from jbig2dec's first page"
    return True, f"{width}x{height}, the same pixels as jbig2dec's first page"


def check_image(root, path, result, reference, arguments):
    if reference == "jbig2":
        return check_jbig2(path, result)
    header = {}
    for field in ("width", "height"):
        done = subprocess.run(["vipsheader", "-f", field, path], capture_output=True, text=True,
                              check=False)
        if done.returncode == 0 and done.stdout.strip().isdigit():
            header[field] = int(done.stdout)
    sent = blocks(result, "image")
    if len(header) < 2:
        # libvips cannot load it either: then a refusal that says what the file is, no charset hint.
        if sent:
            return False, "vipsheader cannot load it, yet an image was sent"
        message = " ".join(texts(result))
        if ENCODING_HINT.search(message):
            return False, "refusal of an image vipsheader cannot load suggests encoding: " + short(message)
        return True, "vipsheader cannot load it either; refused: " + short(message, 80)
    width, height = header["width"], header["height"]
    if reference == "photo":
        # Read with file_type="text": a photograph is said to be one, and no OCR text is shown.
        message = " ".join(texts(result))
        if result.get("isError") or sent:
            return False, "read as text, a photograph must get a text answer: " + short(message)
        if "looks like a photograph or shading" not in message or "read with OCR" in message:
            return False, "a photograph read as text is not said to be one: " + short(message)
        return True, f"vipsheader reads {width}x{height}; said to be a photograph, no OCR text"
    if not sent and reference == "text-ok" and not result.get("isError"):
        return True, f"vipsheader reads {width}x{height}; shown as its source text"
    if result.get("isError") or not sent:
        how = refusal(result) if result.get("isError") else "no image, " + short(" ".join(texts(result)))
        return False, f"vipsheader reads {width}x{height}; {how}"
    image = sent[0]
    data = image.get("data", "")
    if len(data) > MAX_BASE64:
        return False, f"base64 of {len(data)} bytes over {MAX_BASE64}"
    try:
        raw = base64.b64decode(data, validate=True)
    except ValueError as error:
        return False, f"image data is not base64: {error}"
    size = media.image_size(raw)
    if size is None:
        return False, f"sent image ({image.get('mimeType')}) has no PNG/JPEG/GIF/WebP header"
    mime, w, h = size
    if mime != image.get("mimeType"):
        return False, f"mimeType {image.get('mimeType')} but the data is {mime}"
    if max(w, h) > MAX_EDGE:
        return False, f"sent {w}x{h}, long edge over {MAX_EDGE}"
    if abs(h - w * height / width) > 1.0001 and abs(w - h * width / height) > 1.0001:
        return False, f"sent {w}x{h} does not keep the aspect of {width}x{height}"
    return True, f"{width}x{height} sent as {mime} {w}x{h}"


def notebook_cells(notebook):
    if "worksheets" in notebook:  # nbformat 2 and 3
        cells = [c for sheet in notebook.get("worksheets") or [] for c in sheet.get("cells", [])]
    else:
        cells = notebook.get("cells", [])
    out = []
    for cell in cells:
        kind = cell.get("cell_type", "")
        source = cell.get("source", cell.get("input", ""))
        if isinstance(source, list):
            source = "".join(source)
        out.append(("markdown" if kind == "heading" else kind, source))
    return out


CELL_MARKER = re.compile(r"^── Cell (\d+) · (\w+)", re.M)


def check_notebook(root, path, result, reference, arguments):
    try:
        with open(path, encoding="utf-8") as f:
            notebook = json.load(f)
        cells = notebook_cells(notebook)
    except (OSError, ValueError) as error:
        return False, f"manifest: not a JSON notebook ({error})"
    version = notebook.get("nbformat")
    if result.get("isError"):
        return False, f"nbformat {version}, {len(cells)} cells; " + refusal(result)
    text = "\n".join(texts(result))
    if not re.search(rf"\b{len(cells)} cells?\b", text):
        return False, f"the answer never states {len(cells)} cells: " + short(text)
    markers = list(CELL_MARKER.finditer(text))
    numbers = [int(m.group(1)) for m in markers]
    if numbers != list(range(1, len(numbers) + 1)) or not numbers and cells:
        return False, f"cell markers {numbers[:8]}... are not 1, 2, 3, ..."
    if len(numbers) < len(cells) and "offset" not in text[markers[-1].end():]:
        return False, f"{len(numbers)} of {len(cells)} cells shown and no offset to go on"
    for i, m in enumerate(markers):
        kind, source = cells[i]
        if m.group(2) != kind:
            return False, f"cell {i + 1} shown as {m.group(2)}, the JSON says {kind}"
        end = markers[i + 1].start() if i + 1 < len(markers) else len(text)
        first = next((line.strip() for line in source.split("\n") if line.strip()), "")
        if kind == "code" and first and first not in text[m.end():end]:
            return False, f"cell {i + 1}: first source line {first[:60]!r} missing"
    return True, f"nbformat {version}: {len(numbers)} of {len(cells)} cells, code lines found"


def check_audio(root, path, result, reference, arguments):
    with open(path, "rb") as f:
        head = f.read(64)
    fmt = media.audio_format(head)
    if fmt is None:
        return False, "manifest: no audio signature"
    name, mimes = fmt
    sent = blocks(result, "audio")
    if sent:
        mime = sent[0].get("mimeType")
        if mime not in mimes:
            return False, f"{name} sent as {mime}, expected one of {', '.join(sorted(mimes))}"
        try:
            raw = base64.b64decode(sent[0].get("data", ""), validate=True)
        except ValueError as error:
            return False, f"audio data is not base64: {error}"
        got = media.audio_format(raw[:64])
        if got is None or got[0] != name:
            return False, f"{name} sent as {mime} but the data is {got[0] if got else 'unknown'}"
        return True, f"{name} sent as {mime}, {len(raw)} bytes"
    message = " ".join(texts(result))
    if not result.get("isError"):
        return False, f"{name}: neither an audio block nor a refusal: " + short(message)
    if ENCODING_HINT.search(message):
        return False, f"{name} refused with an encoding hint: " + short(message)
    if not re.search(rf"{name}|audio", message, re.I):
        return False, f"{name} refused without naming the format: " + short(message)
    return True, f"{name} refused, naming it: " + short(message, 80)


def check_binary(root, path, result, reference, arguments):
    message = " ".join(texts(result))
    if blocks(result, "image") or blocks(result, "audio") or not result.get("isError"):
        return False, "not refused: " + short(message)
    pattern = reference.replace("_", " ")
    if not re.search(pattern, message, re.I):
        return False, f"refusal does not name the type /{pattern}/: " + short(message)
    if ENCODING_HINT.search(message):
        return False, "refusal suggests encoding: " + short(message)
    return True, "refused as " + short(message, 80)


def _archive_names(path):
    """The members' names as Python's zipfile or tarfile lists them ("./" and a trailing "/"
    dropped, as mcp-read lists them); None when neither opens the file."""
    def normal(name):
        parts = [p for p in name.split("/") if p not in ("", ".")]
        return ("/" if name.startswith("/") else "") + "/".join(parts)
    try:
        if zipfile.is_zipfile(path):
            with zipfile.ZipFile(path) as z:
                return [normal(i.filename) for i in z.infolist()]
        with tarfile.open(path) as t:
            # Names not in UTF-8 (tarfile keeps their bytes as surrogates) are windows-1252, as
            # mcp-read reads names stored in no Unicode form.
            def legacy(n):
                if not any("\udc80" <= c <= "\udcff" for c in n):
                    return n
                return n.encode("utf-8", "surrogateescape").decode("cp1252", "replace")
            return [normal(legacy(m.name)) for m in t.getmembers()]
    except (OSError, zipfile.BadZipFile, tarfile.TarError, EOFError):
        return None


ARCHIVE_HEAD = re.compile(r"^Archive .*?: (\d+) entr(?:y|ies) \(")


def check_archive(root, path, result, reference, arguments):
    """The listing against Python's zipfile or tarfile: the entry count, and each name shown (the
    part before the size or the link) one of the archive's members."""
    names = _archive_names(path)
    if result.get("isError"):
        if names is None:
            return True, "refused, and Python's readers cannot open it either: " + refusal(result)
        return False, f"{len(names)} members in Python's reading; " + refusal(result)
    if names is None:
        return False, "listed, but Python's zipfile and tarfile cannot open it"
    text = "\n".join(texts(result))
    lines = text.split("\n")
    head = ARCHIVE_HEAD.match(lines[0])
    if not head:
        return False, "no archive header: " + short(text)
    if int(head.group(1)) != len(names):
        return False, f"{head.group(1)} entries listed, Python lists {len(names)}"
    shown = [l for l in lines[1:] if l and not l.startswith("[")]
    wanted = set(names)
    for line in shown:
        name = re.split(r"  | -> | => ", line, maxsplit=1)[0].rstrip("/")
        if name not in wanted:
            return False, f"{name!r} is no member in Python's reading"
    if "To read a member" not in text:
        return False, "the listing does not say how to read a member"
    return True, f"{len(names)} entries, {len(shown)} names shown, all members"


WORD = re.compile(r"\w+")


def _office_words(text):
    """mcp-read's document text as words, without what pandoc's plain text lacks: the header,
    the closing note, link targets, note markers, image and comment markers, list bullets."""
    lines = text.split("\n")
    if lines and lines[0].startswith(("Word document ", "OpenDocument text ", "RTF document ", "FictionBook e-book ", "HWP document ")):
        lines = lines[1:]
    text = "\n".join(l for l in lines if not l.startswith(("[Paragraphs ", "[The document has no text")))
    text = re.sub(r"\]\([^)\s]*\)", "]", text)
    text = re.sub(r"\[(Image|Linked image) \d*[^\]]*\]", " ", text)
    text = re.sub(r"\[an? [A-Z]* ?picture, not shown\]", " ", text)
    text = re.sub(r"\[Comment[^\]]*\]", " ", text)
    text = re.sub(r"\[\d+ pictures? (is|are) not shown[^\]]*\]", " ", text)
    text = re.sub(r"\[\^\d+\]:?", " ", text)
    text = re.sub(r"^\s*(#+|-)\s", " ", text, flags=re.M)
    return collections.Counter(w.lower() for w in WORD.findall(text.replace("<br>", " ")))


def _pandoc_plain(path):
    return subprocess.run(["pandoc", "-t", "plain", "--wrap=none", path], capture_output=True,
                          text=True, check=True, timeout=120).stdout


def _anchor_text(result, make, failed):
    """The anchor's text for a read answer: (text, None), or (None, failure) when the answer is an
    error or the anchor fails (`failed` names how: "pandoc failed")."""
    if result.get("isError"):
        return None, (False, refusal(result))
    try:
        return make(), None
    except Exception as error:  # noqa: BLE001 - the anchor itself failing is the finding
        return None, (False, f"{failed}: {error}")


def word_agreement(ours, theirs_text):
    """2|A∩B| / (|A|+|B|) of the words of `ours` (a Counter) and of `theirs_text`, lower-cased; and
    the first of theirs that ours lacks. bench/kreuzberg.py measures with it too."""
    theirs = collections.Counter(w.lower() for w in WORD.findall(theirs_text))
    total = sum(ours.values()) + sum(theirs.values())
    agreement = 1.0 if total == 0 else 2 * sum((ours & theirs).values()) / total
    return agreement, list((theirs - ours).elements())[:8], sum(theirs.values())


def _word_agreement(ours, theirs_text, reference, anchor, result, way_on):
    """word_agreement() at least `reference`; a document whose answer names a way on (_meta
    `way_on`) did not fit one answer."""
    if result.get("_meta", {}).get(way_on):
        return False, "the document does not fit one answer; the check compares whole documents"
    agreement, missing, theirs_words = word_agreement(ours, theirs_text)
    if agreement < float(reference):
        return False, f"word agreement with {anchor} {agreement:.3f} < {reference}; {anchor}'s words missing: {missing}"
    return True, f"{theirs_words} words, agreement with {anchor} {agreement:.3f}"


def _slide_words(result, presentation=False):
    """The words of a presentation's or a book's answer (slide_runs.mcp_read_text); a
    presentation's numbering is markup, a book's list numbers are text as pandoc's."""
    text = slide_runs.mcp_read_text("\n".join(texts(result)), numbering=presentation)
    return collections.Counter(w.lower() for w in WORD.findall(text))


def check_office(root, path, result, reference, arguments):
    """reference: the least word agreement with `pandoc -t plain` (2|A∩B| / (|A|+|B|))."""
    plain, failure = _anchor_text(result, lambda: _pandoc_plain(path), "pandoc failed")
    if failure:
        return failure
    ours = _office_words("\n".join(texts(result)))
    return _word_agreement(ours, plain, reference, "pandoc", result, "next_offset")


def _unrtf_text(path):
    """`unrtf --text` without its own lines: the "###" comments and the rule under them. unrtf
    writes an 8-bit document's text in its own code page (Windows-1252 for la_dame.rtf)."""
    raw = subprocess.run(["unrtf", "--text", path], capture_output=True, check=True, timeout=120).stdout
    try:
        out = raw.decode("utf-8")
    except UnicodeDecodeError:
        out = raw.decode("cp1252", errors="replace")
    return "\n".join(l for l in out.split("\n") if not l.startswith(("###", "-----------------")))


def check_rtf(root, path, result, reference, arguments):
    """reference: the least word agreement with `unrtf --text` (2|A∩B| / (|A|+|B|)). pandoc 2.17
    reads RTF too, but drops the text after a table cxref's files end with \\intbl0, and takes
    minutes over the larger ones."""
    plain, failure = _anchor_text(result, lambda: _unrtf_text(path), "unrtf failed")
    if failure:
        return failure
    ours = _office_words("\n".join(texts(result)))
    return _word_agreement(ours, plain, reference, "unrtf", result, "next_offset")


def _catdoc_text(path):
    """`catdoc -w -d utf-8`: the document's text, paragraphs unwrapped, in UTF-8."""
    return subprocess.run(["catdoc", "-w", "-d", "utf-8", path], capture_output=True, text=True,
                          check=True, timeout=120).stdout


def check_doc(root, path, result, reference, arguments):
    """reference: the least word agreement with `catdoc -w -d utf-8` (2|A∩B| / (|A|+|B|)); pandoc
    does not read Word 97-2003 documents."""
    plain, failure = _anchor_text(result, lambda: _catdoc_text(path), "catdoc failed")
    if failure:
        return failure
    ours = _office_words("\n".join(texts(result)))
    return _word_agreement(ours, plain, reference, "catdoc", result, "next_offset")


# The importer's own command-line converter, by extension: the Document Liberation Project's
# tools (libwpd-tools, libstaroffice-tools, libetonyek-tools).
WORDPROC_TOOLS = {".wpd": ["wpd2text"], ".sdw": ["sd2text"], ".pages": ["pages2text"]}


def _wordproc_text(path):
    tool = WORDPROC_TOOLS[os.path.splitext(path)[1].lower()]
    return subprocess.run(tool + [path], capture_output=True, text=True, check=True, timeout=120).stdout


def check_wordproc(root, path, result, reference, arguments):
    """reference: the least word agreement with the importer's own text converter (wpd2text,
    sd2text, pages2text), which reads the same library's callbacks: a check of what this reader
    keeps and drops of them (headers, footers and comments are dropped; the tools keep some)."""
    plain, failure = _anchor_text(result, lambda: _wordproc_text(path), "the importer's tool failed")
    if failure:
        return failure
    text = "\n".join(texts(result)).split("\n", 1)[-1]  # without the header naming the format
    return _word_agreement(_office_words(text), plain, reference, "the importer's tool", result, "next_offset")


# The importers' own text converters for the decks: libvisio-tools, libmspub-tools (its XHTML, read
# as text), libetonyek-tools.
DECK_TOOLS = {".vsd": ["vsd2text"], ".vsdx": ["vsd2text"], ".vdx": ["vsd2text"], ".key": ["key2text"]}


def _deck_text(path):
    tool = DECK_TOOLS[os.path.splitext(path)[1].lower()]
    return subprocess.run(tool + [path], capture_output=True, text=True, errors="replace", check=True,
                          timeout=120).stdout


def check_deck(root, path, result, reference, arguments):
    """reference: the least word agreement with the importer's own text converter (vsd2text,
    key2text), which reads the same library's callbacks: a check of what this reader keeps of
    them (pages' and slides' text; page names, markers and notes left out of the comparison)."""
    plain, failure = _anchor_text(result, lambda: _deck_text(path), "the importer's tool failed")
    if failure:
        return failure
    lines = "\n".join(texts(result)).split("\n")[1:]  # without the header naming the format
    ours = "\n".join(l for l in lines if not l.startswith(("\u2500\u2500 ", "[Page", "[Slide", "[Image ", "[Notes: ")))
    words = collections.Counter(w.lower() for w in WORD.findall(ours))
    return _word_agreement(words, plain, reference, "the importer's tool", result, "next_pages")


def _djvutxt_text(path, pages):
    """`djvutxt --page=N` of each page shown: the hidden text layer as djvulibre prints it (bytes
    that are not UTF-8, which some layers hold, as U+FFFD, as mcp-read gives them)."""
    return "\n".join(subprocess.run(["djvutxt", f"--page={p}", path], capture_output=True, check=True,
                                    timeout=120).stdout.decode("utf-8", "replace") for p in pages)


def check_djvu(root, path, result, reference, arguments):
    """reference: the least word agreement with `djvutxt` (2|A∩B| / (|A|+|B|)) over the pages the
    answer shows (_meta selected), without its header, page markers and notes."""
    pages = result.get("_meta", {}).get("selected", [])
    plain, failure = _anchor_text(result, lambda: _djvutxt_text(path, pages), "djvutxt failed")
    if failure:
        return failure
    lines = "\n".join(texts(result)).split("\n")[1:]
    ours = "\n".join(l for l in lines if not l.startswith(("\u2500\u2500 Page ", "[")))
    agreement, missing, theirs_words = word_agreement(collections.Counter(w.lower() for w in WORD.findall(ours)), plain)
    if agreement < float(reference):
        return False, f"word agreement with djvutxt {agreement:.3f} < {reference}; djvutxt's words missing: {missing}"
    return True, f"{len(pages)} pages, {theirs_words} words, agreement with djvutxt {agreement:.3f}"


def check_epub(root, path, result, reference, arguments):
    """reference: the least word agreement with `pandoc -t plain` (2|A∩B| / (|A|+|B|))."""
    plain, failure = _anchor_text(result, lambda: _pandoc_plain(path), "pandoc failed")
    if failure:
        return failure
    return _word_agreement(_slide_words(result), plain, reference, "pandoc", result, "next_pages")


def check_slides(root, path, result, reference, arguments):
    """reference: the least word agreement with the slides' text runs (slide_runs.py; a .ppt's
    through LibreOffice's ODP of it)."""
    kind = result.get("_meta", {}).get("kind")
    read = (slide_runs.ppt_runs if kind == "ppt" or path.endswith((".ppt", ".pps", ".pot"))
            else slide_runs.odp_runs if kind == "odp" or path.endswith((".odp", ".otp")) else slide_runs.pptx_runs)
    runs, failure = _anchor_text(result, lambda: read(path), "the text runs cannot be read")
    if failure:
        return failure
    return _word_agreement(_slide_words(result, presentation=True), runs, reference, "the text runs", result, "next_pages")


def _cell_value(value):
    """A cell as compared: whitespace collapsed (mcp-read shows a tab as a space and a line break
    as <br>), numbers at 10 significant digits."""
    value = " ".join(value.split())
    try:
        return "%.10g" % float(value)
    except ValueError:
        return value


def sheet_cells(text):
    """The non-empty cells of mcp-read's Markdown tables, the row-number column left out."""
    cells = collections.Counter()
    for line in text.split("\n"):
        if not line.startswith("| ") or line.startswith(("| Row |", "| ---:")):
            continue
        for cell in re.split(r"(?<!\\) \| ", line[2:-2])[1:]:
            cell = cell.replace("\\|", "|").replace("<br>", "\n").strip()
            if cell:
                cells[_cell_value(cell)] += 1
    return cells


def xlsx2csv_cells(path, iso_dates):
    """xlsx2csv's cells of every sheet (with ISO dates, or with its own date formats)."""
    out = subprocess.run(["xlsx2csv", "-a", *(["-f", "%Y-%m-%d"] if iso_dates else []), path],
                         capture_output=True, text=True, check=True, timeout=120).stdout
    cells = collections.Counter()
    for row in csv.reader(io.StringIO(out)):
        if len(row) == 1 and row[0].startswith("-------- "):
            continue
        cells.update(_cell_value(c) for c in row if c.strip())
    return cells


def xls2csv_cells(path, iso_dates, shift_1904=False):
    """catdoc's xls2csv cells of every sheet (sheets end with a form feed; with ISO dates, or with
    its own date format). xls2csv 0.95 counts every workbook's dates from 1904: `shift_1904` moves
    its ISO dates back by the 1,462 days between the epochs, for workbooks counting from 1900.
    xls2csv shows a formula's stored result, which libfreexl does not read: the agreement asked
    of a workbook with formulas is lower."""
    out = subprocess.run(["xls2csv", "-d", "utf-8", *(["-f", "%Y-%m-%d"] if iso_dates else []), path],
                         capture_output=True, text=True, errors="replace", check=True, timeout=120).stdout
    def shifted(value):
        if shift_1904 and re.fullmatch(r"\d{4}-\d\d-\d\d", value):
            day = datetime.date.fromisoformat(value) - datetime.timedelta(days=1462)
            return day.isoformat()
        return value
    cells = collections.Counter()
    for sheet in out.split("\f"):
        for row in csv.reader(io.StringIO(sheet)):
            cells.update(_cell_value(shifted(c)) for c in row if c.strip())
    return cells


def ods_cells(path, iso_dates=False):
    """An ODS's cells read with the standard library: each cell's text:p paragraphs (its typed
    value when it has none), repeated columns and rows counted as often as they repeat;
    `iso_dates`: a date cell (a day, no time) as its ISO date-value."""
    ns = {"table": "urn:oasis:names:tc:opendocument:xmlns:table:1.0",
          "text": "urn:oasis:names:tc:opendocument:xmlns:text:1.0",
          "office": "urn:oasis:names:tc:opendocument:xmlns:office:1.0"}
    attr = lambda e, k, name: e.get("{%s}%s" % (ns[k], name))  # noqa: E731
    with zipfile.ZipFile(path) as z:
        root = ElementTree.fromstring(z.read("content.xml"))
    cells = collections.Counter()
    for row in root.iter("{%s}table-row" % ns["table"]):
        rows = int(attr(row, "table", "number-rows-repeated") or 1)
        for cell in row:
            paragraphs = cell.findall("text:p", ns)
            value = "\n".join("".join(p.itertext()) for p in paragraphs) if paragraphs else \
                (attr(cell, "office", "value") or "")
            day = attr(cell, "office", "date-value") or ""
            if iso_dates and re.fullmatch(r"\d{4}-\d\d-\d\d(T00:00:00)?", day):
                value = day[:10]
            if value.strip():
                cells[_cell_value(value)] += rows * int(attr(cell, "table", "number-columns-repeated") or 1)
    return cells


def xlsb_cells(path):
    """An XLSB's cells as LibreOffice (headless, a profile of its own) converts it to ODS, read as
    ods_cells reads an ODS: what its cells show, every sheet, days as ISO dates (as this reader
    shows Excel's locale-dependent short date)."""
    with tempfile.TemporaryDirectory(prefix="corpus-xlsb-") as scratch:
        subprocess.run(["soffice", f"-env:UserInstallation=file://{scratch}/profile", "--headless", "--convert-to",
                        "ods", "--outdir", scratch, path], capture_output=True, check=True, timeout=300)
        converted = os.path.join(scratch, os.path.splitext(os.path.basename(path))[0] + ".ods")
        if not os.path.exists(converted):
            raise RuntimeError("LibreOffice wrote no ODS")
        return ods_cells(converted, iso_dates=True)


def check_sheet(root, path, result, reference, arguments):
    """reference: the least value agreement with xlsx2csv (XLSX; the better of ISO dates and its
    own date formats, dates differing in form only), with catdoc's xls2csv (XLS, the same) or with
    the standard library's reading of content.xml (ODS; XLSB: of the ODS LibreOffice converts it to)."""
    if result.get("isError"):
        return False, refusal(result)
    text = "\n".join(texts(result))
    if result.get("_meta", {}).get("next_offset") or "call read again" in text:
        return False, "the workbook does not fit one answer; the check compares whole workbooks"
    ours = sheet_cells(text)
    try:
        refs = [ods_cells(path)] if path.endswith(".ods") else [xlsb_cells(path)] if path.endswith(".xlsb") else \
            [xls2csv_cells(path, True), xls2csv_cells(path, True, True), xls2csv_cells(path, False)] \
            if path.endswith((".xls", ".xlt", ".xla")) else \
            [xlsx2csv_cells(path, True), xlsx2csv_cells(path, False)]
    except (OSError, RuntimeError, subprocess.SubprocessError, zipfile.BadZipFile, ElementTree.ParseError) as error:
        return False, f"reference failed: {error}"
    def agree(theirs):
        total = sum(ours.values()) + sum(theirs.values())
        return 1.0 if total == 0 else 2 * sum((ours & theirs).values()) / total
    theirs = max(refs, key=agree)
    if agree(theirs) < float(reference):
        missing = list((theirs - ours).elements())[:8]
        return False, f"value agreement {agree(theirs):.3f} < {reference}; cells missing: {missing}"
    return True, f"{sum(theirs.values())} cells, value agreement {agree(theirs):.3f}"


def importer_csv_cells(path):
    """The cells the importer's own converter writes as CSV (numbers2csv for Numbers, wks2csv for
    Lotus, Works and Quattro Pro), its "Col1,Col2,..." header line left out; numbers as written."""
    tool = ["numbers2csv"] if path.lower().endswith(".numbers") else ["wks2csv"]
    out = subprocess.run(tool + [path], capture_output=True, text=True, errors="replace", check=True,
                         timeout=120).stdout
    cells = collections.Counter()
    for row in csv.reader(io.StringIO(out)):
        if row and all(re.fullmatch(r"Col\d+", c) for c in row):
            continue
        cells.update(_cell_value(c) for c in row if c.strip())
    return cells


def check_calc(root, path, result, reference, arguments):
    """reference: the least value agreement with the cells the importer's own CSV converter
    writes (numbers2csv, wks2csv), which reads the same library's callbacks: a check of the cells
    kept and their values (the converters apply the numbering styles this reader leaves out, so
    dates, percentages and currencies agree less)."""
    if result.get("isError"):
        return False, refusal(result)
    text = "\n".join(texts(result))
    if result.get("_meta", {}).get("next_offset") or "call read again" in text:
        return False, "the workbook does not fit one answer; the check compares whole workbooks"
    ours = sheet_cells(text)
    try:
        theirs = importer_csv_cells(path)
    except (OSError, subprocess.SubprocessError) as error:
        return False, f"reference failed: {error}"
    total = sum(ours.values()) + sum(theirs.values())
    agreement = 1.0 if total == 0 else 2 * sum((ours & theirs).values()) / total
    if agreement < float(reference):
        missing = list((theirs - ours).elements())[:8]
        return False, f"value agreement {agreement:.3f} < {reference}; cells missing: {missing}"
    return True, f"{sum(theirs.values())} cells, value agreement {agreement:.3f}"


CHECKS = {"text": check_text, "pdf": check_pdf, "image": check_image,
          "notebook": check_notebook, "audio": check_audio, "binary": check_binary,
          "archive": check_archive,
          "docx": check_office, "odt": check_office, "rtf": check_rtf, "doc": check_doc, "wordproc": check_wordproc, "xlsx": check_sheet,
          "ods": check_sheet, "xls": check_sheet, "xlsb": check_sheet, "calc": check_calc, "epub": check_epub, "pptx": check_slides, "odp": check_slides, "ppt": check_slides,
          "drawing": check_deck, "keynote": check_deck, "djvu": check_djvu}


# The text formats' checks add themselves to CHECKS (imported last: they use this module's helpers).
import text_formats  # noqa: E402,F401
import ebooks  # noqa: E402,F401
import help_files  # noqa: E402,F401
import outlook_stores  # noqa: E402,F401
import hwp_documents  # noqa: E402,F401
import dbf_tables  # noqa: E402,F401
