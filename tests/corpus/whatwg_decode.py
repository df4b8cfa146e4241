"""The WHATWG Encoding Standard's decoders, written from the algorithms of its text
(https://encoding.spec.whatwg.org/) over its own index files and label table
(tests/data/whatwg-encoding/): the reference for text in the standard's legacy encodings.
Independent of mcp-read's decoders (encoding_rs) and of Python's codecs, which differ from the
standard (big5hkscs, cp932, cp949, gb18030 each decode some sequences otherwise).

    decode("big5", data) -> str     (a label; errors become U+FFFD; no BOM sniffing)
"""
import bisect
import functools
import json
import os

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "whatwg-encoding")
END = None  # end-of-queue


@functools.lru_cache(maxsize=None)
def _labels():
    with open(os.path.join(DATA, "encodings.json"), encoding="utf-8") as f:
        groups = json.load(f)
    return {label: e["name"] for g in groups for e in g["encodings"] for label in e["labels"]}


def encoding_of(label):
    """The standard's encoding name for a label, or None when it has none."""
    return _labels().get(label.strip().lower())


@functools.lru_cache(maxsize=None)
def _index(name):
    table = {}
    with open(os.path.join(DATA, f"index-{name}.txt"), encoding="utf-8") as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                pointer, code = line.split()[:2]
                table[int(pointer)] = int(code, 16)
    return table


@functools.lru_cache(maxsize=None)
def _ranges():
    pairs = sorted(_index("gb18030-ranges").items())
    return [p for p, _ in pairs], [c for _, c in pairs]


def _ranges_code_point(pointer):
    if 39419 < pointer < 189000 or pointer > 1237575:
        return None
    if pointer == 7457:
        return 0xE7C7
    pointers, codes = _ranges()
    i = bisect.bisect_right(pointers, pointer) - 1
    return codes[i] + pointer - pointers[i]


class _Queue:
    def __init__(self, data):
        self.data, self.at, self.restored = data, 0, []

    def read(self):
        if self.restored:
            return self.restored.pop()
        if self.at == len(self.data):
            return END  # stays in the queue
        self.at += 1
        return self.data[self.at - 1]

    def restore(self, *items):
        self.restored.extend(reversed(items))


ERROR, CONTINUE, FINISHED = "error", "continue", "finished"


def _ascii(b):
    return b is not END and b <= 0x7F


def _in(b, lo, hi):
    return b is not END and lo <= b <= hi


def _single_byte(name):
    table = _index(name.lower())

    def handler(q, b):
        if b is END:
            return FINISHED
        if b <= 0x7F:
            return [b]
        c = table.get(b - 0x80)
        return ERROR if c is None else [c]
    return handler


def _gb18030():
    s = {"first": 0, "second": 0, "third": 0}
    table = _index("gb18030")

    def handler(q, b):
        if b is END and s["first"] == s["second"] == s["third"] == 0:
            return FINISHED
        if b is END:
            s.update(first=0, second=0, third=0)
            return ERROR
        if s["third"]:
            if not _in(b, 0x30, 0x39):
                q.restore(s["second"], s["third"], b)
                s.update(first=0, second=0, third=0)
                return ERROR
            c = _ranges_code_point((s["first"] - 0x81) * 12600 + (s["second"] - 0x30) * 1260
                                   + (s["third"] - 0x81) * 10 + b - 0x30)
            s.update(first=0, second=0, third=0)
            return ERROR if c is None else [c]
        if s["second"]:
            if _in(b, 0x81, 0xFE):
                s["third"] = b
                return CONTINUE
            q.restore(s["second"], b)
            s.update(first=0, second=0)
            return ERROR
        if s["first"]:
            if _in(b, 0x30, 0x39):
                s["second"] = b
                return CONTINUE
            leading, s["first"] = s["first"], 0
            offset = 0x40 if b < 0x7F else 0x41
            c = None
            if _in(b, 0x40, 0x7E) or _in(b, 0x80, 0xFE):
                c = table.get((leading - 0x81) * 190 + b - offset)
            if c is not None:
                return [c]
            if _ascii(b):
                q.restore(b)
            return ERROR
        if b <= 0x7F:
            return [b]
        if b == 0x80:
            return [0x20AC]
        if _in(b, 0x81, 0xFE):
            s["first"] = b
            return CONTINUE
        return ERROR
    return handler


