"""The corpus checks of Hangul word processor documents (HWP 5.0): mcp-read's words against an
independent reading. Where the document has an HWPML twin (the .hml beside it, Hancom's own XML
export of the same document), its text: the <CHAR> elements of its <BODY>, read by ElementTree,
compared as word agreement 2|A∩B| / (|A|+|B|). Otherwise the PrvText stream, the plain-text preview
Hangul writes into every HWP 5 file (UTF-16LE, cut after about a thousand characters), read from
the compound file by the small reader below (Python's standard library has none): the share of its
words that mcp-read's text holds, since the preview is only the start. Adds itself to
checks.CHECKS."""

import collections
import os
import struct
import xml.etree.ElementTree as ElementTree

import checks


# HWPML's special characters inside <CHAR>: as spaces, and a hyphen as one.
HML_SPACES = {"TAB", "LINEBREAK", "NBSPACE", "FWSPACE"}


def _hml_char(char):
    out = [char.text or ""]
    for child in char:
        out.append("-" if child.tag == "HYPEN" else " " if child.tag in HML_SPACES else "")
        out.append(child.tail or "")
    return "".join(out)


def _hml_text(path):
    """The text of every paragraph (<P>) of the <BODY>, its runs (<CHAR>, one per character
    shape, so a word may be split between two) joined, a paragraph a line."""
    body = ElementTree.parse(path).getroot().find("BODY")
    if body is None:
        return ""
    return "\n".join("".join(_hml_char(char) for text in p.findall("TEXT") for char in text.findall("CHAR"))
                     for p in body.iter("P"))


def ole2_stream(path, wanted):
    """The top-level stream `wanted` of an OLE2 compound file ([MS-CFB]: the FAT through the header's
    DIFAT and its chain, the directory, the mini stream for streams under the cutoff); None when
    missing."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1":
        return None
    sector = 1 << struct.unpack_from("<H", data, 30)[0]
    mini = 1 << struct.unpack_from("<H", data, 32)[0]
    first_dir, cutoff, first_minifat, _, first_difat, difat_count = struct.unpack_from("<I4xIIIII", data, 48)

    def at(n):
        return data[(n + 1) * sector:(n + 2) * sector]

    difat = list(struct.unpack_from("<109I", data, 76))
    n = first_difat
    for _ in range(difat_count):
        entries = struct.unpack(f"<{sector // 4}I", at(n))
        difat += entries[:-1]
        n = entries[-1]
    fat = []
    for n in difat:
        if n < 0xFFFFFFFA:
            fat += struct.unpack(f"<{sector // 4}I", at(n))

    def chain(n, table, size):
        out, seen = [], set()
        while n < 0xFFFFFFFA and n < len(table) and n not in seen:
            seen.add(n)
            out.append(n)
            n = table[n]
        return out

    directory = b"".join(at(n) for n in chain(first_dir, fat, sector))
    entries = [directory[i:i + 128] for i in range(0, len(directory), 128)]
    root_start, root_size = struct.unpack_from("<IQ", entries[0], 116)
    ministream = b"".join(at(n) for n in chain(root_start, fat, sector))
    minifat_bytes = b"".join(at(n) for n in chain(first_minifat, fat, sector))
    minifat = list(struct.unpack(f"<{len(minifat_bytes) // 4}I", minifat_bytes))
    for entry in entries[1:]:
        name_length = struct.unpack_from("<H", entry, 64)[0]
        name = entry[:max(name_length - 2, 0)].decode("utf-16-le", "replace")
        if entry[66] != 2 or name != wanted:
            continue
        start, size = struct.unpack_from("<IQ", entry, 116)
        if size < cutoff:
            blob = b"".join(ministream[n * mini:(n + 1) * mini] for n in chain(start, minifat, mini))
        else:
            blob = b"".join(at(n) for n in chain(start, fat, sector))
        return blob[:size]
    return None


def _preview_text(path):
    stream = ole2_stream(path, "PrvText")
    if stream is None:
        raise RuntimeError("the file has no PrvText stream")
    return stream.decode("utf-16-le", "replace")


def check_hwp(root, path, result, reference, arguments):
    """reference: the least word agreement with the .hml twin's text, or (no twin) the least share of
    the PrvText preview's words that mcp-read's text holds."""
    twin = os.path.splitext(path)[0] + ".hml"
    hml = os.path.exists(twin)
    plain, failure = checks._anchor_text(result, lambda: _hml_text(twin) if hml else _preview_text(path),
                                         "the reference failed")
    if failure:
        return failure
    text = "\n".join(checks.texts(result)).split("\n", 1)[-1]  # without the header naming the format
    ours = checks._office_words(text)
    if hml:
        return checks._word_agreement(ours, plain, reference, "the HWPML twin", result, "next_offset")
    # The preview is the document's start: a long document's first answer holds it.
    theirs = collections.Counter(w.lower() for w in checks.WORD.findall(plain))
    share = 1.0 if not theirs else sum((ours & theirs).values()) / sum(theirs.values())
    if share < float(reference):
        missing = list((theirs - ours).elements())[:8]
        return False, f"share of PrvText's words held {share:.3f} < {reference}; missing: {missing}"
    return True, f"{sum(theirs.values())} PrvText words, share held {share:.3f}"


checks.CHECKS["hwp"] = check_hwp
