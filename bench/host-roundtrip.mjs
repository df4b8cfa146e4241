#!/usr/bin/env node
// Host round trip: the real Claude Code CLI (tests/hosts/claude-code/driver.mjs, which runs it
// against a loopback mock of the Anthropic API) asked by the mock model to read the first 2,000
// lines of source.cpp through an MCP server; the time of the whole runHost() (scratch dir, mock,
// Claude Code's start, its MCP connection, ToolSearch, the tool call, the follow-up request with
// the result, exit) per server, in rounds that alternate the order.
//
//   node bench/host-roundtrip.mjs --fixtures DIR --out FILE.json [--mcp-read PATH] [--peer INDEX_JS]
//                                 [--rounds N] [--only mcp-read|peer]
//
// Must run inside a network namespace with only loopback (bench/run.sh runs it under
// `unshare -n`). Sides:
//   mcp-read        the driver's own setup: Claude Code -> logging shim -> mcp-read; `read` with
//                   `file_path` and `limit: 2000`
//   peer            server-filesystem behind bench/host-relay.mjs (peer-read), which presents its
//                   `read_text_file` as `read` (the driver only offers and allows `mcp__read__read`);
//                   `path` and `head: 2000`
//   mcp-read-relay  mcp-read behind the same relay in identity mode: what the relay adds
// Writes FILE.json: { host, hostVersion, rounds, sides: { name: { times, claude, received } | { error } } }.
// Exit status: 0 when every side answered correctly, 1 otherwise, 2 on bad usage.
import { readFileSync, writeFileSync, mkdtempSync, rmSync, chmodSync, existsSync } from "node:fs";
import { join, resolve, dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";

const here = dirname(fileURLToPath(import.meta.url));
const args = {};
for (let i = 2; i < process.argv.length; i++) {
  const m = /^--([a-z-]+)(?:=(.*))?$/.exec(process.argv[i]);
  if (!m) { console.error(`host-roundtrip.mjs: unexpected argument ${process.argv[i]}`); process.exit(2); }
  args[m[1]] = m[2] !== undefined ? m[2] : process.argv[++i];
}
if (!args.fixtures || !args.out) { console.error("usage: node host-roundtrip.mjs --fixtures DIR --out FILE.json [--mcp-read PATH] [--peer INDEX_JS] [--rounds N] [--only mcp-read|peer]"); process.exit(2); }
const ROOT = resolve(args.fixtures);
const ROUNDS = Math.max(1, Number(args.rounds || 5) || 5);
const WARMUP = 1; // rounds not counted (the first start of the ~200 MB Claude Code binary reads it from disk)
const only = args.only || "";
const manifest = JSON.parse(readFileSync(join(ROOT, "manifest.json"), "utf8"));
const S = manifest.source;
const W = manifest.window;

const { runHost, HOST_VERSION } = await import(pathToFileURL(join(here, "..", "tests", "hosts", "claude-code", "driver.mjs")).href);

// runHost() takes one executable and passes ROOT as its only argument; the relayed sides get a
// small wrapper script in a temporary directory.
const bin = mkdtempSync(join(ROOT, ".host-bin-"));
const q = (s) => `'${String(s).replace(/'/g, `'\\''`)}'`;
function wrapper(name, argv) {
  const p = join(bin, name);
  writeFileSync(p, `#!/bin/sh\nexec ${argv.map(q).join(" ")} "$@"\n`);
  chmodSync(p, 0o755);
  return p;
}
const relay = join(here, "host-relay.mjs");
const sides = [];
if (only !== "peer" && args["mcp-read"]) {
  const mcpRead = resolve(args["mcp-read"]);
  sides.push({ name: "mcp-read", cmd: mcpRead, toolArgs: { file_path: S.path, limit: W }, check: checkNumbered });
  sides.push({ name: "mcp-read-relay", cmd: wrapper("mcp-read-relay", [process.execPath, relay, "identity", mcpRead]),
    toolArgs: { file_path: S.path, limit: W }, check: checkNumbered });
}
if (only !== "mcp-read" && args.peer && existsSync(args.peer)) {
  sides.push({ name: "peer", cmd: wrapper("peer", [process.execPath, relay, "peer-read", process.execPath, resolve(args.peer)]),
    toolArgs: { path: S.path, head: W }, check: checkPeer });
}

const texts = (r) => r.received.filter((b) => b.type === "text").map((b) => b.text);
// mcp-read: all 2,000 numbered lines reach the model (its claude-code profile declares
// anthropic/maxResultSizeChars, so Claude Code passes the ~84 KB text whole).
function checkNumbered(r) {
  const text = texts(r).join("\n");
  const body = [];
  for (const line of text.split("\n")) {
    const m = /^ *(\d+)\t(.*)$/s.exec(line);
    if (m) body.push([Number(m[1]), m[2]]);
  }
  if (body.length !== W) throw new Error(`the model received ${body.length} numbered lines, expected ${W}`);
  if (body.some(([n], i) => n !== i + 1)) throw new Error("the model received lines not numbered 1..2000");
  if (body[0][1] !== S.first || body[W - 1][1] !== S.last) throw new Error("the model received other first/last lines than the file's");
  return { chars: text.length, lines: body.length, whole: true };
}
// Peer: what reached the model is reported, not failed: Claude Code replaces a text-only result
// over 50,000 characters (the peer's has no anthropic/maxResultSizeChars) by a 2 KB preview.
function checkPeer(r) {
  const text = texts(r).join("\n");
  const persisted = /Output too large|persisted-output|exceeds maximum allowed tokens/.test(text);
  const lines = text.split("\n").length;
  if (!persisted && !text.includes(S.first)) throw new Error(`the model received neither the file's first line nor a preview: ${text.slice(0, 200)}`);
  return { chars: text.length, lines, whole: !persisted && text.includes(S.last), persisted };
}

const out = { host: "claude-code", hostVersion: HOST_VERSION, rounds: ROUNDS, warmup: WARMUP, window: W, sides: {} };
for (const s of sides) out.sides[s.name] = { times: [], claude: [] };
let failed = false;
try {
  for (let i = 0; i < WARMUP + ROUNDS; i++) {
    const order = i % 2 ? [...sides].reverse() : sides;
    for (const s of order) {
      const o = out.sides[s.name];
      if (o.error) continue;
      try {
        const t0 = performance.now();
        const r = await runHost({ mcpRead: s.cmd, root: ROOT, toolArgs: s.toolArgs, timeoutMs: 60000 });
        const ms = performance.now() - t0;
        if (!r.serverCalled) throw new Error(`the server never got the tools/call (${r.notes.join("; ")})`);
        if (r.isError) throw new Error(`is_error on the tool result: ${texts(r).join(" ").slice(0, 300)}`);
        const got = s.check(r);
        o.received ??= got;
        o.clientInfo ??= r.clientInfo;
        if (i >= WARMUP) { o.times.push(ms); o.claude.push(r.elapsedMs); }
      } catch (e) {
        o.error = String(e && e.message || e).slice(0, 1500);
        failed = true;
      }
      const last = o.error ? "FAIL" : o.times.length ? `${o.times[o.times.length - 1].toFixed(0)} ms` : "warm-up";
      process.stderr.write(`host round trip ${i}/${WARMUP + ROUNDS - 1} ${s.name}: ${last}\n`);
    }
  }
} finally {
  rmSync(bin, { recursive: true, force: true });
}
writeFileSync(args.out, JSON.stringify(out, null, 2) + "\n");
process.exit(failed ? 1 : 0);
