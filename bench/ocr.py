#!/usr/bin/env python3
"""OCR rows: mcp-read's OCR against the `tesseract` command line on the same image, the second
read of an OCR'd page, and hostile inputs. Ratios and times for the README, not timed tests
(issue 16's goals: per page <= 1.1x the command line; a second read <= 5 ms; hostile inputs
answered at once or within the page budget).

Fixtures are made here with the `vips` command (libvips-tools): a letter-size page of text at
150 DPI (the GPL's first paragraphs, DejaVu Sans 10), random noise of the same size, a PNG whose
header claims 30,000 x 30,000 pixels, a 0-byte image, a PDF of 1,000 scanned pages (one image
shared by every page) and one blank PDF page.

Usage: bench/ocr.py build/mcp-read [--keep DIR]
Needs tesseract-ocr, tesseract-ocr-eng, tesseract-ocr-osd and libvips-tools.
"""
import argparse
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "corpus"))
from mcp_client import Client  # noqa: E402

WIDTH, HEIGHT, DPI = 1275, 1650, 150


def sh(*args):
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def page_text():
    with open("/usr/share/common-licenses/GPL-3", encoding="utf-8") as f:
        lines = [line.rstrip() for line in f][:60]
    return "\n".join(lines).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def png_claiming(width, height):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 64))
            + chunk(b"IEND", b""))


def pdf_of_pages(count, image=None):
    """`count` pages each drawing `image` (raw 8-bit grey WIDTH x HEIGHT) or nothing."""
    objects = ["<< /Type /Catalog /Pages 2 0 R >>", None]
    if image is not None:
        data = zlib.compress(image)
        objects.append(f"<< /Type /XObject /Subtype /Image /Width {WIDTH} /Height {HEIGHT} /ColorSpace "
                       f"/DeviceGray /BitsPerComponent 8 /Filter /FlateDecode /Length {len(data)} >>\nstream\n"
                       .encode("latin-1") + data + b"\nendstream")
    w, h = WIDTH * 72 / DPI, HEIGHT * 72 / DPI
    draw = f"q {w} 0 0 {h} 0 0 cm /Im1 Do Q\n".encode() if image is not None else b""
    content = len(objects) + 1
    objects.append(f"<< /Length {len(draw)} >>\nstream\n".encode() + draw + b"endstream")
    kids = []
    for _ in range(count):
        kids.append(len(objects) + 1)
        resources = "/Resources << /XObject << /Im1 3 0 R >> >>" if image is not None else ""
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {w} {h}] {resources} "
                       f"/Contents {content} 0 R >>")
    objects[1] = f"<< /Type /Pages /Kids [{' '.join(f'{k} 0 R' for k in kids)}] /Count {count} >>"
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, obj in enumerate(objects):
        offsets.append(len(out))
        body = obj if isinstance(obj, bytes) else obj.encode()
        out += f"{i + 1} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for off in offsets:
        out += f"{off:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def make_fixtures(d):
    sh("vips", "text", f"{d}/ink.v", page_text(), "--font", "DejaVu Sans 10", "--dpi", str(DPI),
       "--width", str(WIDTH - 150))
    sh("vips", "invert", f"{d}/ink.v", f"{d}/paper.v")
    sh("vips", "embed", f"{d}/paper.v", f"{d}/page.v", "75", "75", str(WIDTH), str(HEIGHT),
       "--extend", "white")
    sh("vips", "pngsave", f"{d}/page.v", f"{d}/page.png")
    sh("vips", "copy", f"{d}/page.v", f"{d}/warm.png")  # another file: the first OCR loads the engine
    sh("vips", "rawsave", f"{d}/page.v", f"{d}/page.raw")
    sh("vips", "gaussnoise", f"{d}/noise.v", str(WIDTH), str(HEIGHT), "--sigma", "80", "--mean", "128")
    sh("vips", "cast", f"{d}/noise.v", f"{d}/noise.png", "uchar")
    with open(f"{d}/huge.png", "wb") as f:
        f.write(png_claiming(30000, 30000))
    open(f"{d}/empty.png", "wb").close()
    with open(f"{d}/page.raw", "rb") as f:
        raw = f.read()
    with open(f"{d}/scan-1000.pdf", "wb") as f:
        f.write(pdf_of_pages(1000, raw))
    with open(f"{d}/blank.pdf", "wb") as f:
        f.write(pdf_of_pages(1))


def timed(fn):
    start = time.perf_counter()
    result = fn()
    return result, time.perf_counter() - start


def first_text(result):
    return result["content"][0]["text"] if result.get("content") else ""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--keep")
    args = parser.parse_args()
    for tool in ("tesseract", "vips"):
        if shutil.which(tool) is None:
            sys.exit(f"bench/ocr.py needs the {tool} command")
    d = args.keep or tempfile.mkdtemp(prefix="mcpread-ocr-bench-")
    os.makedirs(d, exist_ok=True)
    make_fixtures(d)
    client = Client(os.path.abspath(args.binary), [d], timeout=600)
    rows = []
    try:
        client.read({"file_path": "warm.png", "file_type": "text", "ocr_lang": "eng"})
        result, ours = timed(lambda: client.read({"file_path": "page.png", "file_type": "text", "ocr_lang": "eng"}))
        cli = timed(lambda: subprocess.run(["tesseract", f"{d}/page.png", "stdout", "-l", "eng"],
                                           check=True, capture_output=True))[1]
        rows.append(("page of text, 1275x1650 px (mcp-read / tesseract CLI)", f"{ours:.2f} s / {cli:.2f} s = "
                     f"{ours / cli:.2f}x", "<= 1.1x"))
        _, again = timed(lambda: client.read({"file_path": "page.png", "file_type": "text", "ocr_lang": "eng"}))
        rows.append(("second read of the OCR'd page", f"{again * 1000:.1f} ms", "<= 5 ms"))
        for name, label in (("huge.png", "30,000 x 30,000 px scan"), ("empty.png", "0-byte image"),
                            ("noise.png", "random noise, 1275x1650 px")):
            r, t = timed(lambda n=name: client.read({"file_path": n, "file_type": "text", "ocr_lang": "eng"}))
            rows.append((label, f"{t * 1000:.0f} ms: {first_text(r)[-90:]!r}", "at once, said so"))
        r, t = timed(lambda: client.read({"file_path": "blank.pdf", "file_type": "text", "ocr_lang": "eng"}))
        rows.append(("0-byte (blank) PDF page", f"{t * 1000:.0f} ms: {first_text(r)[-60:]!r}", "at once, said so"))
        r, t = timed(lambda: client.read({"file_path": "scan-1000.pdf", "file_type": "text", "ocr_lang": "eng"}))
        rows.append(("1,000-page scanned PDF, first call", f"{t:.1f} s, {len(r.get('_meta', {}).get('ocr_pages', []))} "
                     f"pages OCR'd, next: {r.get('_meta', {}).get('next_pages')}", "within the page budget"))
    finally:
        client.close()
        if not args.keep:
            shutil.rmtree(d, ignore_errors=True)
    print("| OCR row | measured | goal |\n|---|---|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
