#!/usr/bin/env python3
"""Writes a large XLSX for the streaming measurement of bench/sheets-agreement.py --big: one sheet
of ROWS rows (default 1,000,000) and 8 columns: a row number, a date, an amount with thousands
and 2 decimals, a category from a 1,000-string shared table, a quantity, a ratio in General, a
percentage and a short inline string. With the defaults the file is about 59 MB (about 320 MB
of worksheet XML).

Usage: bench/gen-sheet.py OUT.xlsx [ROWS]
"""
import random
import sys
import zipfile

NS = ('xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
      'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"')
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"


def main():
    out = sys.argv[1]
    rows = int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000
    rng = random.Random(20261125)
    categories = [f"category {i:04d} {rng.choice(['north', 'south', 'east', 'west'])}" for i in range(1000)]
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as z:
        ct = "application/vnd.openxmlformats-officedocument.spreadsheetml."
        z.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/'
                   'package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/>'
                   '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
                   f'<Override PartName="/xl/workbook.xml" ContentType="{ct}sheet.main+xml"/>'
                   f'<Override PartName="/xl/worksheets/sheet1.xml" ContentType="{ct}worksheet+xml"/>'
                   f'<Override PartName="/xl/sharedStrings.xml" ContentType="{ct}sharedStrings+xml"/>'
                   f'<Override PartName="/xl/styles.xml" ContentType="{ct}styles+xml"/></Types>')
        z.writestr("_rels/.rels", f'<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/'
                   f'package/2006/relationships"><Relationship Id="rId1" Type="{REL}officeDocument" '
                   f'Target="xl/workbook.xml"/></Relationships>')
        z.writestr("xl/workbook.xml", f'<?xml version="1.0"?><workbook {NS}><sheets><sheet name="Data" sheetId="1" '
                   f'r:id="rId1"/></sheets></workbook>')
        z.writestr("xl/_rels/workbook.xml.rels", f'<?xml version="1.0"?><Relationships xmlns="http://schemas.'
                   f'openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="{REL}worksheet" '
                   f'Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="{REL}sharedStrings" '
                   f'Target="sharedStrings.xml"/><Relationship Id="rId3" Type="{REL}styles" Target="styles.xml"/>'
                   f'</Relationships>')
        z.writestr("xl/styles.xml", f'<?xml version="1.0"?><styleSheet {NS}><cellXfs count="4"><xf numFmtId="0"/>'
                   f'<xf numFmtId="14"/><xf numFmtId="4"/><xf numFmtId="10"/></cellXfs></styleSheet>')
        z.writestr("xl/sharedStrings.xml", f'<?xml version="1.0"?><sst {NS} count="{len(categories)}">' +
                   "".join(f"<si><t>{c}</t></si>" for c in categories) + "</sst>")
        with z.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as f:
            f.write(f'<?xml version="1.0" encoding="UTF-8"?><worksheet {NS}><dimension ref="A1:H{rows}"/>'
                    f'<sheetData>'.encode())
            batch = []
            for r in range(1, rows + 1):
                batch.append(
                    f'<row r="{r}"><c r="A{r}"><v>{r}</v></c><c r="B{r}" s="1"><v>{40000 + rng.randrange(9000)}</v></c>'
                    f'<c r="C{r}" s="2"><v>{rng.random() * 1e6:.4f}</v></c>'
                    f'<c r="D{r}" t="s"><v>{rng.randrange(1000)}</v></c><c r="E{r}"><v>{rng.randrange(1000)}</v></c>'
                    f'<c r="F{r}"><v>{rng.random():.3f}</v></c><c r="G{r}" s="3"><v>{rng.random():.3f}</v></c>'
                    f'<c r="H{r}" t="inlineStr"><is><t>item {rng.randrange(10**4):04d}</t></is></c></row>')
                if len(batch) == 10000:
                    f.write("".join(batch).encode())
                    batch = []
            f.write(("".join(batch) + "</sheetData></worksheet>").encode())


if __name__ == "__main__":
    main()
