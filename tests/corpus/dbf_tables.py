"""The corpus checks of dBASE tables (.dbf): mcp-read's cells against those Python's dbfread
(python3-dbfread, which shares no code with the reader) reads: the field names, then every
record's values, deleted records left out; dates as YYYY-MM-DD, logicals as TRUE/FALSE, memo
text from the .dbt/.fpt beside the table. Compared as the spreadsheet rows are (checks.sheet_cells:
numbers at 10 significant digits). Adds itself to checks.CHECKS."""

import collections
import datetime
import os

import checks


def _value(value):
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, datetime.datetime):
        return value.strftime("%Y-%m-%d %H:%M:%S")
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, bytes):
        return ""  # a binary memo: mcp-read names its size only
    return str(value)


def dbfread_cells(path, encoding=None):
    """dbfread's field names and values: in `encoding` when given (a table whose header names no
    code page), else in the charset a .cpg beside the table names, else in its code page's."""
    try:
        import dbfread  # python3-dbfread
    except ImportError:  # Debian's package, under a Python of another prefix
        import sys
        sys.path.append("/usr/lib/python3/dist-packages")
        import dbfread
    cpg = os.path.splitext(path)[0] + ".cpg"
    if not encoding and os.path.exists(cpg):
        with open(cpg, encoding="ascii", errors="replace") as f:
            encoding = f.read().strip() or None
    table = dbfread.DBF(path, encoding=encoding, char_decode_errors="replace", ignore_missing_memofile=True)
    cells = collections.Counter(checks._cell_value(name) for name in table.field_names
                                if name != "_NullFlags")
    for record in table:
        for name, value in record.items():
            if name == "_NullFlags":
                continue
            text = _value(value).strip()
            if text:
                cells[checks._cell_value(text)] += 1
    return cells


def check_dbf(root, path, result, reference, arguments):
    """reference: the least value agreement with dbfread's field names and values, then
    optionally `:charset`, the charset the text is in when the table does not say it."""
    reference, _, encoding = reference.partition(":")
    if result.get("isError"):
        return False, checks.refusal(result)
    text = "\n".join(checks.texts(result))
    if result.get("_meta", {}).get("next_offset") or "call read again" in text:
        return False, "the table does not fit one answer; the check compares whole tables"
    ours = checks.sheet_cells(text)
    try:
        theirs = dbfread_cells(path, encoding or None)
    except Exception as error:  # dbfread raises its own errors and ValueError on bad fields
        return False, f"reference failed: {error}"
    total = sum(ours.values()) + sum(theirs.values())
    agreement = 1.0 if total == 0 else 2 * sum((ours & theirs).values()) / total
    if agreement < float(reference):
        missing = list((theirs - ours).elements())[:8]
        extra = list((ours - theirs).elements())[:8]
        return False, f"value agreement {agreement:.3f} < {reference}; cells missing: {missing}; extra: {extra}"
    return True, f"{sum(theirs.values())} cells, value agreement {agreement:.3f}"


checks.CHECKS.update({"dbf": check_dbf})
