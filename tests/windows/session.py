#!/usr/bin/env python3
"""The Windows build's MCP sessions under Wine (scripts/windows/prove.sh): starts mcp-read.exe
through wine64 with one root, talks MCP over stdio or Streamable HTTP, and checks what a model
would get: text by a Windows path, a relative path and another case; a PNG passed through and a
TIFF converted; a large PNG downscaled; a notebook; a Word document; a PDF's text and a page
rendered as an image (the plugin, libmcpread_pdf.dll); Japanese text through poppler-data's
CMaps (share\\poppler); a scanned page read with OCR; an archive's listing and three members
(libarchive-13.dll); a folder's listing; and the refusals: a file outside the root, the way out
through "..", a device name (NUL), an alternate data stream and a trailing dot. Exits 1 naming
each failed check.

  session.py stdio ROOT WINROOT -- COMMAND...
  session.py http  ROOT WINROOT --url URL --token TOKEN -- COMMAND...

ROOT is the host folder the fixtures are written to, WINROOT the same folder as Windows names it
(Wine's Z: drive: Z:\\tmp\\...). The outside file is written beside ROOT.
"""
import argparse
import importlib.util
import io
import os
import signal
import struct
import sys
import tarfile
import zipfile
import zlib

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "scripts", "release"))
import fixtures  # noqa: E402
from session import Session, check, failures, image_size, images, kinds, texts  # noqa: E402


def container_http_session():
    """The container test's Streamable HTTP session (tests/container/session.py), loaded by path:
    its module name is the release helpers' too."""
    spec = importlib.util.spec_from_file_location("container_session", os.path.join(here, "..", "container", "session.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.HttpSession


def docx(paragraphs):
    """A minimal Word document: one paragraph per entry, the first as a heading."""
    heading = '<w:pPr><w:pStyle w:val="Heading1"/></w:pPr>'
    body = "".join(f"<w:p>{heading if i == 0 else ''}<w:r><w:t>{p}</w:t></w:r></w:p>" for i, p in enumerate(paragraphs))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml",
                   '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
                   '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
                   '<Default Extension="xml" ContentType="application/xml"/>'
                   '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>')
        z.writestr("_rels/.rels",
                   '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                   '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>')
        z.writestr("word/document.xml",
                   '<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
                   f"<w:body>{body}</w:body></w:document>")
    return out.getvalue()


def tiff(width, height):
    """An uncompressed RGB TIFF, which libvips converts to PNG for the model."""
    pixels = bytes((x * 5 + y * 3 + c * 80) % 256 for y in range(height) for x in range(width) for c in range(3))
    entries = [(256, 3, 1, width), (257, 3, 1, height), (258, 3, 3, 8 + 2 + 12 * 10 + 4),
               (259, 3, 1, 1), (262, 3, 1, 2), (273, 4, 1, 8 + 2 + 12 * 10 + 4 + 6), (277, 3, 1, 3),
               (278, 3, 1, height), (279, 4, 1, len(pixels)), (284, 3, 1, 1)]
    ifd = struct.pack("<H", len(entries)) + b"".join(
        struct.pack("<HHI", tag, kind, count) + (struct.pack("<HH", value, 0) if kind == 3 and count == 1 else struct.pack("<I", value))
        for tag, kind, count, value in entries) + struct.pack("<I", 0)
    return b"II*\x00" + struct.pack("<I", 8) + ifd + struct.pack("<HHH", 8, 8, 8) + pixels


# A 5x7 dot font, enough for OCR_TEXT: the scanned page is drawn here rather than kept as a file.
GLYPHS = {
    "H": "10001 10001 10001 11111 10001 10001 10001", "E": "11111 10000 10000 11110 10000 10000 11111",
    "L": "10000 10000 10000 10000 10000 10000 11111", "O": "01110 10001 10001 10001 10001 10001 01110",
    "W": "10001 10001 10001 10101 10101 10101 01010", "R": "11110 10001 10001 11110 10100 10010 10001",
    "D": "11100 10010 10001 10001 10001 10010 11100", " ": "00000 00000 00000 00000 00000 00000 00000",
}
OCR_TEXT = "HELLO WORLD"


def scan(text, scale=8, margin=40):
    """A greyscale PNG of black capitals on white, as a scanner would give: no text layer, OCR only."""
    width, height = margin * 2 + len(text) * 6 * scale, margin * 2 + 7 * scale
    rows = []
    for y in range(height):
        row = bytearray(b"\xff" * width)
        gy = (y - margin) // scale
        if y >= margin and gy < 7:
            for i, ch in enumerate(text):
                for gx, bit in enumerate(GLYPHS[ch].split()[gy]):
                    if bit == "1":
                        x0 = margin + (i * 6 + gx) * scale
                        row[x0:x0 + scale] = b"\x00" * scale
        rows.append(b"\x00" + bytes(row))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"".join(rows))) + chunk(b"IEND", b""))


