"""Checks of the readers of text-based formats (CSV/TSV, JSON, HTML, FictionBook, e-mail) against
references that do not come from mcp-read: Python's csv module reading the file with the
delimiter a person sees in it, Python's json module, pandoc's plain text of the page,
ElementTree's text of the book, and Python's email package.
"""
import collections
import csv
import email
import email.policy
import html.parser
import json
import os
import re
import subprocess
import tempfile
from xml.etree import ElementTree

import checks

DELIMITERS = {"comma": ",", "tab": "\t", "semicolon": ";", "bar": "|"}
NUMBERED = re.compile(r"^ *\d+\t(.*)$")


def _meta(result):
    return result.get("_meta", {})


def _wrong_kind(result, kind):
    got = _meta(result).get("kind")
    return None if got == kind else (False, f"read as {got}, not as {kind}")


def check_csv(root, path, result, reference, arguments):
    """reference: `<delimiter>[:header|:noheader]` (comma, tab, semicolon, bar): the delimiter and,
    when given, whether the first row is a header, as a person sees them in the file. Every cell
    Python's csv module reads with that delimiter must be in the table, and nothing else."""
    if result.get("isError"):
        return False, checks.refusal(result)
    if wrong := _wrong_kind(result, "csv"):
        return wrong
    name, _, header = reference.partition(":")
    meta = _meta(result)
    if meta.get("delimiter") != DELIMITERS[name]:
        return False, f"delimiter {meta.get('delimiter')!r}, not the {name}"
    if header and meta.get("header") != (header == "header"):
        return False, f"header {meta.get('header')}, expected {header}"
    if meta.get("next_offset"):
        return False, "the table does not fit one answer; the check compares whole files"
    with open(path, newline="", encoding=meta.get("charset", "utf-8").lower().replace("utf-8", "utf-8-sig"),
              errors="replace") as f:
        rows = list(csv.reader(f, delimiter=DELIMITERS[name]))
    text = "\n".join(checks.texts(result))
    if meta.get("header"):
        names, rows = rows[0], rows[1:]
        head = next((l for l in text.split("\n") if l.startswith("| Row |")), "| Row |  |")
        shown = [c.replace("\\|", "|").strip() for c in re.split(r"(?<!\\) \| ", head[2:-2])[1:]]
        # A name left empty is shown as the column's letters.
        if any(n.strip() and (i >= len(shown) or checks._cell_value(shown[i]) != checks._cell_value(n))
               for i, n in enumerate(names)):
            return False, f"the table's head {shown[:6]} is not the header row {names[:6]}"
    theirs = collections.Counter(checks._cell_value(c) for row in rows for c in row if c.strip())
    ours = checks.sheet_cells(text)
    if ours != theirs:
        return False, f"cells differ: missing {list((theirs - ours).elements())[:5]}, extra {list((ours - theirs).elements())[:5]}"
    return True, f"{len(rows)} rows, {sum(theirs.values())} cells as Python's csv reads them"


def check_json(root, path, result, reference, arguments):
    """reference: -  (the numbered pretty-printed lines, numbers stripped, parse as JSON to the
    same document as the file read by Python's json module)."""
    if result.get("isError"):
        return False, checks.refusal(result)
    if wrong := _wrong_kind(result, "json"):
        return wrong
    if _meta(result).get("next_offset"):
        return False, "the document does not fit one answer; the check compares whole files"
    lines = [m.group(1) for l in "\n".join(checks.texts(result)).split("\n") if (m := NUMBERED.match(l))]
    try:
        ours = json.loads("\n".join(lines))
    except ValueError as error:
        return False, f"the pretty-printed lines are not JSON: {error}"
    with open(path, encoding="utf-8-sig") as f:
        theirs = json.load(f)
    if ours != theirs:
        return False, "the pretty-printed document differs from the file's"
    return True, f"{len(lines)} lines, the same document as Python's json reads"


def _page_words(text):
    """mcp-read's page text as words, without its header line, closing note and link targets."""
    lines = [l for l in text.split("\n")[1:] if not l.startswith("[Lines ")]
    body = re.sub(r"\]\([^)\s]*\)", "]", "\n".join(lines)).replace("<br>", " ")
    body = re.sub(r"^\s*(#+|-|\d+\.)\s", " ", body, flags=re.M)
    return collections.Counter(w.lower() for w in checks.WORD.findall(body))


def check_html(root, path, result, reference, arguments):
    """reference: the least word agreement with `pandoc -t plain` of the page."""
    if wrong := (None if result.get("isError") else _wrong_kind(result, "html")):
        return wrong
    plain, failure = checks._anchor_text(result, lambda: checks._pandoc_plain(path), "pandoc failed")
    if failure:
        return failure
    return checks._word_agreement(_page_words("\n".join(checks.texts(result))), plain, reference, "pandoc", result,
                                  "next_offset")


# An entity reference XML does not define (fbreader's help files write &FBReaderVersion;).
UNDEFINED_ENTITY = re.compile(rb"&(?!(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);)")


