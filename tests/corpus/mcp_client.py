"""A minimal MCP client over stdio: newline-delimited JSON-RPC to one mcp-read process."""
import json
import os
import queue
import re
import subprocess
import threading


class ServerError(RuntimeError):
    pass


def meta_ways(result, _text):
    """The way on an answer's _meta gives (next_pages, next_offset), as a list of argument updates."""
    meta = result.get("_meta", {})
    way = {}
    if meta.get("next_pages"):
        way["pages"] = meta["next_pages"]
    if meta.get("next_offset"):
        way["offset"] = meta["next_offset"]
    return [way] if way else []


class Client:
    def __init__(self, binary, roots, timeout=120, answer_times=False):
        """answer_times: run the server with its debug log and keep its own time for each answer
        (its "tools/call read answered in N us" lines) in self.answer_micros."""
        self.timeout = timeout
        self.next_id = 1
        self.answer_micros = []
        env = dict(os.environ, MCP_READ_LOG_LEVEL="debug") if answer_times else None
        self.process = subprocess.Popen([binary, *roots], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE if answer_times else subprocess.DEVNULL, env=env)
        self.lines = queue.Queue()
        # A reader thread, so that a hung server costs a timeout instead of the whole run.
        threading.Thread(target=self._pump, daemon=True).start()
        if answer_times:
            threading.Thread(target=self._pump_log, daemon=True).start()
        answer = self.request("initialize", {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "mcp-read-corpus", "version": "1"}})
        if "result" not in answer:
            raise ServerError(f"initialize failed: {json.dumps(answer)[:300]}")
        self.notify("notifications/initialized", {})

    def _pump(self):
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def _pump_log(self):
        for line in self.process.stderr:
            found = re.search(rb"tools/call \S+ answered in (\d+) us", line)
            if found:
                self.answer_micros.append(int(found.group(1)))

    def _send(self, message):
        try:
            self.process.stdin.write((json.dumps(message) + "\n").encode())
            self.process.stdin.flush()
        except (BrokenPipeError, OSError) as error:
            raise ServerError(f"server gone ({error}); exit code {self.process.poll()}") from None

    def notify(self, method, params):
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method, params):
        request_id = self.next_id
        self.next_id += 1
        self._send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        while True:
            try:
                line = self.lines.get(timeout=self.timeout)
            except queue.Empty:
                raise ServerError(f"no answer within {self.timeout}s") from None
            if line is None:
                raise ServerError(f"server exited (code {self.process.wait()})")
            try:
                message = json.loads(line)
            except ValueError:
                raise ServerError(f"stdout line is not JSON: {line[:120]!r}") from None
            if message.get("id") == request_id and "method" not in message:
                return message
            # Requests from the server (roots/list): answer with no roots so reads are not held up.
            if "method" in message and "id" in message:
                self._send({"jsonrpc": "2.0", "id": message["id"],
                            "error": {"code": -32601, "message": "not supported"}})

    def read(self, arguments):
        """tools/call read; returns the result object or raises ServerError."""
        answer = self.request("tools/call", {"name": "read", "arguments": arguments})
        if "result" not in answer:
            raise ServerError(f"JSON-RPC error {json.dumps(answer.get('error'))[:300]}")
        return answer["result"]

    def read_all(self, arguments, ways=None):
        """Every part of a file, as a model paging through would: the ways on each answer gives are
        followed in order, depth first. `ways(result, text)` returns them as argument updates
        (pages, offset); by default the answer's _meta next_pages and next_offset. Returns the texts
        joined, the number of calls, and whether any answer was an error."""
        text, todo, calls, error = "", [dict(arguments)], 0, False
        while todo:
            args = todo.pop(0)
            result = self.read(args)
            calls += 1
            chunk = "\n".join(b["text"] for b in result["content"] if b["type"] == "text")
            text += chunk + "\n"
            if result.get("isError"):
                error = True
                continue
            base = {k: v for k, v in args.items() if k not in ("pages", "offset")}
            todo = [{**base, **way} for way in (ways or meta_ways)(result, chunk)] + todo
        return text, calls, error

    def close(self):
        try:
            self.process.stdin.close()
        except OSError:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