def _one_leading(pointer_of, index, lead_ok, single=None, special=None):
    """Big5, EUC-KR and Shift_JIS: a leading byte, then a pointer from the trailing byte."""
    s = {"leading": 0}
    table = _index(index)

    def handler(q, b):
        if b is END and s["leading"]:
            s["leading"] = 0
            return ERROR
        if b is END:
            return FINISHED
        if s["leading"]:
            leading, s["leading"] = s["leading"], 0
            pointer = pointer_of(leading, b)
            if special is not None:
                found = special(pointer)
                if found is not None:
                    return found
            c = None if pointer is None else table.get(pointer)
            if c is not None:
                return [c]
            if _ascii(b):
                q.restore(b)
            return ERROR
        if single is not None:
            found = single(b)
            if found is not None:
                return found
        elif b <= 0x7F:
            return [b]
        if lead_ok(b):
            s["leading"] = b
            return CONTINUE
        return ERROR
    return handler


def _big5():
    def pointer(leading, b):
        if _in(b, 0x40, 0x7E) or _in(b, 0xA1, 0xFE):
            return (leading - 0x81) * 157 + b - (0x40 if b < 0x7F else 0x62)
        return None
    pairs = {1133: [0xCA, 0x304], 1135: [0xCA, 0x30C], 1164: [0xEA, 0x304], 1166: [0xEA, 0x30C]}
    return _one_leading(pointer, "big5", lambda b: _in(b, 0x81, 0xFE), special=pairs.get)


def _euc_kr():
    def pointer(leading, b):
        return (leading - 0x81) * 190 + b - 0x41 if _in(b, 0x41, 0xFE) else None
    return _one_leading(pointer, "euc-kr", lambda b: _in(b, 0x81, 0xFE))


def _shift_jis():
    def pointer(leading, b):
        if _in(b, 0x40, 0x7E) or _in(b, 0x80, 0xFC):
            return (leading - (0x81 if leading < 0xA0 else 0xC1)) * 188 + b - (0x40 if b < 0x7F else 0x41)
        return None

    def eudc(p):
        return [0xE000 - 8836 + p] if p is not None and 8836 <= p <= 10715 else None

    def single(b):
        if b <= 0x80:
            return [b]
        if 0xA1 <= b <= 0xDF:
            return [0xFF61 - 0xA1 + b]
        return None
    return _one_leading(pointer, "jis0208", lambda b: _in(b, 0x81, 0x9F) or _in(b, 0xE0, 0xFC),
                        single=single, special=eudc)


def _euc_jp():
    s = {"leading": 0, "jis0212": False}
    jis0208, jis0212 = _index("jis0208"), _index("jis0212")

    def handler(q, b):
        if b is END and s["leading"]:
            s["leading"] = 0
            return ERROR
        if b is END:
            return FINISHED
        if s["leading"] == 0x8E and _in(b, 0xA1, 0xDF):
            s["leading"] = 0
            return [0xFF61 - 0xA1 + b]
        if s["leading"] == 0x8F and _in(b, 0xA1, 0xFE):
            s.update(jis0212=True, leading=b)
            return CONTINUE
        if s["leading"]:
            leading, s["leading"] = s["leading"], 0
            c = None
            if _in(leading, 0xA1, 0xFE) and _in(b, 0xA1, 0xFE):
                c = (jis0212 if s["jis0212"] else jis0208).get((leading - 0xA1) * 94 + b - 0xA1)
            s["jis0212"] = False
            if c is not None:
                return [c]
            if _ascii(b):
                q.restore(b)
            return ERROR
        if b <= 0x7F:
            return [b]
        if b in (0x8E, 0x8F) or 0xA1 <= b <= 0xFE:
            s["leading"] = b
            return CONTINUE
        return ERROR
    return handler