def fb2_text(path):
    """The book's text as Python's ElementTree reads it: the title-info's title, authors and
    annotation, and every body's text (notes included), the binaries left out. (pandoc 2.17 keeps
    to the FictionBook schema and drops paragraphs written straight into a body, as fbreader's
    help books are.) An undefined entity is read as the text it stands as; mcp-read shows it so."""
    with open(path, "rb") as f:
        root = ElementTree.fromstring(UNDEFINED_ENTITY.sub(b"&amp;", f.read()))
    def local(element):
        return element.tag.rpartition("}")[2]
    parts = []
    for element in root.iter():
        name = local(element)
        if name == "title-info":
            parts += ["".join(e.itertext()) for e in element
                      if local(e) in ("book-title", "author", "annotation")]
        elif name == "body":
            parts.append("".join(element.itertext()))
    return "\n".join(parts)


def fb2_words(text):
    """mcp-read's book text as words (checks._office_words), emphasis and code marks and link
    brackets out first: between two scripts' letters (如`epub`, 采用[GNU GPL](…)条款) they split a
    word. bench/kreuzberg.py counts with it too."""
    text = re.sub(r"[`*~]", "", text)
    return checks._office_words(re.sub(r"\[([^\]^]*)\]\([^)\s]*\)", r"\1", text))


def check_fb2(root, path, result, reference, arguments):
    """reference: the least word agreement with the book's text read by ElementTree (2|A∩B| / (|A|+|B|))."""
    if wrong := (None if result.get("isError") else _wrong_kind(result, "fb2")):
        return wrong
    plain, failure = checks._anchor_text(result, lambda: fb2_text(path), "ElementTree failed")
    if failure:
        return failure
    return checks._word_agreement(fb2_words("\n".join(checks.texts(result))), plain, reference, "ElementTree", result,
                                  "next_offset")


class _HtmlWords(html.parser.HTMLParser):
    """The text of an HTML body, scripts and styles left out."""

    def __init__(self):
        super().__init__()
        self.parts, self._skip = [], 0

    def handle_starttag(self, tag, attrs):
        self._skip += tag in ("script", "style", "head")

    def handle_endtag(self, tag):
        self._skip -= self._skip > 0 and tag in ("script", "style", "head")

    def handle_data(self, data):
        if not self._skip:
            self.parts.append(data)


def email_text(path):
    """What Python's email package (policy.default) reads in the message: the decoded From, To, Cc,
    Reply-To, Date and Subject and the body it prefers (plain, else HTML as text); and the
    attachments' file names."""
    with open(path, "rb") as f:
        message = email.message_from_binary_file(f, policy=email.policy.default)
    out = [str(message[h]) for h in ("From", "To", "Cc", "Reply-To", "Date", "Subject") if message[h] is not None]
    body = message.get_body(preferencelist=("plain", "html"))
    if body is not None:
        content = body.get_content()
        if body.get_content_subtype() == "html":
            parser = _HtmlWords()
            parser.feed(content)
            content = " ".join(parser.parts)
        out.append(content)
    return "\n".join(out), [a.get_filename() for a in message.iter_attachments() if a.get_filename()]


def mail_words(text):
    """mcp-read's answer for a message as the words of its headers and body (the heading, the
    attachments' section and the notes are its own), and the attachment names it lists.
    bench/kreuzberg.py counts with it too."""
    lines = text.split("\n")[1:]
    section = next((i for i, l in enumerate(lines) if re.match(r"^\d+ attachments?, each read by its path:$", l)),
                   len(lines))
    listed = set(re.findall(r"^- \S*/([^/]+?) \(", "\n".join(lines[section:]), flags=re.M))
    body = [l for l in lines[:section] if not l.startswith(("[Lines ", "[Left out"))]
    return collections.Counter(w.lower() for w in checks.WORD.findall("\n".join(body))), listed


def check_mail(root, path, result, reference, arguments):
    """reference: the least word agreement with Python's email package (headers and preferred
    body); every attachment file name it reads must be listed too. Read with file_type=mail for
    messages named .txt."""
    return _check_message(result, reference, "mail", lambda: email_text(path), "Python's email")


def msgconvert_eml(path):
    """The .eml `msgconvert` (libemail-outlook-message-perl) makes of an Outlook message, read as
    email_text() reads a message."""
    with tempfile.TemporaryDirectory(prefix="corpus-msg-") as work:
        eml = os.path.join(work, "message.eml")
        subprocess.run(["msgconvert", "--outfile", eml, path], capture_output=True, check=True, timeout=120)
        return email_text(eml)


def check_msg(root, path, result, reference, arguments):
    """reference: the least word agreement of the headers and body with the .eml `msgconvert`
    makes, read by Python's email package as for mail rows; every attachment file name in it must
    be listed too."""
    return _check_message(result, reference, "msg", lambda: msgconvert_eml(path), "msgconvert")


def _check_message(result, reference, kind, read_theirs, tool):
    """A message's answer against `tool`'s reading of it (read_theirs(): its words and the file
    names of its attachments): the word agreement, and every attachment listed."""
    if wrong := (None if result.get("isError") else _wrong_kind(result, kind)):
        return wrong
    read, failure = checks._anchor_text(result, read_theirs, f"{tool} failed")
    if failure:
        return failure
    theirs, names = read
    ours, listed = mail_words("\n".join(checks.texts(result)))
    lacking = [n for n in names if n not in listed]
    if lacking:
        return False, f"attachments {tool} names are not listed: {lacking}"
    return checks._word_agreement(ours, theirs, reference, tool, result, "next_offset")


checks.CHECKS.update({"csv": check_csv, "json": check_json, "html": check_html, "fb2": check_fb2, "mail": check_mail,
                      "msg": check_msg})
