"""The corpus checks fed made-up answers: each passes the right answer and fails the wrong ones.

    python3 -m unittest -v test_checks      (from tests/corpus; ctest runs it as corpus_checks)
"""
import base64
import json
import os
import struct
import sys
import tempfile
import unittest
import zlib

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import checks  # noqa: E402
import slide_runs  # noqa: E402


def answer(*blocks, error=False):
    result = {"content": [b if isinstance(b, dict) else {"type": "text", "text": b} for b in blocks]}
    if error:
        result["isError"] = True
    return result


def numbered(lines, first=1):
    return "".join(f"{n:6d}\t{line}\n" for n, line in enumerate(lines, first)) + "\n[End of file.]"


def png(width, height):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\0" + b"\x80" * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def pdf(text):
    """A one-page PDF showing `text` in Helvetica; mutool repairs the missing xref table."""
    stream = f"BT /F1 24 Tf 72 700 Td ({text}) Tj ET".encode()
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
               b"/Resources << /Font << /F1 5 0 R >> >> >>",
               b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    body = b"%PDF-1.4\n" + b"".join(b"%d 0 obj\n%s\nendobj\n" % (i, o) for i, o in enumerate(objects, 1))
    return body + b"trailer\n<< /Root 1 0 R /Size 6 >>\n%%EOF\n"