def _iso_2022_jp():
    s = {"state": "ascii", "output_state": "ascii", "leading": 0, "output": False}
    jis0208 = _index("jis0208")

    def text(b):
        if b == 0x1B:
            s["state"] = "escape start"
            return CONTINUE
        if b is END:
            return FINISHED
        s["output"] = False
        state = s["state"]
        if state == "ascii":
            return [b] if b <= 0x7F and b not in (0x0E, 0x0F) else ERROR
        if state == "roman":
            if b == 0x5C:
                return [0xA5]
            if b == 0x7E:
                return [0x203E]
            return [b] if b <= 0x7F and b not in (0x0E, 0x0F) else ERROR
        if state == "katakana":
            return [0xFF61 - 0x21 + b] if 0x21 <= b <= 0x5F else ERROR
        if 0x21 <= b <= 0x7E:  # leading byte
            s.update(leading=b, state="trailing byte")
            return CONTINUE
        return ERROR

    def handler(q, b):
        state = s["state"]
        if state in ("ascii", "roman", "katakana", "leading byte"):
            return text(b)
        if state == "trailing byte":
            if b == 0x1B:
                s["state"] = "escape start"
                return ERROR
            s["state"] = "leading byte"
            if _in(b, 0x21, 0x7E):
                c = jis0208.get((s["leading"] - 0x21) * 94 + b - 0x21)
                return ERROR if c is None else [c]
            return ERROR
        if state == "escape start":
            if b in (0x24, 0x28):
                s.update(leading=b, state="escape")
                return CONTINUE
            if b is not END:
                q.restore(b)
            s.update(output=False, state=s["output_state"])
            return ERROR
        leading, s["leading"] = s["leading"], 0  # escape
        new = {(0x28, 0x42): "ascii", (0x28, 0x4A): "roman", (0x28, 0x49): "katakana",
               (0x24, 0x40): "leading byte", (0x24, 0x42): "leading byte"}.get((leading, b))
        if new is not None:
            output = s["output"]
            s.update(state=new, output_state=new, output=True)
            return ERROR if output else CONTINUE
        if b is END:
            q.restore(leading)
        else:
            q.restore(leading, b)
        s.update(output=False, state=s["output_state"])
        return ERROR
    return handler


def _utf_16(big_endian):
    s = {"byte": None, "surrogate": None}

    def handler(q, b):
        if b is END and (s["byte"] is not None or s["surrogate"] is not None):
            s.update(byte=None, surrogate=None)
            return ERROR
        if b is END:
            return FINISHED
        if s["byte"] is None:
            s["byte"] = b
            return CONTINUE
        unit = (s["byte"] << 8) + b if big_endian else (b << 8) + s["byte"]
        s["byte"] = None
        if s["surrogate"] is not None:
            lead, s["surrogate"] = s["surrogate"], None
            if 0xDC00 <= unit <= 0xDFFF:
                return [0x10000 + ((lead - 0xD800) << 10) + unit - 0xDC00]
            pair = (unit >> 8, unit & 0xFF)
            q.restore(*(pair if big_endian else reversed(pair)))
            return ERROR
        if 0xD800 <= unit <= 0xDBFF:
            s["surrogate"] = unit
            return CONTINUE
        return ERROR if 0xDC00 <= unit <= 0xDFFF else [unit]
    return handler


def _decoder(encoding):
    multi = {"GBK": _gb18030, "gb18030": _gb18030, "Big5": _big5, "EUC-JP": _euc_jp,
             "ISO-2022-JP": _iso_2022_jp, "Shift_JIS": _shift_jis, "EUC-KR": _euc_kr,
             "UTF-16BE": lambda: _utf_16(True), "UTF-16LE": lambda: _utf_16(False)}
    if encoding in multi:
        return multi[encoding]()
    if encoding == "ISO-8859-8-I":
        return _single_byte("ISO-8859-8")
    if encoding in ("UTF-8", "replacement", "x-user-defined") or encoding is None:
        raise ValueError(f"no legacy decoder for {encoding}")
    return _single_byte(encoding)


def is_legacy(label):
    """True when the label names one of the standard's encodings decoded here."""
    return encoding_of(label) not in (None, "UTF-8", "replacement", "x-user-defined")


def decode(label, data):
    """`data` (bytes, the whole stream) decoded as the standard's decoder for `label` does."""
    handler = _decoder(encoding_of(label))
    queue = _Queue(data)
    out = []
    while True:
        result = handler(queue, queue.read())
        if result is FINISHED:
            break
        if result is ERROR:
            out.append("\uFFFD")
        elif result is not CONTINUE:
            out.extend(map(chr, result))
    return "".join(out)
