#!/usr/bin/env python3
"""The container test's MCP sessions (tests/container/run.sh): starts the server command given (a
`podman run`), talks MCP over its stdio or over HTTP, reads a text file, a PNG and a PDF written
into the server's root folder, asks for a path outside that root, and checks every answer.
Exits 1 naming each failed check. The stdio session and the checks' helpers are the portable
bundle's (scripts/release/session.py, fixtures.py).

  session.py stdio ROOT [--inside DIR] --outside PATH -- COMMAND...
  session.py http  ROOT [--inside DIR] --outside PATH --url URL --token TOKEN -- COMMAND...

ROOT is the host folder the fixtures are written to, DIR the same folder as the server sees it
(ROOT when the paths are the same inside and out), PATH a file the server can see but must refuse.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import threading
import urllib.error
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "release"))
import fixtures  # noqa: E402
from session import Session, check, failures, image_size, images, kinds, texts  # noqa: E402

READY_SECONDS = 60  # the HTTP server's start, image start included, must not take longer


class HttpSession:
    """Streamable HTTP at URL, with the same calls as the stdio Session; the server is the command
    given, started here and stopped (SIGTERM, which podman passes on) by close()."""

    def __init__(self, command, url, token):
        self.url, self.token, self.session_id, self.next_id = url, token, None, 0
        self.log, self.ready = [], threading.Event()
        self.proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, text=True)
        threading.Thread(target=self._drain, daemon=True).start()
        # Ready once the server logs its listening line; a server that dies or never says it
        # within the deadline fails here.
        if not self.ready.wait(READY_SECONDS) or self.proc.poll() is not None:
            self.proc.kill()
            raise RuntimeError(f"no 'listening on' within {READY_SECONDS} s:\n" + "".join(self.log[-20:]))

    def _drain(self):
        for line in self.proc.stderr:
            self.log.append(line)
            if "listening on http://" in line:
                self.ready.set()
        self.ready.set()  # the server ended: the waiter sees poll() is not None

    def post(self, message, token=None):
        """POSTs one JSON-RPC message; returns (status, headers, the answer or None)."""
        headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
                   "Authorization": f"Bearer {self.token if token is None else token}"}
        if self.session_id:
            headers["Mcp-Session-Id"] = self.session_id
            headers["MCP-Protocol-Version"] = "2025-06-18"
        request = urllib.request.Request(self.url, json.dumps(message).encode(), headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                status, got, body = response.status, response.headers, response.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.headers, None
        if not body.strip():
            return status, got, None
        if got.get("Content-Type", "").startswith("text/event-stream"):
            # The answer is the event whose data carries this request's id (progress may come first).
            for data in re.findall(r"^data: ?(.*)$", body, re.M):
                answer = json.loads(data)
                if "id" in answer and answer["id"] == message.get("id"):
                    return status, got, answer
            raise RuntimeError(f"no answer to {message.get('method')} in the event stream: {body[:300]}")
        return status, got, json.loads(body)

    def request(self, method, params=None):
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            message["params"] = params
        status, headers, answer = self.post(message)
        if status != 200 or answer is None:
            raise RuntimeError(f"{method}: HTTP {status}")
        if method == "initialize":
            self.session_id = headers.get("Mcp-Session-Id")
        return answer

    def notify(self, method):
        status, _, _ = self.post({"jsonrpc": "2.0", "method": method})
        check(status == 202, f"{method}: HTTP 202 ({status})")

    read = Session.read

    def close(self):
        self.proc.terminate()
        try:
            return self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()


def session_checks(s, inside, outside):
    init = s.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                    "clientInfo": {"name": "container-check", "version": "1"}})
    check(init.get("result", {}).get("serverInfo", {}).get("name") == "mcp-read", "initialize: serverInfo.name is mcp-read")
    s.notify("notifications/initialized")
    tools = [t["name"] for t in s.request("tools/list").get("result", {}).get("tools", [])]
    check("read" in tools, f"tools/list names read ({', '.join(tools)})")

    content, error, _ = s.read(f"{inside}/notes.txt")
    lines = fixtures.TEXT.splitlines()
    numbered = "".join(f"{n:6d}\t{line}\n" for n, line in enumerate(lines, 1))
    check(not error and texts(content).startswith(numbered),
          f"text: numbered lines, UTF-8 intact ({texts(content)[:120]!r})")

    # A relative path starts from the served folder (what a model uses when the host's paths are
    # not the container's, as on Windows).
    content, error, _ = s.read("notes.txt")
    check(not error and texts(content).startswith(numbered), f"text by a relative path ({texts(content)[:80]!r})")

    content, error, _ = s.read(f"{inside}/small.png")
    imgs = images(content)
    check(not error and len(imgs) == 1 and imgs[0]["mimeType"] == "image/png" and image_size(imgs[0]) == (64, 48),
          f"PNG: an image/png block, 64x48 ({kinds(content)})")

    content, error, _ = s.read(f"{inside}/page.pdf")
    t = texts(content)
    check(not error and "Page 1 of 1" in t and fixtures.PDF_TEXT in t, f"PDF: the page's text ({t[:200]!r})")

    content, error, _ = s.read(outside)
    t = texts(content)
    check(error and "outside the allowed roots" in t and "not for the model" not in t and "root:x:0" not in t,
          f"{outside}: refused, outside the root ({t[:160]!r})")


def main():
    split = sys.argv.index("--")
    parser = argparse.ArgumentParser()
    parser.add_argument("transport", choices=["stdio", "http"])
    parser.add_argument("root")
    parser.add_argument("--inside")
    parser.add_argument("--outside", required=True)
    parser.add_argument("--url")
    parser.add_argument("--token")
    args = parser.parse_args(sys.argv[1:split])
    command = sys.argv[split + 1:]
    fixtures.write_all(args.root)
    inside = args.inside or args.root

    s = None
    try:
        if args.transport == "stdio":
            s = Session(command)
        else:
            s = HttpSession(command, args.url, args.token)
            status, headers, _ = s.post({"jsonrpc": "2.0", "id": 0, "method": "ping"}, token="wrong")
            check(status == 401 and "Bearer" in (headers.get("WWW-Authenticate") or ""),
                  f"HTTP: a wrong token is refused with 401 ({status})")
        session_checks(s, inside, args.outside)
    except Exception as e:  # a dead server or a malformed answer is a failed check, said plainly
        check(False, f"session: {e}")
    if s is not None:
        status = s.close() if s.proc.poll() is None else s.proc.returncode
        if isinstance(s, Session):
            s.watchdog.cancel()
        # stdio: the end of input ends the server; HTTP: SIGTERM, passed on by podman.
        check(status == 0, f"the server exits 0 ({'end of input' if args.transport == 'stdio' else 'SIGTERM'}, exit {status})")
    if failures:
        print(f"session: {len(failures)} check(s) failed")
        sys.exit(1)
    print("session: all checks passed")


if __name__ == "__main__":
    main()