class Checks(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.root = self.dir.name

    def tearDown(self):
        self.dir.cleanup()

    def file(self, name, data):
        path = os.path.join(self.root, name)
        with open(path, "wb") as f:
            f.write(data)
        return path

    def test_text(self):
        lines = ["User\\ Manual ~~~ ユーザ", "Ολα", "x" * 3000]
        path = self.file("menu.sjis", "\r\n".join(lines[:1]).encode("cp932") + b"\n")
        ok = checks.check_text(self.root, path, answer(numbered(lines[:1])), "shift_jis", {})
        self.assertEqual(ok[0], True, ok[1])
        noted = answer("[Decoded as Windows-31J.]\n\n" + numbered(lines[:1]))
        self.assertTrue(checks.check_text(self.root, path, noted, "shift_jis", {})[0])
        # The JIS X 0201 reading (yen sign for backslash, overline for tilde) is wrong.
        bad = checks.check_text(self.root, path, answer(numbered(["User¥ Manual ‾‾‾ ユーザ"])),
                                "shift_jis", {})
        self.assertEqual(bad[0], False)
        self.assertIn("line 1 col 5", bad[1])
        self.assertFalse(checks.check_text(self.root, path, answer("binary", error=True),
                                           "shift_jis", {})[0])
        # A line past 2000 characters may be cut with the marker, keeping a prefix.
        long_path = self.file("long.txt", lines[2].encode() + b"\n")
        cut = lines[2][:2000] + " \u2026 [line truncated: 3000 bytes in full]"
        self.assertTrue(checks.check_text(self.root, long_path, answer(numbered([cut])),
                                          "utf-8", {})[0])
        self.assertFalse(checks.check_text(self.root, long_path, answer(numbered(["y" * 2000])),
                                           "utf-8", {})[0])
        # Fewer lines than asked for, or not from the offset asked for, fail.
        many = self.file("many.txt", "".join(f"{i}\n" for i in range(1, 501)).encode("ascii"))
        self.assertTrue(checks.check_text(self.root, many, answer(numbered(
            [str(i) for i in range(100, 150)], 100)), "utf-8", {"offset": 100, "limit": 50})[0])
        self.assertFalse(checks.check_text(self.root, many, answer(numbered(
            [str(i) for i in range(1, 11)])), "utf-8", {})[0])
        self.assertFalse(checks.check_text(self.root, many, answer(numbered(
            [str(i) for i in range(1, 51)])), "utf-8", {"offset": 100, "limit": 50})[0])
        # windows-1252 as WHATWG decodes it: the five undefined bytes are C1 controls.
        holes = self.file("holes.txt", b"caf\xe9 \x81\x80\n")
        self.assertTrue(checks.check_text(self.root, holes, answer(numbered(["café \x81€"])),
                                          "iso-8859-1", {})[0])
        # Big5 as the standard decodes it (tutor.zh.big5, line 29), where Python's big5hkscs
        # codec reads 0x8F 0xFE otherwise: the Python reading fails.
        big5 = self.file("big5.txt", bytes.fromhex("acdd8ffea8d3abdcb648") + b"\n")
        self.assertTrue(checks.check_text(self.root, big5, answer(numbered(["看起來很象"])), "big5", {})[0])
        python = bytes.fromhex("acdd8ffea8d3abdcb648").decode("big5hkscs", "replace")
        self.assertNotEqual(python, "看起來很象")
        self.assertFalse(checks.check_text(self.root, big5, answer(numbered([python])), "big5", {})[0])

    def test_whatwg_decode(self):
        """The reference's special cases and error handling, as the standard's steps give them."""
        decode = checks.whatwg_decode.decode
        self.assertEqual(decode("big5", b"\x88\x62\x88\x64"), "\u00ca\u0304\u00ca\u030c")
        self.assertEqual(decode("big5", b"\x81a\xa4"), "\ufffda\ufffd")  # an ASCII trail is read again
        self.assertEqual(decode("shift_jis", b"\xf0\x40\x5c"), "\ue000\\")  # EUDC; 0x5C stays '\\'
        self.assertEqual(decode("gbk", b"\x81\x35\xf4\x37\x84\x31\xa4\x39\x80"), "\ue7c7\uffff\u20ac")
        # A four-byte sequence broken at its last byte: the second, third and last are read again.
        self.assertEqual(decode("gb18030", b"\x81\x30\x81\x7f"), "\ufffd0\ufffd\x7f")
        self.assertEqual(decode("gb18030", b"\x81\x30\x81x"), "\ufffd0\u4e81")
        self.assertEqual(decode("gb18030", b"\xa6\xd9\xfe\x59"), "\ufe10\u9fb4")  # the 2024 index
        self.assertEqual(decode("euc-jp", b"\x8f\xa2\xaf\x8e\xb1"), "\u02d8\uff71")
        self.assertEqual(decode("iso-2022-jp", b"\x1b$B\x30\x21\x1b(B\x1b(Bx\x1b"), "\u4e9c\ufffdx\ufffd")
        self.assertEqual(decode("euc-kr", b"\xb0\xa1\xc7"), "\uac00\ufffd")
        self.assertEqual(decode("utf-16le", b"\x00\xd8a\x00\x3d\xd8\x00\xde"), "\ufffda\U0001f600")
        self.assertEqual(decode("utf-16be", b"\xdc\x00\x00"), "\ufffd\ufffd")
        self.assertEqual(decode("latin1", b"caf\xe9 \x81\x80"), "café \x81€")
        self.assertEqual(decode("iso-8859-3", b"\xa5"), "\ufffd")  # a hole in the index
        self.assertRaises(ValueError, decode, "iso-2022-kr", b"")  # replacement: not a legacy decoder

    def test_pdf(self):
        path = self.file("one.pdf", pdf("Hello corpus reference text"))
        page = "── Page 1 of 1 ──\nHello corpus reference text\n"
        ok = checks.check_pdf(self.root, path, answer("PDF: 1 page.\n\n" + page), "-", {})
        self.assertEqual(ok[0], True, ok[1])
        lost = checks.check_pdf(self.root, path, answer("── Page 1 of 1 ──\nHello\n"), "-", {})
        self.assertEqual(lost[0], False)
        self.assertIn("of mutool's", lost[1])
        self.assertFalse(checks.check_pdf(self.root, path, answer(
            "── Page 1 of 2 ──\nHello corpus reference text\n"), "-", {})[0])
        self.assertFalse(checks.check_pdf(self.root, path, answer("no pages", error=True), "-", {})[0])
        self.assertFalse(checks.check_pdf(self.root, path, answer(page), "over-300", {})[0])
        self.assertFalse(checks.check_pdf(self.root, path, answer(page), "form", {})[0])
        self.assertFalse(checks.check_pdf(self.root, path, answer(page), "encrypted", {})[0])
        ocr = "── Page 1 of 1 ── [OCR, eng, mean confidence 95%]\nHello corpus reference text\n"
        ok = checks.check_pdf(self.root, path, answer(ocr), "-", {})
        self.assertEqual(ok[0], True, ok[1])
        self.assertFalse(checks.check_pdf(self.root, path, answer(ocr.replace("95%]", "95%")), "-", {})[0])

    def test_image(self):
        path = self.file("wide.png", png(40, 20))

        def sent(width, height, mime="image/png"):
            return {"type": "image", "mimeType": mime,
                    "data": base64.b64encode(png(width, height)).decode()}

        ok = checks.check_image(self.root, path, answer("Image", sent(40, 20)), "-", {})
        self.assertEqual(ok[0], True, ok[1])
        self.assertTrue(checks.check_image(self.root, path, answer(sent(21, 10)), "-", {})[0])
        self.assertFalse(checks.check_image(self.root, path, answer(sent(20, 20)), "-", {})[0])
        self.assertFalse(checks.check_image(self.root, path, answer(sent(40, 20, "image/jpeg")),
                                            "-", {})[0])
        self.assertFalse(checks.check_image(self.root, path, answer(sent(4000, 2000)), "-", {})[0])
        self.assertFalse(checks.check_image(self.root, path, answer("binary", error=True), "-", {})[0])
        self.assertTrue(checks.check_image(self.root, path, answer(numbered(["#define"])),
                                           "text-ok", {})[0])
        junk = self.file("junk.img", b"\0\1\2\3" * 64)
        self.assertTrue(checks.check_image(self.root, junk, answer("unknown data", error=True),
                                           "-", {})[0])
        self.assertFalse(checks.check_image(self.root, junk, answer(
            'binary; call read with encoding="windows-1252"', error=True), "-", {})[0])

    def test_notebook(self):
        notebook = {"nbformat": 2, "worksheets": [{"cells": [
            {"cell_type": "heading", "source": "Title", "level": 1},
            {"cell_type": "code", "input": ["\n", "import sympy\n", "x = 1"]}]}]}
        path = self.file("v2.ipynb", json.dumps(notebook).encode())
        good = ("Notebook: 2 cells.\n\n── Cell 1 · markdown ──\n# Title\n\n"
                "── Cell 2 · code · [1] ──\n```python\nimport sympy\nx = 1\n```\n")
        ok = checks.check_notebook(self.root, path, answer(good), "-", {})
        self.assertEqual(ok[0], True, ok[1])
        self.assertFalse(checks.check_notebook(self.root, path, answer(
            good.replace("import sympy", "")), "-", {})[0])
        self.assertFalse(checks.check_notebook(self.root, path, answer(
            good.replace("2 cells", "3 cells")), "-", {})[0])
        self.assertFalse(checks.check_notebook(self.root, path, answer(
            good.replace("Cell 1 · markdown", "Cell 1 · raw")), "-", {})[0])
        self.assertFalse(checks.check_notebook(self.root, path, answer(
            "nbformat 2 is not supported", error=True), "-", {})[0])

    def test_audio(self):
        path = self.file("a.wav", b"RIFF\x24\0\0\0WAVEfmt " + b"\0" * 40)
        with open(path, "rb") as f:
            data = base64.b64encode(f.read()).decode()
        ok = checks.check_audio(self.root, path, answer(
            {"type": "audio", "mimeType": "audio/wav", "data": data}), "-", {})
        self.assertEqual(ok[0], True, ok[1])
        self.assertFalse(checks.check_audio(self.root, path, answer(
            {"type": "audio", "mimeType": "audio/mpeg", "data": data}), "-", {})[0])
        self.assertTrue(checks.check_audio(self.root, path, answer(
            "WAV audio could not be decoded", error=True), "-", {})[0])
        self.assertFalse(checks.check_audio(self.root, path, answer(
            'a binary file; try file_type="text" and encoding="windows-1252"', error=True),
            "-", {})[0])
        self.assertFalse(checks.check_audio(self.root, path, answer("a binary file", error=True),
                                            "-", {})[0])

    def test_binary(self):
        path = self.file("lib.so", b"\x7fELF" + b"\0" * 60)
        ok = checks.check_binary(self.root, path, answer("an ELF shared object", error=True),
                                 "ELF", {})
        self.assertEqual(ok[0], True, ok[1])
        self.assertFalse(checks.check_binary(self.root, path, answer(
            "ELF; call read with an encoding such as encoding=\"windows-1252\"", error=True),
            "ELF", {})[0])
        self.assertFalse(checks.check_binary(self.root, path, answer("a binary file", error=True),
                                             "ELF", {})[0])
        self.assertFalse(checks.check_binary(self.root, path, answer(numbered(["\x7fELF"])),
                                             "ELF", {})[0])

    def test_slides(self):
        import io
        import zipfile
        ns = ('xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" '
              'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
              'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"')
        rels = ('<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                '<Relationship Id="rId1" Type="x/slide" Target="slides/slide1.xml"/></Relationships>')
        data = io.BytesIO()
        with zipfile.ZipFile(data, "w") as z:
            z.writestr("ppt/presentation.xml", f'<p:presentation {ns}><p:sldIdLst><p:sldId id="256" r:id="rId1"/>'
                                               '</p:sldIdLst></p:presentation>')
            z.writestr("ppt/_rels/presentation.xml.rels", rels)
            z.writestr("ppt/slides/slide1.xml", f'<p:sld {ns}><p:cSld><p:spTree><p:sp><p:txBody><a:p><a:r>'
                                                '<a:t>Quarterly results</a:t></a:r></a:p></p:txBody></p:sp>'
                                                '</p:spTree></p:cSld></p:sld>')
        path = self.file("d.pptx", data.getvalue())
        right = "PowerPoint presentation d.pptx: 1 slide.\n\n\u2500\u2500 Slide 1 of 1: Quarterly results \u2500\u2500\n\n" \
                "[Slide 1 of 1. End of document.]"
        ok = checks.check_slides(self.root, path, answer(right), "0.97", {})
        self.assertEqual(ok[0], True, ok[1])
        self.assertFalse(checks.check_slides(self.root, path, answer(right.replace("Quarterly", "Yearly")),
                                             "0.97", {})[0])
        self.assertFalse(checks.check_slides(self.root, path, answer("not a presentation", error=True),
                                             "0.97", {})[0])

    def test_slide_numbering(self):
        # A presentation's own numbering is markup as its bullets are; a number typed into a run
        # (escaped by the reader, or a title's) is text. A book's list numbers are text.
        deck = ("\u2500\u2500 Slide 1 of 1: 1. Intro \u2500\u2500\n\n1. auto\n  2) nested\n- 3\\. typed\n"
                "4\\) plain\n3.5 kg\n\n[Notes: 7\\. noted]")
        self.assertEqual(slide_runs.mcp_read_text(deck, numbering=True).split(),
                         ["1.", "Intro", "auto", "nested", "3.", "typed", "4)", "plain", "3.5", "kg", "7.", "noted]"])
        book = "EPUB book b.epub\n\n# 1. Introduction\n\n2. Second"
        self.assertEqual(slide_runs.mcp_read_text(book).split(), ["1.", "Introduction", "2.", "Second"])

    def test_pptx_paragraphs(self):
        # A word cut across runs is one word; a line break parts words.
        import xml.etree.ElementTree as ET
        sp = ET.fromstring('<p:sp xmlns:p="p" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><p:txBody>'
                           '<a:p><a:r><a:t>b</a:t></a:r><a:r><a:t>ewusste</a:t></a:r><a:br/><a:fld><a:t>3</a:t></a:fld></a:p>'
                           '<a:p><a:r><a:t>two</a:t></a:r></a:p></p:txBody></p:sp>')
        self.assertEqual(slide_runs.paragraphs(sp), ["bewusste 3", "two"])

    def test_pptx_diagram(self):
        # A SmartArt diagram's text is in its data part, which the slide's graphic frame names.
        import io
        import zipfile
        ns = ('xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" '
              'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
              'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" '
              'xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram"')
        rel = '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' \
              '<Relationship Id="{}" Type="x/{}" Target="{}"/></Relationships>'
        data = io.BytesIO()
        with zipfile.ZipFile(data, "w") as z:
            z.writestr("ppt/presentation.xml", f'<p:presentation {ns}><p:sldIdLst><p:sldId id="256" r:id="rId1"/>'
                                               '</p:sldIdLst></p:presentation>')
            z.writestr("ppt/_rels/presentation.xml.rels", rel.format("rId1", "slide", "slides/slide1.xml"))
            z.writestr("ppt/slides/slide1.xml", f'<p:sld {ns}><p:cSld><p:spTree><p:graphicFrame><a:graphic><a:graphicData>'
                                                '<dgm:relIds r:dm="rId2"/></a:graphicData></a:graphic></p:graphicFrame>'
                                                '</p:spTree></p:cSld></p:sld>')
            z.writestr("ppt/slides/_rels/slide1.xml.rels", rel.format("rId2", "diagramData", "../diagrams/data1.xml"))
            z.writestr("ppt/diagrams/data1.xml", f'<dgm:dataModel {ns}><dgm:ptLst><dgm:pt><dgm:t><a:p><a:r><a:t>Pl</a:t>'
                                                 '</a:r><a:r><a:t>an</a:t></a:r></a:p></dgm:t></dgm:pt></dgm:ptLst></dgm:dataModel>')
        self.assertEqual(slide_runs.pptx_runs(self.file("g.pptx", data.getvalue())), "Plan")

    def test_deck(self):
        # libvisio's own test drawing (tests/data/revenge/), which vsd2text reads.
        with open(os.path.join(os.path.dirname(__file__), "..", "data", "revenge", "bgcolor.vsdx"), "rb") as f:
            path = self.file("d.vsdx", f.read())
        right = ("Microsoft Visio drawing d.vsdx: 1 page.\n\n\u2500\u2500 Page 1 of 1: Page-1 \u2500\u2500\n\n"
                 "Black, no bg\n\nBlack, green bg\n\nBlack, green bg transparency 60%\n\n[Page 1 of 1. End of document.]")
        ok = checks.check_deck(self.root, path, answer(right), "0.97", {})
        self.assertEqual(ok[0], True, ok[1])
        self.assertFalse(checks.check_deck(self.root, path, answer(right.replace("green", "red")), "0.97", {})[0])
        self.assertFalse(checks.check_deck(self.root, path, answer("not a drawing", error=True), "0.97", {})[0])

    def test_sheet(self):
        content = ('<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
                   'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
                   'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:spreadsheet>'
                   '<table:table table:name="T"><table:table-row><table:table-cell><text:p>a|b</text:p>'
                   '</table:table-cell><table:table-cell office:value-type="float" office:value="2.50" '
                   'table:number-columns-repeated="2"/></table:table-row></table:table>'
                   '</office:spreadsheet></office:body></office:document-content>')
        import io as _io
        import zipfile as _zipfile
        data = _io.BytesIO()
        with _zipfile.ZipFile(data, "w") as z:
            z.writestr("content.xml", content)
        path = self.file("t.ods", data.getvalue())
        table = ("OpenDocument spreadsheet t.ods: 1 sheet: 1 \"T\".\n\n## Sheet 1: T\n\n| Row | A | B | C |\n"
                 "| ---: | --- | --- | --- |\n| 1 | a\\|b | 2.5 | 2.5 |\n\n[Rows 1-1 of sheet 1. End of sheet.]")
        ok = checks.check_sheet(self.root, path, answer(table), "0.97", {})
        self.assertEqual(ok[0], True, ok[1])
        self.assertFalse(checks.check_sheet(self.root, path, answer(table.replace("2.5 |", "3 |")), "0.97", {})[0])
        self.assertFalse(checks.check_sheet(self.root, path, answer(table.replace(
            "End of sheet.", "To read more, call read again with pages=\"1\" and offset=2.")), "0.97", {})[0])
        self.assertFalse(checks.check_sheet(self.root, path, answer("refused", error=True), "0.97", {})[0])


if __name__ == "__main__":
    unittest.main()
