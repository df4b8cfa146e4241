"""The text formats' corpus checks (text_formats.py) fed made-up answers: each passes the right
answer and fails the wrong ones.

    python3 -m unittest -v test_text_formats      (from tests/corpus; ctest runs it as corpus_checks)
"""
import json
import os
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import text_formats  # noqa: E402


def answer(text, **meta):
    return {"content": [{"type": "text", "text": text}], "_meta": meta}


class TextFormats(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.dir.cleanup()

    def write(self, name, text):
        path = os.path.join(self.dir.name, name)
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        return path

    def test_csv(self):
        path = self.write("a.csv", 'k,v\nx,"1|2"\ny,3\n')
        table = "CSV file a.csv: ...\n\n| Row | k | v |\n| ---: | --- | --- |\n| 2 | x | 1\\|2 |\n| 3 | y | 3 |\n\n[Rows 2-3 of 3.]"
        meta = {"kind": "csv", "delimiter": ",", "header": True}
        self.assertTrue(text_formats.check_csv("", path, answer(table, **meta), "comma:header", {})[0])
        self.assertFalse(text_formats.check_csv("", path, answer(table, **meta), "semicolon", {})[0])
        self.assertFalse(text_formats.check_csv("", path, answer(table, **meta), "comma:noheader", {})[0])
        self.assertFalse(text_formats.check_csv("", path, answer(table.replace("| 3 |\n", "| 4 |\n"), **meta), "comma", {})[0])
        self.assertFalse(text_formats.check_csv("", path, answer(table.replace("| k |", "| A |"), **meta), "comma", {})[0])
        self.assertFalse(text_formats.check_csv("", path, answer(table, **dict(meta, kind="text")), "comma", {})[0])

    def test_json(self):
        path = self.write("a.json", '{"a": [1, 2], "b": "c"}')
        lines = json.dumps({"a": [1, 2], "b": "c"}, indent=2).split("\n")
        text = "\n".join(f"{n:6d}\t{l}" for n, l in enumerate(lines, 1)) + "\n\n[End of file.]"
        self.assertTrue(text_formats.check_json("", path, answer(text, kind="json"), "-", {})[0])
        self.assertFalse(text_formats.check_json("", path, answer(text.replace('"c"', '"d"'), kind="json"), "-", {})[0])
        self.assertFalse(text_formats.check_json("", path, answer(text, kind="text"), "-", {})[0])

    def test_html_wrong_kind(self):
        path = self.write("a.html", "<p>hello world</p>")
        self.assertFalse(text_formats.check_html("", path, answer("x", kind="text"), "0.9", {})[0])


if __name__ == "__main__":
    unittest.main()
