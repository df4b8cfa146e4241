"""Workbooks written on the spot by the spreadsheet writers Debian ships, which store formulas
without calculating them: openpyxl (XLSX) and odfpy (ODS). Read through mcp-read, a formula with
no stored result must show its formula (in backticks) and the page's note must count it; the
cells that hold values keep them.

Run by run.py after the files (with no --only, and --kind xlsx, ods or none). The writers are
Debian's python3-openpyxl and python3-odf, so this runs with Debian's own /usr/bin/python3.
"""
import os
import subprocess
import tempfile

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


def run(binary, report):
    """report(ok, name, why) per workbook; returns nothing."""
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
