"""Files made on the spot from real writers and real pictures.

Workbooks written by the spreadsheet writers Debian ships, which store formulas without
calculating them: openpyxl (XLSX) and odfpy (ODS). Read through mcp-read, a formula with no
stored result must show its formula (in backticks) and the page's note must count it; the cells
that hold values keep them.

A real photograph (libvips-doc's owl.jpg) wrapped as the one page of a PDF at 72 dpi, as scanners
and phone apps make them: read, the page must be said to be a photograph, with no OCR text.

Run by run.py after the files (with no --only, and --kind xlsx, ods or none). The writers are
Debian's python3-openpyxl and python3-odf, so this runs with Debian's own /usr/bin/python3.
"""
import os
import subprocess
import tempfile
import time

from mcp_client import Client

WRITE = r'''
import sys
import openpyxl
from odf.opendocument import OpenDocumentSpreadsheet
from odf.table import Table, TableRow, TableCell
from odf.text import P
out = sys.argv[1]
wb = openpyxl.Workbook()
ws = wb.active
ws.title = "Costs"
for row in (["item", "qty", "price"], ["apples", 3, 1.5], ["pears", 2, 2.25]):
    ws.append(row)
ws["A4"] = "total"
ws["C4"] = "=SUM(C2:C3)"
ws["D2"] = "=B2*C2"
wb.save(out + "/openpyxl.xlsx")
doc = OpenDocumentSpreadsheet()
table = Table(name="Costs")
def row(*cells):
    r = TableRow()
    for c in cells:
        if isinstance(c, tuple):
            r.addElement(TableCell(formula=c[0]))
        else:
            kind = "float" if isinstance(c, (int, float)) else "string"
            cell = TableCell(valuetype=kind, value=c) if kind == "float" else TableCell(valuetype=kind)
            cell.addElement(P(text=str(c)))
            r.addElement(cell)
    table.addElement(r)
row("item", "qty", "price")
row("apples", 3, 1.5, ("of:=[.B2]*[.C2]",))
row("pears", 2, 2.25)
row("total", "", ("of:=SUM([.C2:.C3])",))
doc.spreadsheet.addElement(table)
doc.save(out + "/odfpy.ods")
'''

# (file, what the answer must hold)
EXPECTED = [
    ("openpyxl.xlsx", ["`=SUM(C2:C3)`", "`=B2*C2`", "apples", "2.25",
                       "Formulas with no stored result: 2 cells in rows 1-4 show their formula in backticks"]),
    ("odfpy.ods", ["`=SUM(C2:C3)`", "`=B2*C2`", "apples", "2.25",
                   "Formulas with no stored result: 2 cells in rows 1-4 show their formula in backticks"]),
]


def jpeg_pdf(jpeg, width, height):
    """A one-page PDF whose page is the JPEG, one point per pixel, written object by object."""
    content = f"q {width} 0 0 {height} 0 0 cm /Im0 Do Q".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {width} {height}] "
        f"/Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>".encode(),
        f"<< /Type /XObject /Subtype /Image /Width {width} /Height {height} /ColorSpace /DeviceRGB "
        f"/BitsPerComponent 8 /Filter /DCTDecode /Length {len(jpeg)} >>\nstream\n".encode() + jpeg + b"\nendstream",
        f"<< /Length {len(content)} >>\nstream\n".encode() + content + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def run_photo_pdf(binary, report, photo):
    """The photograph as a PDF page: said to be one, no OCR text, and how long that took."""
    name = "owl.jpg as a PDF page"
    size = subprocess.run(["vipsheader", "-f", "width", photo], capture_output=True, text=True).stdout.strip(), \
        subprocess.run(["vipsheader", "-f", "height", photo], capture_output=True, text=True).stdout.strip()
    with open(photo, "rb") as f:
        jpeg = f.read()
    with tempfile.TemporaryDirectory() as root:
        path = os.path.join(root, "photo.pdf")
        with open(path, "wb") as f:
            f.write(jpeg_pdf(jpeg, int(size[0]), int(size[1])))
        client = Client(binary, [root])
        try:
            started = time.monotonic()
            result = client.read({"file_path": path, "file_type": "text"})
            took = time.monotonic() - started
        finally:
            client.close()
    text = "\n".join(b.get("text", "") for b in result.get("content", []) if b.get("type") == "text")
    if result.get("isError") or "Page 1 looks like a photograph or shading" not in text or "[OCR, " in text:
        report(False, name, f"not said to be a photograph, or OCR text shown: {text[:300]!r}")
    else:
        report(True, name, f"{size[0]}x{size[1]} page said to be a photograph, no OCR text, in {took:.2f} s")


def run(binary, report, photo=None):
    """report(ok, name, why) per file; photo: a real JPEG photograph to wrap in a PDF."""
    if photo:
        run_photo_pdf(binary, report, photo)
    with tempfile.TemporaryDirectory() as root:
        written = subprocess.run(["/usr/bin/python3", "-c", WRITE, root], capture_output=True, text=True)
        if written.returncode != 0:
            report(False, "openpyxl.xlsx, odfpy.ods",
                   "writers: " + (written.stderr.strip().splitlines() or ["failed"])[-1] +
                   " (python3-openpyxl and python3-odf: bash scripts/install-deps.sh --test)")
            return
        client = Client(binary, [root])
        try:
            for name, wanted in EXPECTED:
                result = client.read({"file_path": os.path.join(root, name)})
                text = "\n".join(b.get("text", "") for b in result.get("content", []) if b.get("type") == "text")
                missing = [w for w in wanted if w not in text]
                if result.get("isError") or missing:
                    report(False, name, f"missing {missing}: {text[:300]!r}")
                else:
                    report(True, name, "formulas with no stored result shown and counted")
        finally:
            client.close()