def write_fixtures(root):
    fixtures.write_all(root)
    with open(os.path.join(root, "picture.tif"), "wb") as f:
        f.write(tiff(40, 30))
    with open(os.path.join(root, "japanese.pdf"), "wb") as f:
        f.write(fixtures.cjk_pdf())
    with open(os.path.join(root, "scan.png"), "wb") as f:
        f.write(scan(OCR_TEXT))
    with open(os.path.join(root, "report.docx"), "wb") as f:
        f.write(docx(["Quarterly report", "Sales rose in the north."]))
    with open(os.path.join(root, "Résumé 文.png"), "wb") as f:
        f.write(fixtures.png(32, 24))
    # An archive (libarchive-13.dll): a gzip'd tar holding a text file and a Word document.
    with tarfile.open(os.path.join(root, "papers.tar.gz"), "w:gz") as tar:
        for name, data in (("docs/readme.txt", b"Archived notes\nsecond line\n"),
                           ("docs/memo.docx", docx(["Memo from the archive"]))):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    os.makedirs(os.path.join(root, "sub"), exist_ok=True)
    with open(os.path.join(root, "sub", "inner.txt"), "w") as f:
        f.write("inner\n")
    outside = os.path.join(os.path.dirname(root.rstrip("/")), "outside.txt")
    with open(outside, "w") as f:
        f.write("not for the model\n")


def session_checks(s, win):
    init = s.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                    "clientInfo": {"name": "windows-check", "version": "1"}})
    check(init.get("result", {}).get("serverInfo", {}).get("name") == "mcp-read", "initialize: serverInfo.name is mcp-read")
    s.notify("notifications/initialized")
    tools = [t["name"] for t in s.request("tools/list").get("result", {}).get("tools", [])]
    check("read" in tools, f"tools/list names read ({', '.join(tools)})")

    lines = fixtures.TEXT.splitlines()
    numbered = "".join(f"{n:6d}\t{line}\n" for n, line in enumerate(lines, 1))
    for path in (f"{win}\\notes.txt", "notes.txt", f"{win}\\NOTES.TXT", win.replace("\\", "/") + "/notes.txt"):
        content, error, _ = s.read(path)
        check(not error and texts(content).startswith(numbered), f"text {path}: numbered lines, UTF-8 intact ({texts(content)[:100]!r})")

    content, error, _ = s.read(f"{win}\\small.png")
    imgs = images(content)
    check(not error and len(imgs) == 1 and imgs[0]["mimeType"] == "image/png" and image_size(imgs[0]) == (64, 48),
          f"PNG passed through: image/png, 64x48 ({kinds(content)})")
    content, error, _ = s.read(f"{win}\\picture.tif")
    imgs = images(content)
    check(not error and len(imgs) == 1 and imgs[0]["mimeType"] in ("image/png", "image/jpeg") and image_size(imgs[0]) == (40, 30),
          f"TIFF converted by libvips: PNG or JPEG, 40x30 ({kinds(content)}, {texts(content)[:120]!r})")
    content, error, _ = s.read(f"{win}\\large.png")
    imgs = images(content)
    check(not error and len(imgs) == 1 and image_size(imgs[0])[0] < 3000,
          f"large PNG downscaled ({[image_size(i) for i in imgs]})")

    content, error, _ = s.read(f"{win}\\Résumé 文.png")
    imgs = images(content)
    check(not error and len(imgs) == 1 and image_size(imgs[0]) == (32, 24) and "Résumé 文.png" in texts(content),
          f"a name beyond ASCII, opened and named in UTF-8 ({kinds(content)}, {texts(content)[:100]!r})")

    content, error, _ = s.read(f"{win}\\analysis.ipynb")
    t = texts(content)
    check(not error and "Bundle notebook" in t and "42" in t, f"notebook: cells and output ({t[:160]!r})")
    content, error, _ = s.read(f"{win}\\report.docx")
    t = texts(content)
    check(not error and "Quarterly report\n\nSales rose in the north." in t, f"DOCX: its paragraphs ({t[:160]!r})")

    content, error, _ = s.read(f"{win}\\page.pdf")
    t = texts(content)
    check(not error and "Page 1 of 1" in t and fixtures.PDF_TEXT in t, f"PDF: the page's text ({t[:200]!r})")
    content, error, _ = s.read(f"{win}\\japanese.pdf")
    t = texts(content)
    check(not error and fixtures.CJK_TEXT in t,
          f"PDF: Japanese text in a font that is not embedded, through share\\poppler's CMaps ({t[:200]!r})")
    content, error, _ = s.read(f"{win}\\page.pdf", file_type="image")
    imgs = images(content)
    # The page is A6 (298 x 420 pt): the image has its proportions.
    ratio = image_size(imgs[0])[0] / image_size(imgs[0])[1] if len(imgs) == 1 else 0
    check(not error and len(imgs) == 1 and imgs[0]["mimeType"] in ("image/png", "image/jpeg") and abs(ratio - 298 / 420) < 0.01
          and "follows as an image" in texts(content),
          f"PDF: the page rendered as an image ({kinds(content)}, {[image_size(i) for i in imgs]}, {texts(content)[:160]!r})")

    content, error, _ = s.read(f"{win}\\scan.png", file_type="text")
    t = texts(content)
    check(not error and "read with OCR" in t and OCR_TEXT in t,
          f"OCR: a scanned page's text by tesseract (libtesseract-5.dll, share\\tessdata) ({t[:200]!r})")

    content, error, _ = s.read(f"{win}\\scan.png", file_type="text", ocr_lang="eng+deu")
    t = texts(content)
    check(OCR_TEXT in t and "deu.traineddata" in t and "share\\tessdata" in t and "Debian" not in t
          and "bin\\.." not in t,
          f"OCR: a language not shipped is named as a file for share\\tessdata, not a Debian package ({t[-300:]!r})")

    content, error, _ = s.read(f"{win}\\papers.tar.gz")
    t = texts(content)
    check(not error and "docs/readme.txt" in t and "docs/memo.docx" in t, f"archive: its members listed ({t[:240]!r})")
    content, error, _ = s.read(f"{win}\\bundle.tar.xz\\docs\\packed.txt")
    t = texts(content)
    check(not error and fixtures.TEXT.splitlines()[0] in t, f"archive: a member of an xz'd tar read ({t[:160]!r})")
    content, error, _ = s.read(f"{win}\\papers.tar.gz\\docs\\readme.txt")
    t = texts(content)
    check(not error and "Archived notes" in t and "second line" in t, f"archive: a text member read ({t[:160]!r})")
    content, error, _ = s.read(f"{win}\\papers.tar.gz/docs/memo.docx")
    t = texts(content)
    check(not error and "Memo from the archive" in t, f"archive: a Word member read by its reader ({t[:160]!r})")

    content, error, _ = s.read(win)
    t = texts(content)
    check(not error and "notes.txt" in t and "sub/" in t, f"folder listing ({t[:160]!r})")
    content, error, _ = s.read(f"{win}\\sub\\inner.txt")
    check(not error and "inner" in texts(content), "a file in a sub-folder")

    refusals = {
        f"{win}\\..\\outside.txt": "outside the allowed roots",
        win.rsplit("\\", 1)[0] + "\\outside.txt": "outside the allowed roots",
        f"{win}\\NUL": "reserved device name",
        f"{win}\\notes.txt:hidden": "alternate data stream",
        f"{win}\\notes.txt.": "ends in a dot",
        f"{win}\\missing.txt": "File not found",
    }
    for path, expected in refusals.items():
        content, error, _ = s.read(path)
        t = texts(content)
        check(error and expected in t and "not for the model" not in t, f"{path}: refused, {expected!r} ({t[:160]!r})")


