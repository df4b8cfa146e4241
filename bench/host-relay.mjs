#!/usr/bin/env node
// A stdio relay between an MCP host and an MCP server, for bench/host-roundtrip.mjs.
//
//   node bench/host-relay.mjs MODE COMMAND [ARGS...]
//
// MODE "identity": bytes pass through unchanged both ways (mcp-read behind the same relay, to
//   show what the relay itself costs).
// MODE "peer-read": the peer's `read_text_file` tool is presented as `read`: its name in the
//   tools/list answer, and `read` in tools/call requests back to `read_text_file`; and the host's
//   `roots` capability is taken out of `initialize` (Claude Code offers its working directory as
//   the only root, which the peer would put in place of the directory on its command line);
//   everything else passes unchanged. The Claude Code host driver (tests/hosts/claude-code/driver.mjs) runs its
//   MCP server as a stdio server named `read` with `--allowedTools mcp__read__read`, and its mock
//   model calls `mcp__read__read`; this is how the peer takes part without changing the driver.
import { spawn } from "node:child_process";

const [mode, command, ...args] = process.argv.slice(2);
if (!["identity", "peer-read"].includes(mode) || !command) {
  console.error("usage: node host-relay.mjs identity|peer-read COMMAND [ARGS...]");
  process.exit(2);
}
const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
child.stdin.on("error", () => {});
process.stdout.on("error", () => {});
process.stdin.on("error", () => {});
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
child.on("error", (e) => { console.error(`host-relay: ${e.message}`); process.exit(127); });
for (const s of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(s, () => child.kill(s));

if (mode === "identity") {
  process.stdin.pipe(child.stdin);
  child.stdout.pipe(process.stdout);
} else {
  const FROM = "read_text_file", TO = "read";
  // Newline-delimited JSON-RPC; `edit(line)` returns the line to forward.
  const lines = (edit, out) => {
    let parts = [];
    return (chunk) => {
      let start = 0, i;
      while ((i = chunk.indexOf(10, start)) !== -1) {
        parts.push(chunk.subarray(start, i + 1));
        start = i + 1;
        out.write(edit(Buffer.concat(parts)));
        parts = [];
      }
      if (start < chunk.length) parts.push(chunk.subarray(start));
    };
  };
  const rewrite = (buf, touch) => {
    let msg;
    try { msg = JSON.parse(buf.toString("utf8")); } catch { return buf; }
    return touch(msg) ? JSON.stringify(msg) + "\n" : buf;
  };
  // Host -> server: tools/call of `read` goes to `read_text_file`; no roots in initialize.
  process.stdin.on("data", lines((buf) => (buf.includes('"tools/call"') || buf.includes('"initialize"') ? rewrite(buf, (m) => {
    if (m && m.method === "tools/call" && m.params && m.params.name === TO) { m.params.name = FROM; return true; }
    if (m && m.method === "initialize" && m.params && m.params.capabilities && m.params.capabilities.roots) {
      delete m.params.capabilities.roots;
      return true;
    }
    return false;
  }) : buf), child.stdin));
  process.stdin.on("end", () => child.stdin.end());
  // Server -> host: the tools/list answer names `read_text_file` as `read`. Only lines naming the
  // tool are parsed (tool results are passed on as they are).
  child.stdout.on("data", lines((buf) => (buf.includes(`"${FROM}"`) ? rewrite(buf, (m) => {
    const tools = m && m.result && m.result.tools;
    if (!Array.isArray(tools)) return false;
    let hit = false;
    for (const t of tools) if (t && t.name === FROM) { t.name = TO; hit = true; }
    return hit;
  }) : buf), process.stdout));
}
