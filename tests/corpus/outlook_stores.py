"""The corpus checks of Outlook data files (.pst, .ost): mcp-read's listing against libpst's
`readpst` (pst-utils), which shares no code with libpff. readpst writes each item it knows (mail,
appointments, contacts, journal entries) as a file of its folder; each must be listed in the
folder of the same path (below the top one, which the two name differently) with the same words
in its subject (the mail's Subject, the event's SUMMARY, the card's FN). The agreement is the
share of readpst's items found. Adds itself to checks.CHECKS."""

import os
import re
import subprocess
import tempfile

import checks

_FIELD = re.compile(r"^(?:Subject|SUMMARY|FN):\s?(.*)$", re.M)


def _words(text):
    return sorted(re.findall(r"\w+", text.replace("\\,", ",").lower()))


def _reference(path):
    """(folder below the top, subject words) of every item readpst writes."""
    items = []
    with tempfile.TemporaryDirectory() as out:
        subprocess.run(["readpst", "-S", "-D", "-b", "-q", "-o", out, path], capture_output=True, check=True,
                       timeout=600)
        for folder, _, files in os.walk(out):
            below = os.path.relpath(folder, out).split(os.sep)[1:]
            for name in files:
                with open(os.path.join(folder, name), "rb") as f:
                    found = _FIELD.search(f.read().decode("utf-8", "replace"))
                items.append(("/".join(below), _words(found.group(1) if found else "")))
    return items


def _listed(result):
    """(folder below the top, subject words) of every message the listing shows."""
    listed, folder = [], None
    for line in "\n".join(checks.texts(result)).split("\n")[1:]:
        head = re.match(r"^\s*(.+)/ — \d+ messages?$", line)
        if head:
            folder = "/".join(head.group(1).split("/")[1:])
        elif folder is not None and re.match(r"^\s*\d+\. ", line) and line.count(" | ") >= 2:
            listed.append((folder, _words(line.split(" | ", 2)[2])))
    return listed


def check_pst(root, path, result, reference, arguments):
    """reference: the least share of readpst's items the listing shows (see above)."""
    items, failure = checks._anchor_text(result, lambda: _reference(path), "readpst failed")
    if failure:
        return failure
    listed = _listed(result)
    if not items:
        return False, "readpst wrote no item: nothing to compare"
    found = sum(1 for item in items if item in listed)
    agreement = found / len(items)
    if agreement < float(reference):
        missing = [i for i in items if i not in listed][:3]
        return False, f"{found} of readpst's {len(items)} items listed ({agreement:.3f} < {reference}); first missing: {missing}"
    meta = result.get("_meta", {})
    return True, (f"{meta.get('folders')} folders, {meta.get('messages')} messages; {found} of readpst's "
                  f"{len(items)} items listed, agreement {agreement:.3f}")


checks.CHECKS.update({"pst": check_pst})
