"""The files the portability proof reads (check-bundle.py), written by hand so that making them
needs nothing but Python: a text file, a PNG, a PPM and a BMP (formats models do not take,
which libvips converts; the BMP through ImageMagick), a one-page PDF, a notebook and a tar.xz
holding a text file (libarchive, and the xz library it loads)."""
import io
import json
import struct
import tarfile
import zlib

TEXT = "portable bundle line one\nsecond line: café\n"
PDF_TEXT = "Hello from the bundle"
CJK_TEXT = "\u65e5\u672c\u8a9e\u306e\u6587\u66f8"  # 日本語の文書


def png(width, height):
    """An RGB PNG with a gradient (zlib-compressed rows, each with filter byte 0)."""
    rows = b"".join(
        b"\0" + bytes(b for x in range(width) for b in ((x * 7) % 256, (y * 5) % 256, ((x + y) * 3) % 256))
        for y in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def bmp(width, height):
    """A 24-bit BMP: models take PNG, JPEG, GIF and WebP, so this one goes through libvips."""
    stride = (width * 3 + 3) & ~3
    pixels = b"".join(
        bytes(b for x in range(width) for b in ((x * 3) % 256, (y * 3) % 256, 128)) + b"\0" * (stride - width * 3)
        for y in range(height))
    info = struct.pack("<IiiHHIIiiII", 40, width, height, 1, 24, 0, len(pixels), 2835, 2835, 0, 0)
    header = struct.pack("<2sIHHI", b"BM", 14 + len(info) + len(pixels), 0, 0, 14 + len(info))
    return header + info + pixels


def ppm(width, height):
    """A binary PPM (P6): models take PNG, JPEG, GIF and WebP, so this one goes through libvips.
    (libvips 8.10, the bundle's, reads BMP through ImageMagick's coder; PPM with its own loader.)"""
    pixels = bytes(b for y in range(height) for x in range(width) for b in ((x * 3) % 256, (y * 3) % 256, 128))
    return b"P6\n%d %d\n255\n" % (width, height) + pixels


def pdf():
    """One A6 page saying PDF_TEXT in Helvetica, with a correct cross-reference table."""
    stream = f"BT /F1 18 Tf 20 200 Td ({PDF_TEXT}) Tj ET 0 0 1 rg 20 20 100 100 re f".encode()
    return one_page_pdf(stream, b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")


def cjk_pdf():
    """One A6 page saying CJK_TEXT in a Japanese font that is not embedded and whose codes are
    UCS-2 (the predefined CMap UniJIS-UCS2-H): its text comes out only with poppler-data's CMaps
    and Adobe-Japan1's CID-to-Unicode table."""
    codes = CJK_TEXT.encode("utf-16-be").hex().upper()
    stream = f"BT /F1 24 Tf 20 200 Td <{codes}> Tj ET".encode()
    return one_page_pdf(stream,
                        b"<< /Type /Font /Subtype /Type0 /BaseFont /HeiseiMin-W3 /Encoding /UniJIS-UCS2-H "
                        b"/DescendantFonts [6 0 R] >>",
                        b"<< /Type /Font /Subtype /CIDFontType0 /BaseFont /HeiseiMin-W3 "
                        b"/CIDSystemInfo << /Registry (Adobe) /Ordering (Japan1) /Supplement 2 >> "
                        b"/FontDescriptor 7 0 R /DW 1000 >>",
                        b"<< /Type /FontDescriptor /FontName /HeiseiMin-W3 /Flags 6 /FontBBox [-123 -257 1001 910] "
                        b"/ItalicAngle 0 /Ascent 723 /Descent -241 /CapHeight 709 /StemV 69 >>")


def one_page_pdf(stream, font, *more):
    """An A6 page drawing `stream` with `font` as /F1 (object 5; `more` objects follow it)."""
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 298 420] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
        font, *more,
    ]
    out = b"%PDF-1.4\n"
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return out


def notebook():
    cells = [
        {"cell_type": "markdown", "metadata": {}, "source": ["# Bundle notebook\n"]},
        {"cell_type": "code", "execution_count": 1, "metadata": {}, "source": ["print(6 * 7)"],
         "outputs": [{"output_type": "stream", "name": "stdout", "text": ["42\n"]}]},
    ]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}).encode()


def tar_xz():
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:xz") as t:
        data = TEXT.encode()
        info = tarfile.TarInfo("docs/packed.txt")
        info.size, info.mtime = len(data), 1700000000
        t.addfile(info, io.BytesIO(data))
    return out.getvalue()


def write_all(folder):
    files = {
        "notes.txt": TEXT.encode(),
        "small.png": png(64, 48),
        "large.png": png(3000, 200),
        "picture.bmp": bmp(40, 30),
        "picture.ppm": ppm(40, 30),
        "page.pdf": pdf(),
        "analysis.ipynb": notebook(),
        "bundle.tar.xz": tar_xz(),
    }
    for name, data in files.items():
        with open(f"{folder}/{name}", "wb") as f:
            f.write(data)
