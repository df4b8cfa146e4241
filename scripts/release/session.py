#!/usr/bin/env python3
"""The portability proof's MCP session: starts the server command given (the bundle inside a
root, through in-root.sh), talks MCP over its stdio, reads each fixture (fixtures.py, already
in the server's root folder) and checks every answer: content types, text, image sizes.
Exits 1 naming each failed check.

  session.py <folder the fixtures are written to> -- <server command...>
"""
import base64
import json
import struct
import subprocess
import sys
import threading

import fixtures

failures = []


def check(ok, what):
    print(("  ok    " if ok else "  FAIL  ") + what, flush=True)
    if not ok:
        failures.append(what)
    return ok


class Session:
    def __init__(self, command):
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.next_id = 0
        # A server that hangs fails the proof instead of hanging it: killed after 180 s, its
        # output ends and the pending request fails.
        self.watchdog = threading.Timer(180, self.proc.kill)
        self.watchdog.start()

    def request(self, method, params=None):
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            message["params"] = params
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"the server closed its output during {method} (exit {self.proc.wait()})")
            answer = json.loads(line)
            if answer.get("id") == self.next_id:
                return answer
            if "method" in answer and "id" in answer:  # a request to the client (roots/list)
                self.proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": answer["id"], "result": {"roots": []}}) + "\n")
                self.proc.stdin.flush()

    def notify(self, method):
        self.proc.stdin.write(json.dumps({"jsonrpc": "2.0", "method": method}) + "\n")
        self.proc.stdin.flush()

    def read(self, path, **arguments):
        answer = self.request("tools/call", {"name": "read", "arguments": {"file_path": path, **arguments}})
        result = answer.get("result", {})
        return result.get("content", []), result.get("isError", False), answer

    def close(self):
        self.proc.stdin.close()
        status = self.proc.wait(timeout=30)
        self.watchdog.cancel()
        return status


def image_size(item):
    data = base64.b64decode(item["data"])
    if item["mimeType"] == "image/png" and data[:8] == b"\x89PNG\r\n\x1a\n":
        return struct.unpack(">II", data[16:24])
    if item["mimeType"] == "image/jpeg":
        i = 2
        while i < len(data):
            marker, length = data[i + 1], struct.unpack(">H", data[i + 2:i + 4])[0]
            if marker in (0xC0, 0xC1, 0xC2):
                h, w = struct.unpack(">HH", data[i + 5:i + 9])
                return w, h
            i += 2 + length
    return None


def kinds(content):
    return [c["type"] + (":" + c["mimeType"] if "mimeType" in c else "") for c in content]


def texts(content):
    return "\n".join(c.get("text", "") for c in content if c["type"] == "text")


def images(content):
    return [c for c in content if c["type"] == "image"]


def main():
    split = sys.argv.index("--")
    folder, command = sys.argv[1], sys.argv[split + 1:]
    fixtures.write_all(folder)
    inside = command[-1]  # the server's root folder, as the server sees it
    s = Session(command)
    try:
        init = s.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                        "clientInfo": {"name": "bundle-check", "version": "1"}})
        check(init.get("result", {}).get("serverInfo", {}).get("name") == "mcp-read", "initialize: serverInfo.name is mcp-read")
        s.notify("notifications/initialized")
        tools = [t["name"] for t in s.request("tools/list").get("result", {}).get("tools", [])]
        check("read" in tools, f"tools/list names read ({', '.join(tools)})")

        content, error, _ = s.read(f"{inside}/notes.txt")
        check(not error and "second line: café" in texts(content), "text: the lines, UTF-8 intact")

        content, error, _ = s.read(f"{inside}/small.png")
        imgs = images(content)
        check(not error and len(imgs) == 1 and imgs[0]["mimeType"] == "image/png" and image_size(imgs[0]) == (64, 48),
              f"PNG: passed through as image/png 64x48 ({kinds(content)})")

        content, error, answer = s.read(f"{inside}/picture.ppm")
        imgs = images(content)
        check(not error and len(imgs) == 1 and imgs[0]["mimeType"] in ("image/png", "image/jpeg")
              and image_size(imgs[0]) == (40, 30),
              f"PPM: converted by libvips to PNG/JPEG 40x30 ({kinds(content)} {texts(content)[:200]})")

        content, error, answer = s.read(f"{inside}/picture.bmp")
        imgs = images(content)
        check(not error and len(imgs) == 1 and imgs[0]["mimeType"] in ("image/png", "image/jpeg")
              and image_size(imgs[0]) == (40, 30),
              f"BMP: converted through libvips (ImageMagick's coder) to PNG/JPEG 40x30 ({kinds(content)} {texts(content)[:200]})")

        content, error, _ = s.read(f"{inside}/large.png")
        imgs = images(content)
        size = image_size(imgs[0]) if len(imgs) == 1 else None
        check(not error and size is not None and max(size) == 2000,
              f"large PNG: downscaled by libvips to a 2000-pixel edge ({kinds(content)} {size} {texts(content)[:200]})")

        content, error, _ = s.read(f"{inside}/page.pdf")
        check(not error and fixtures.PDF_TEXT in texts(content), f"PDF: page text ({texts(content)[:200]!r})")

        content, error, _ = s.read(f"{inside}/page.pdf", file_type="image")
        imgs = images(content)
        check(not error and len(imgs) >= 1 and imgs[0]["mimeType"] == "image/png" and image_size(imgs[0]) is not None,
              f"PDF: page 1 rendered as PNG ({kinds(content)} {[image_size(i) for i in imgs]} {texts(content)[:200]})")

        content, error, _ = s.read(f"{inside}/analysis.ipynb")
        t = texts(content)
        check(not error and "Bundle notebook" in t and "print(6 * 7)" in t and "42" in t,
              f"notebook: cells and output ({t[:200]!r})")

        content, error, _ = s.read(f"{inside}/bundle.tar.xz/docs/packed.txt")
        t = texts(content)
        check(not error and "portable bundle line one" in t, f"archive: a member of a tar.xz ({t[:200]!r})")
    except Exception as e:  # a dead server or a malformed answer is a failed proof, said plainly
        check(False, f"session: {e}")
    status = s.close() if s.proc.poll() is None else s.proc.returncode
    s.watchdog.cancel()
    check(status == 0, f"the server exits 0 at end of input (exit {status})")
    if failures:
        print(f"session: {len(failures)} check(s) failed")
        sys.exit(1)


if __name__ == "__main__":
    main()