def main():
    split = sys.argv.index("--")
    parser = argparse.ArgumentParser()
    parser.add_argument("transport", choices=["stdio", "http"])
    parser.add_argument("root")
    parser.add_argument("win")
    parser.add_argument("--url")
    parser.add_argument("--token")
    args = parser.parse_args(sys.argv[1:split])
    command = sys.argv[split + 1:]
    transport, win = args.transport, args.win
    write_fixtures(args.root)
    s = None
    try:
        if transport == "stdio":
            s = Session(command)
        else:
            s = container_http_session()(command, args.url, args.token)
            # Windows has no SIGTERM: Wine turns SIGINT into the console's Ctrl-C event, which
            # the server answers with its orderly shutdown.
            s.close = lambda: (s.proc.send_signal(signal.SIGINT), s.proc.wait(timeout=30))[1]
            status, headers, _ = s.post({"jsonrpc": "2.0", "id": 0, "method": "ping"}, token="wrong")
            check(status == 401 and "Bearer" in (headers.get("WWW-Authenticate") or ""),
                  f"HTTP: a wrong token is refused with 401 ({status})")
        session_checks(s, win)
    except Exception as e:  # a dead server or a malformed answer is a failed check, said plainly
        check(False, f"session: {e}")
    if s is not None:
        status = s.close() if s.proc.poll() is None else s.proc.returncode
        if hasattr(s, "watchdog"):
            s.watchdog.cancel()
        check(status == 0, f"the server exits 0 (exit {status})")
    if failures:
        print(f"session ({transport}): {len(failures)} check(s) failed")
        sys.exit(1)
    print(f"session ({transport}): all checks passed")


if __name__ == "__main__":
    main()
