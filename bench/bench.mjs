#!/usr/bin/env node
// Side-by-side benchmark of mcp-read and the reference filesystem server over MCP stdio.
//
// Usage:
//   node bench/bench.mjs --mcp-read PATH --peer PATH/TO/dist/index.js --fixtures DIR [--out FILE]
//                        [--only mcp-read|peer] [--hosts HOSTS.json]
//
// DIR is what bench/gen-fixtures.mjs wrote (source.cpp, app.log, manifest.json), plus, when
// present, what bench/gen-images.mjs wrote (pass.png, big.png, photo.jpg, scan.bmp, images.json)
// and what bench/gen-docs.mjs wrote (doc.pdf, nb.ipynb, docs.json).
// Both servers get DIR as their only root. Every answer is checked (line count, first and last
// line; for images the bytes, format, dimensions and size; for documents the page markers and
// texts, the pages inside the PDF sent back, the images) before it counts, so a server that
// answers wrongly fails the run instead of looking fast. The servers take turns within every row
// (see "measurements"), and the run ends with mcp-read's HTTP transport under concurrent clients
// (the peer speaks stdio only). BENCH_ITERATIONS=k multiplies every count and duration.
// Rows for one host, Claude Code (all on by default; see bench/README.md): BENCH_FIT=0 leaves out
// fitting photo.jpg and noise.png into its image budget (against libvips' own CLI), BENCH_TOOLS_LIST=0
// the tools/list sizes, and the host round trip row is filled from --hosts FILE (what
// bench/host-roundtrip.mjs wrote; bench/run.sh leaves it out with BENCH_HOSTS=0). BENCH_CORE=0 leaves
// out every other row (startup, text, image, document, HTTP rows), to run only these.
// Exit status: 0 when every measured answer was correct, 1 otherwise, 2 on bad usage.
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync, mkdirSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { cpus } from "node:os";
import { inflateSync } from "node:zlib";
import { createHash } from "node:crypto";
import { imageInfo, imageComplete } from "./image-headers.mjs";

// ------------------------------------------------------------------ settings
// BENCH_ITERATIONS=k multiplies every count and duration below (default 1: a run of a few
// minutes); more iterations give steadier medians and tails.
const ITER = Math.max(1, Number(process.env.BENCH_ITERATIONS || 1) || 1);
const INIT_SPAWNS = 20 * ITER;          // spawns per server (after one warm-up spawn)
const THROUGHPUT_SECONDS = 2.5 * ITER;  // sequential calls for this long per server
const SLICE_MS = 250;                   // ... taken in turns of this long
const WARMUP_CALLS = 10;                // not counted
const INFLIGHT = 16;                    // requests written at once on one session
const INFLIGHT_ROUNDS = 20 * ITER;      // rounds of INFLIGHT requests per server
const INFLIGHT_WARMUP = 2;              // rounds not counted
const LOG_CALLS = 20 * ITER;            // log rows: calls per server
const IMAGE_CALLS = 20 * ITER;          // image rows: calls per server (after FLOOR_WARMUP rounds)
const DOC_CALLS = 10 * ITER;            // document rows (PDF text, notebook): calls per server
const RENDER_CALLS = 5 * ITER;          // PDF pages rendered as images: calls
const HTTP_CLIENTS = 16;                // HTTP row: concurrent clients, a session each
const CORE = process.env.BENCH_CORE !== "0"; // the startup, text, image, document and HTTP rows
const HTTP_SECONDS = CORE ? Number(process.env.BENCH_HTTP_SECONDS ?? 3) * ITER : 0;
const FIT_ROUNDS = 10 * ITER;           // Claude Code image budget rows: rounds (after FIT_WARMUP)
const FIT_WARMUP = 1;                   // ... not counted (mcp-read's first image loads libvips)
// What Claude Code 2.1.330 passes unchanged (mcp-read's claude-code host profile, with its margin
// under the 512,000 bytes Claude Code itself allows): decoded bytes, base64 characters, long edge,
// 28×28-px tiles (ceil(w/28)·ceil(h/28)).
const CC_IMAGE = { bytes: 500_000, base64: 666_668, edge: 2000, tiles: 4761 };
const CC_JPEG_Q = 85;                   // vips' JPEG quality when mcp-read reports none
const CLK_TCK = 100;                    // the kernel's clock ticks per second in /proc (USER_HZ on Linux)
const SERVER_CPU_GOAL = 30;             // the peer's server CPU per call ÷ mcp-read's, a goal (reported)
const TOOLS_LIST_GOAL = 3500;           // bytes of the tools/list answer line, a goal (reported)
const DOC_MAX_EDGE = 2000;              // long edge of a rendered page at most (px)
const DOC_MAX_BASE64 = 5 * 1024 * 1024; // base64 of one image block at most
const FLOOR_WARMUP = 5;                 // image rows: rounds whose floor run is not counted
const REQUEST_TIMEOUT_MS = 60_000;
const INIT_TIMEOUT_MS = 15_000;
const PROTOCOL_VERSION = "2025-06-18";

// ------------------------------------------------------------------ arguments
function parseArgs(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(a);
    if (!m) usage(`unexpected argument: ${a}`);
    out[m[1]] = m[2] !== undefined ? m[2] : argv[++i];
  }
  return out;
}
function usage(msg) {
  console.error(`bench.mjs: ${msg}`);
  console.error("usage: node bench.mjs --mcp-read PATH --peer INDEX_JS --fixtures DIR [--out FILE] [--only mcp-read|peer] [--hosts HOSTS.json]");
  process.exit(2);
}
const args = parseArgs(process.argv.slice(2));
if (!args.fixtures) usage("--fixtures is required");
const only = args.only || "";
if (only && only !== "mcp-read" && only !== "peer") usage(`--only must be mcp-read or peer`);
if (only !== "peer" && !args["mcp-read"]) usage("--mcp-read is required");
if (only !== "mcp-read" && !args.peer) usage("--peer is required");

for (const k of ["mcp-read", "peer", "fixtures", "out", "hosts"]) if (args[k]) args[k] = resolve(args[k]);
const manifest = JSON.parse(readFileSync(`${args.fixtures}/manifest.json`, "utf8"));
const ROOT = args.fixtures;
const W = manifest.window;
const DEEP = manifest.deepOffset;
const imagesManifest = existsSync(`${args.fixtures}/images.json`)
  ? JSON.parse(readFileSync(`${args.fixtures}/images.json`, "utf8")) : null;
const docsManifest = CORE && existsSync(`${args.fixtures}/docs.json`)
  ? JSON.parse(readFileSync(`${args.fixtures}/docs.json`, "utf8")) : null;
const FIT = process.env.BENCH_FIT !== "0" && only !== "peer" && !!imagesManifest &&
  ["photo", "noise"].every((k) => imagesManifest.images[k]);
const TOOLS_LIST = process.env.BENCH_TOOLS_LIST !== "0";
// The host round trip (bench/host-roundtrip.mjs, run by bench/run.sh inside `unshare -n`).
const hostsRun = !args.hosts ? null : existsSync(args.hosts)
  ? JSON.parse(readFileSync(args.hosts, "utf8")) : { error: `${args.hosts} was not written (bench/host-roundtrip.mjs failed; see its output above)` };

// ------------------------------------------------------------------ helpers
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const median = (xs) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};
// The CPU time (user + system, seconds) a process has used, its threads and the children it
// waited for included (/proc/PID/stat fields 14-17): what a server spends on calls, whatever the
// client costs.
function cpuSeconds(pid) {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / CLK_TCK;
  } catch {
    return NaN;
  }
}
function vmHWMKiB(pid) {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) : NaN;
  } catch {
    return NaN;
  }
}
class Failure extends Error {}
const fail = (msg) => { throw new Failure(msg); };

// ------------------------------------------------------------------ a minimal MCP stdio client
// Newline-delimited JSON-RPC over the child's stdin/stdout. stderr is kept (last 4 KiB) for errors.
class Session {
  constructor(server) {
    this.server = server;
    this.nextId = 1;
    this.pending = new Map();
    this.parts = [];
    this.stderr = "";
    this.exited = null;
    this.t0 = performance.now();
    this.child = spawn(server.cmd, server.args, { stdio: ["pipe", "pipe", "pipe"], cwd: ROOT });
    this.spawnMs = performance.now() - this.t0; // the client's own fork/exec cost
    this.pid = this.child.pid;
    this.child.stdout.on("data", (chunk) => this.onData(chunk));
    this.child.stderr.on("data", (d) => { this.stderr = (this.stderr + d.toString()).slice(-4096); });
    this.child.stdin.on("error", () => {}); // reported through the pending requests instead
    this.child.on("error", (e) => this.onExit(`spawn failed: ${e.message}`));
    this.child.on("exit", (code, sig) => this.onExit(`exited (code ${code}, signal ${sig})`));
  }
  onExit(why) {
    this.exited = why;
    for (const p of this.pending.values()) p.reject(new Failure(`${this.server.name} ${why}${this.stderrTail()}`));
    this.pending.clear();
  }
  stderrTail() {
    const s = this.stderr.trim();
    return s ? `\n  stderr: ${s.split("\n").filter((l) => l.trim()).slice(-10).join("\n          ")}` : "";
  }
  onData(chunk) {
    let start = 0;
    let i;
    while ((i = chunk.indexOf(10, start)) !== -1) {
      const t0 = performance.now();
      this.parts.push(chunk.subarray(start, i));
      const line = this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts);
      this.parts = [];
      start = i + 1;
      this.onLine(line, t0);
    }
    if (start < chunk.length) this.parts.push(chunk.subarray(start));
  }
  // t0: when the line's last chunk arrived; the time from there to the parsed message is the
  // client's own decoding (joining the chunks, UTF-8, JSON.parse).
  onLine(buf, t0) {
    const text = buf.toString("utf8").trim();
    if (!text) return;
    let msg;
    try {
      msg = JSON.parse(text);
    } catch {
      this.protocolError = `non-JSON line on stdout: ${text.slice(0, 200)}`;
      for (const p of this.pending.values()) p.reject(new Failure(`${this.server.name}: ${this.protocolError}`));
      this.pending.clear();
      return;
    }
    const t = performance.now();
    if (msg.id !== undefined && msg.method === undefined) {
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      clearTimeout(p.timer);
      p.resolve({ msg, t, bytes: buf.length, parseMs: t - t0 });
    } else if (msg.id !== undefined && msg.method !== undefined) {
      // A request from the server: this client offers no capabilities.
      this.send({ jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: "Method not found" } });
    }
  }
  send(obj) {
    this.child.stdin.write(JSON.stringify(obj) + "\n");
  }
  // Resolves with { msg, ms } where ms is the time from the write to the parsed answer.
  request(method, params, timeoutMs = REQUEST_TIMEOUT_MS) {
    if (this.exited) return Promise.reject(new Failure(`${this.server.name} ${this.exited}${this.stderrTail()}`));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Failure(`${this.server.name}: no answer to ${method} within ${timeoutMs} ms${this.stderrTail()}`));
      }, timeoutMs);
      const sent = performance.now();
      this.pending.set(id, {
        resolve: ({ msg, t, bytes, parseMs }) => {
          if (msg.error) reject(new Failure(`${this.server.name}: ${method} returned error ${JSON.stringify(msg.error)}`));
          else resolve({ msg, ms: t - sent, at: t, bytes, parseMs });
        },
        reject,
        timer,
      });
      this.send({ jsonrpc: "2.0", id, method, params });
    });
  }
  async initialize(clientInfo = { name: "mcp-read-bench", version: "1" }) {
    const r = await this.request("initialize", {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: {},
      clientInfo,
    }, INIT_TIMEOUT_MS);
    const res = r.msg.result;
    if (!res || typeof res.protocolVersion !== "string" || !res.capabilities || !res.capabilities.tools) {
      fail(`${this.server.name}: malformed initialize result ${JSON.stringify(res).slice(0, 300)}`);
    }
    this.serverInfo = res.serverInfo || {};
    this.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    return r.at - this.t0; // spawn -> answer
  }
  async callTool(call) {
    const r = await this.request("tools/call", call);
    return { result: r.msg.result, ms: r.ms, bytes: r.bytes, parseMs: r.parseMs };
  }
  async close() {
    if (this.exited) return;
    const done = new Promise((r) => this.child.once("exit", r));
    this.child.stdin.end();
    const t = setTimeout(() => this.child.kill("SIGTERM"), 2000);
    const t2 = setTimeout(() => this.child.kill("SIGKILL"), 4000);
    await done;
    clearTimeout(t);
    clearTimeout(t2);
  }
}

// ------------------------------------------------------------------ answer checks
function textOf(server, result) {
  if (!result || typeof result !== "object") fail(`${server}: no result`);
  if (result.isError) fail(`${server}: tool error: ${JSON.stringify(result.content).slice(0, 300)}`);
  const c = result.content && result.content[0];
  if (!c || c.type !== "text" || typeof c.text !== "string") fail(`${server}: first content block is not text`);
  return c.text;
}
// mcp-read: `%6d\t` + line for each line, plus header/footer lines that are not numbered.
function checkNumbered(server, text, start, count, first, last) {
  const nums = [];
  const body = [];
  for (const line of text.split("\n")) {
    const m = /^ *(\d+)\t(.*)$/s.exec(line);
    if (m) { nums.push(Number(m[1])); body.push(m[2]); }
  }
  if (nums.length !== count) fail(`${server}: expected ${count} numbered lines, got ${nums.length}`);
  for (let i = 0; i < nums.length; i++) {
    if (nums[i] !== start + i) fail(`${server}: line numbers not consecutive from ${start} (at ${i}: ${nums[i]})`);
  }
  const firstLine = `${String(start).padStart(6)}\t${first}`;
  if (!text.includes(firstLine)) fail(`${server}: expected first line ${JSON.stringify(firstLine)}`);
  if (body[0] !== first) fail(`${server}: first line is ${JSON.stringify(body[0])}, expected ${JSON.stringify(first)}`);
  if (body[count - 1] !== last) fail(`${server}: last line is ${JSON.stringify(body[count - 1])}, expected ${JSON.stringify(last)}`);
}
// Peer, `head: N`: the first N lines joined by "\n".
function checkPlainHead(server, text, count, first, last) {
  const lines = text.split("\n");
  if (lines.length && lines[lines.length - 1] === "") lines.pop();
  if (lines.length !== count) fail(`${server}: expected ${count} lines, got ${lines.length}`);
  if (lines[0] !== first) fail(`${server}: first line is ${JSON.stringify(lines[0])}, expected ${JSON.stringify(first)}`);
  if (lines[count - 1] !== last) fail(`${server}: last line is ${JSON.stringify(lines[count - 1])}, expected ${JSON.stringify(last)}`);
}
// Peer, `tail: N` on a file ending in "\n": it splits on "\n" and keeps the last N pieces, the
// last piece being the empty string after the final newline, so N-1 lines come back.
function checkPlainTail(server, text, count) {
  const lines = text.split("\n");
  if (lines.length && lines[lines.length - 1] === "") lines.pop();
  if (lines.length !== count && lines.length !== count - 1) fail(`${server}: expected ${count - 1} or ${count} lines, got ${lines.length}`);
  const first = lines.length === count ? manifest.log.tailFirst : manifest.log.tailSecond;
  if (lines[0] !== first) fail(`${server}: first line is ${JSON.stringify(lines[0])}, expected ${JSON.stringify(first)}`);
  if (lines[lines.length - 1] !== manifest.log.tailLast) fail(`${server}: last line is ${JSON.stringify(lines[lines.length - 1])}`);
}

// Images. The file's own base64 is what a pass-through must send, byte for byte.
const fileBase64 = new Map();
function base64Of(img) {
  if (!fileBase64.has(img.path)) fileBase64.set(img.path, readFileSync(img.path).toString("base64"));
  return fileBase64.get(img.path);
}
const BASE64_RE = /^[A-Za-z0-9+/]*={0,2}$/;
// Checks one image answer; returns what was sent: { mime, width, height, b64, passedThrough }.
// mcp-read: a text block, then one image block. Within the limits (passThrough) it must be the
// file unchanged; otherwise a complete PNG or JPEG with the long edge <= maxEdge, base64 <=
// maxBase64 and the original's aspect ratio. Peer: one image block holding the file unchanged.
function checkImage(server, img, result, { textFirst, passThrough }) {
  if (!result || typeof result !== "object") fail(`${server}: no result`);
  const blocks = Array.isArray(result.content) ? result.content : [];
  if (result.isError) {
    const t = blocks.filter((b) => b && b.type === "text").map((b) => b.text).join(" ");
    fail(`${server}: tool error on ${img.file}: ${t.slice(0, 300)}`);
  }
  const idx = blocks.findIndex((b) => b && b.type === "image");
  if (idx < 0) fail(`${server}: ${img.file}: no image block (got ${blocks.map((b) => b && b.type).join(", ") || "nothing"})`);
  if (blocks.filter((b) => b && b.type === "image").length !== 1) fail(`${server}: ${img.file}: more than one image block`);
  if (textFirst && !(idx > 0 && blocks[0].type === "text" && typeof blocks[0].text === "string")) {
    fail(`${server}: ${img.file}: expected a text block before the image block`);
  }
  const { data, mimeType } = blocks[idx];
  if (typeof data !== "string" || typeof mimeType !== "string") fail(`${server}: ${img.file}: image block without data or mimeType`);
  const expected = base64Of(img);
  if (passThrough) {
    if (mimeType !== img.mime) fail(`${server}: ${img.file}: mimeType ${mimeType}, expected ${img.mime} (sent unchanged)`);
    if (data !== expected) fail(`${server}: ${img.file}: data (${data.length} chars) is not the base64 of the file (${expected.length} chars)`);
    return { mime: mimeType, width: img.width, height: img.height, b64: data.length, passedThrough: true };
  }
  if (data.length > imagesManifest.maxBase64) fail(`${server}: ${img.file}: base64 is ${data.length} chars (> ${imagesManifest.maxBase64})`);
  if (data.length % 4 !== 0 || !BASE64_RE.test(data)) fail(`${server}: ${img.file}: data is not valid base64`);
  const bytes = Buffer.from(data, "base64");
  const info = imageInfo(bytes);
  const want = { "image/png": "png", "image/jpeg": "jpeg" }[mimeType];
  if (!want) fail(`${server}: ${img.file}: mimeType ${mimeType}, expected image/png or image/jpeg after re-encoding`);
  if (!info || info.format !== want) fail(`${server}: ${img.file}: mimeType ${mimeType} but the data is ${info ? info.format : "not a PNG or JPEG"}`);
  if (!imageComplete(bytes, info.format)) fail(`${server}: ${img.file}: the ${info.format} data is truncated`);
  const edge = Math.max(info.width, info.height);
  if (edge > imagesManifest.maxEdge || info.width < 1 || info.height < 1) {
    fail(`${server}: ${img.file}: sent ${info.width}×${info.height}, long edge over ${imagesManifest.maxEdge}`);
  }
  const aspect = info.width / info.height, orig = img.width / img.height;
  if (Math.abs(aspect / orig - 1) > 0.01 + 1 / Math.min(info.width, info.height)) {
    fail(`${server}: ${img.file}: sent ${info.width}×${info.height}, aspect ratio differs from ${img.width}×${img.height}`);
  }
  return { mime: mimeType, width: info.width, height: info.height, b64: data.length, passedThrough: data === expected };
}

// Documents (doc.pdf, nb.ipynb). Each check returns what was sent, for the row's note.
const PAGE_MARKER_RE = /── Page (\d+) of (\d+) ──/g;
const sha256 = (buf) => createHash("sha256").update(buf).digest("hex");
const blocksOf = (server, what, result) => {
  if (!result || typeof result !== "object") fail(`${server}: ${what}: no result`);
  const blocks = Array.isArray(result.content) ? result.content : [];
  if (result.isError) {
    const t = blocks.filter((b) => b && b.type === "text").map((b) => b.text).join(" ");
    fail(`${server}: ${what}: tool error: ${t.slice(0, 300)}`);
  }
  if (!blocks.length) fail(`${server}: ${what}: no content`);
  return blocks;
};
const kinds = (blocks) => blocks.map((b) => (b && b.type) || "?").join(", ");
const textBytes = (blocks) => blocks.filter((b) => b.type === "text").reduce((n, b) => n + Buffer.byteLength(b.text), 0);
// Pages in a PDF, counted roughly without a PDF library: `/Type /Page` objects in the file and in
// every Flate stream (object streams hide them), and which fixture pages' heading lines
// ("(Section k. ") appear in the content streams.
function pdfPages(buf) {
  const s = buf.toString("latin1");
  let all = s;
  const re = />>\s*stream\r?\n/g;
  let m;
  while ((m = re.exec(s))) {
    const start = m.index + m[0].length;
    const end = s.indexOf("endstream", start);
    if (end < 0) break;
    try { all += "\n" + inflateSync(buf.subarray(start, end)).toString("latin1"); } catch { /* not Flate */ }
  }
  const objects = (all.match(/\/Type\s*\/Page(?![A-Za-z])/g) || []).length;
  const headings = [...all.matchAll(/\(Section (\d+)\. /g)].map((x) => Number(x[1]));
  return { objects, headings: [...new Set(headings)].sort((a, b) => a - b) };
}
// mcp-read's page text: the markers must be exactly `pages` (of the document's count), each page's
// text starting with the fixture's first line of that page and holding its last line.
function checkPageText(server, text, pages) {
  const D = docsManifest.pdf;
  const found = [...text.matchAll(PAGE_MARKER_RE)];
  const nums = found.map((x) => Number(x[1]));
  if (nums.join(",") !== pages.join(",")) fail(`${server}: doc.pdf: page markers ${nums.join(",") || "none"}, expected ${pages.join(",")}`);
  if (found.some((x) => Number(x[2]) !== D.pages)) fail(`${server}: doc.pdf: a marker does not say "of ${D.pages}"`);
  for (let i = 0; i < found.length; i++) {
    const k = nums[i];
    const body = text.slice(found[i].index + found[i][0].length, i + 1 < found.length ? found[i + 1].index : text.length).trim();
    if (body.split("\n")[0] !== D.firstLines[k - 1]) fail(`${server}: doc.pdf: page ${k} starts ${JSON.stringify(body.slice(0, 80))}, expected ${JSON.stringify(D.firstLines[k - 1])}`);
    if (!body.includes(D.lastLines[k - 1])) fail(`${server}: doc.pdf: page ${k} lacks its last line ${JSON.stringify(D.lastLines[k - 1])}`);
  }
  return found.length;
}
const seq = (a, b) => Array.from({ length: b - a + 1 }, (_, i) => a + i);
// mcp-read, pages "1-20": one text block with the 20 pages' text, then a resource block holding a
// PDF of exactly those pages; file_type "text": the text block alone.
function checkPdfText(server, result, { blob }) {
  const blocks = blocksOf(server, "doc.pdf", result);
  const want = seq(1, 20);
  if (blocks[0].type !== "text") fail(`${server}: doc.pdf: first block is ${blocks[0].type}, expected text`);
  const markers = checkPageText(server, blocks[0].text, want);
  const sent = { text: Buffer.byteLength(blocks[0].text), markers };
  if (result._meta && Array.isArray(result._meta.selected) && result._meta.selected.join(",") !== want.join(",")) {
    fail(`${server}: doc.pdf: _meta.selected is ${result._meta.selected.join(",")}`);
  }
  if (!blob) {
    if (blocks.length !== 1) fail(`${server}: doc.pdf, file_type text: expected one text block, got ${kinds(blocks)}`);
    return sent;
  }
  if (blocks.length !== 2 || blocks[1].type !== "resource") fail(`${server}: doc.pdf: expected text, resource; got ${kinds(blocks)}`);
  const r = blocks[1].resource || {};
  if (r.mimeType !== "application/pdf") fail(`${server}: doc.pdf: resource mimeType ${r.mimeType}, expected application/pdf`);
  if (typeof r.uri !== "string" || !r.uri.endsWith("/doc.pdf")) fail(`${server}: doc.pdf: resource uri ${r.uri}`);
  if (typeof r.blob !== "string" || r.blob.length % 4 !== 0 || !BASE64_RE.test(r.blob)) fail(`${server}: doc.pdf: resource blob is not valid base64`);
  const pdf = Buffer.from(r.blob, "base64");
  if (pdf.toString("latin1", 0, 5) !== "%PDF-") fail(`${server}: doc.pdf: the blob does not start with %PDF-`);
  if (!pdf.toString("latin1", Math.max(0, pdf.length - 1024)).includes("%%EOF")) fail(`${server}: doc.pdf: the blob does not end with %%EOF`);
  const counted = pdfPages(pdf);
  if (counted.objects !== want.length) fail(`${server}: doc.pdf: the blob holds ${counted.objects} /Type /Page objects, expected ${want.length}`);
  if (counted.headings.join(",") !== want.join(",")) fail(`${server}: doc.pdf: the blob's pages are ${counted.headings.join(",")}, expected ${want.join(",")}`);
  return { ...sent, blob: r.blob.length, blobBytes: pdf.length, blobPages: counted.objects };
}
// mcp-read, pages "1-3", file_type "image": a text header, then per page its marker and one image.
function checkPdfRender(server, result) {
  const blocks = blocksOf(server, "doc.pdf images", result);
  const want = [1, 2, 3];
  const expect = ["text", ...want.flatMap(() => ["text", "image"])].join(", ");
  if (kinds(blocks) !== expect) fail(`${server}: doc.pdf images: blocks ${kinds(blocks)}, expected ${expect}`);
  const images = [];
  want.forEach((k, i) => {
    const marker = blocks[1 + 2 * i].text;
    if (!marker.includes(`── Page ${k} of ${docsManifest.pdf.pages} ──`)) fail(`${server}: doc.pdf images: block ${2 + 2 * i} is ${JSON.stringify(marker.slice(0, 80))}, expected page ${k}'s marker`);
    const { data, mimeType } = blocks[2 + 2 * i];
    if (typeof data !== "string" || data.length % 4 !== 0 || !BASE64_RE.test(data)) fail(`${server}: doc.pdf page ${k}: image data is not valid base64`);
    if (data.length > DOC_MAX_BASE64) fail(`${server}: doc.pdf page ${k}: base64 is ${data.length} chars (> ${DOC_MAX_BASE64})`);
    const bytes = Buffer.from(data, "base64");
    const info = imageInfo(bytes);
    const want = { "image/png": "png", "image/jpeg": "jpeg" }[mimeType];
    if (!want || !info || info.format !== want) fail(`${server}: doc.pdf page ${k}: mimeType ${mimeType}, data ${info ? info.format : "not a PNG or JPEG"}`);
    if (!imageComplete(bytes, info.format)) fail(`${server}: doc.pdf page ${k}: the ${info.format} data is truncated`);
    if (Math.max(info.width, info.height) > DOC_MAX_EDGE || Math.min(info.width, info.height) < 100) fail(`${server}: doc.pdf page ${k}: rendered ${info.width}×${info.height}`);
    if (Math.abs((info.width / info.height) / (612 / 792) - 1) > 0.02) fail(`${server}: doc.pdf page ${k}: ${info.width}×${info.height} is not the page's aspect ratio (612:792)`);
    images.push({ mime: mimeType, width: info.width, height: info.height, b64: data.length });
  });
  return { images, b64: images.reduce((n, i) => n + i.b64, 0) };
}
// The notebook's PNG outputs as the file holds them (base64 joined), to find them in answers.
let nbImagesCache = null;
function nbImages() {
  if (!nbImagesCache) {
    const nb = JSON.parse(readFileSync(docsManifest.notebook.path, "utf8"));
    nbImagesCache = [];
    for (const c of nb.cells) for (const o of c.outputs || []) {
      const d = o.data && o.data["image/png"];
      if (d) nbImagesCache.push([].concat(d).join("").replace(/\s+/g, ""));
    }
  }
  return nbImagesCache;
}
// mcp-read: text blocks and image blocks; every cell present, every PNG output an image block (the
// file's PNG unchanged, or a PNG/JPEG within the limits), no base64 in any text block.
function checkNotebook(server, result) {
  const N = docsManifest.notebook;
  const blocks = blocksOf(server, "nb.ipynb", result);
  const texts = blocks.filter((b) => b.type === "text");
  const imgs = blocks.filter((b) => b.type === "image");
  if (texts.length + imgs.length !== blocks.length) fail(`${server}: nb.ipynb: unexpected blocks ${kinds(blocks)}`);
  if (imgs.length < 1) fail(`${server}: nb.ipynb: no image block (got ${kinds(blocks)})`);
  if (imgs.length !== N.images.length) fail(`${server}: nb.ipynb: ${imgs.length} image blocks, the notebook has ${N.images.length} PNG outputs`);
  const all = texts.map((b) => b.text).join("\n");
  const b64run = /[A-Za-z0-9+/]{120,}={0,2}/.exec(all);
  if (b64run) fail(`${server}: nb.ipynb: a text block holds base64-like data: ${b64run[0].slice(0, 60)}…`);
  for (const b64 of nbImages()) if (all.includes(b64.slice(0, 40))) fail(`${server}: nb.ipynb: a text block holds an image's base64`);
  for (let c = 1; c <= N.cells; c++) {
    if (!all.includes(`# step ${c}: load, transform and summarise batch ${c}\n`)) fail(`${server}: nb.ipynb: cell ${c}'s source is missing`);
    if (!all.includes(`batch ${c}: `)) fail(`${server}: nb.ipynb: cell ${c}'s output is missing`);
  }
  const originals = new Set(N.images.map((i) => i.sha256));
  let unchanged = 0, b64 = 0;
  for (const [i, im] of imgs.entries()) {
    if (typeof im.data !== "string" || im.data.length % 4 !== 0 || !BASE64_RE.test(im.data)) fail(`${server}: nb.ipynb: image ${i + 1}: data is not valid base64`);
    const bytes = Buffer.from(im.data, "base64");
    const info = imageInfo(bytes);
    const want = { "image/png": "png", "image/jpeg": "jpeg" }[im.mimeType];
    if (!want || !info || info.format !== want) fail(`${server}: nb.ipynb: image ${i + 1}: mimeType ${im.mimeType}, data ${info ? info.format : "not a PNG or JPEG"}`);
    if (!imageComplete(bytes, info.format) || Math.max(info.width, info.height) > DOC_MAX_EDGE) fail(`${server}: nb.ipynb: image ${i + 1}: truncated or over ${DOC_MAX_EDGE} px`);
    if (originals.has(sha256(bytes))) unchanged++;
    b64 += im.data.length;
  }
  const meta = result._meta;
  if (meta && (meta.end_cell !== undefined && meta.end_cell !== N.cells || meta.truncated === true)) fail(`${server}: nb.ipynb: _meta says end_cell ${meta.end_cell}, truncated ${meta.truncated}`);
  return { texts: texts.length, text: textBytes(blocks), images: imgs.length, unchanged, b64 };
}
// Peer, read_media_file on the PDF: one resource block holding the whole file as base64.
let pdfFileBase64 = null;
function checkPeerPdf(server, result) {
  const blocks = blocksOf(server, "doc.pdf", result);
  if (blocks.length !== 1 || blocks[0].type !== "resource") fail(`${server}: doc.pdf: expected one resource block, got ${kinds(blocks)}`);
  const r = blocks[0].resource || {};
  pdfFileBase64 ??= readFileSync(docsManifest.pdf.path).toString("base64");
  if (r.blob !== pdfFileBase64) fail(`${server}: doc.pdf: the blob (${(r.blob || "").length} chars) is not the base64 of the file (${pdfFileBase64.length} chars)`);
  return { blob: r.blob.length, mime: r.mimeType || "none" };
}
// Peer, read_text_file on the notebook: the file's text, unchanged.
let nbFileText = null;
function checkPeerNotebook(server, result) {
  const blocks = blocksOf(server, "nb.ipynb", result);
  if (blocks.length !== 1 || blocks[0].type !== "text") fail(`${server}: nb.ipynb: expected one text block, got ${kinds(blocks)}`);
  nbFileText ??= readFileSync(docsManifest.notebook.path, "utf8");
  if (blocks[0].text !== nbFileText) fail(`${server}: nb.ipynb: the text (${blocks[0].text.length} chars) is not the file (${nbFileText.length} chars)`);
  return { text: Buffer.byteLength(blocks[0].text), inlineB64: nbImages().reduce((n, b) => n + b.length, 0) };
}

// ------------------------------------------------------------------ the two servers
const S = manifest.source;
const L = manifest.log;
const DP = docsManifest ? docsManifest.pdf : null;
const NB = docsManifest ? docsManifest.notebook : null;
const servers = [];
if (only !== "peer") {
  servers.push({
    name: "mcp-read",
    cmd: args["mcp-read"],
    args: [ROOT],
    tool: "read",
    imageTool: "read",
    image: (img) => ({
      call: { name: "read", arguments: { file_path: img.path } },
      opts: { textFirst: true, passThrough: img.key === "pass" },
    }),
    sourceHead: {
      call: { name: "read", arguments: { file_path: S.path, limit: W } },
      check: (t) => checkNumbered("mcp-read", t, 1, W, S.first, S.last),
    },
    logHead: {
      call: { name: "read", arguments: { file_path: L.path, limit: W } },
      check: (t) => checkNumbered("mcp-read", t, 1, W, L.first, L.headLast),
    },
    logDeep: {
      call: { name: "read", arguments: { file_path: L.path, offset: DEEP, limit: W } },
      check: (t) => checkNumbered("mcp-read", t, DEEP, W, L.deepFirst, L.deepLast),
    },
    docs: docsManifest && {
      pdf: { call: { name: "read", arguments: { file_path: DP.path, pages: "1-20" } },
        check: (r) => checkPdfText("mcp-read", r, { blob: true }) },
      pdfText: { call: { name: "read", arguments: { file_path: DP.path, pages: "1-20", file_type: "text" } },
        check: (r) => checkPdfText("mcp-read", r, { blob: false }) },
      pdfRender: { call: { name: "read", arguments: { file_path: DP.path, pages: "1-3", file_type: "image" } },
        check: (r) => checkPdfRender("mcp-read", r) },
      nb: { call: { name: "read", arguments: { file_path: NB.path } }, check: (r) => checkNotebook("mcp-read", r) },
    },
  });
}
if (only !== "mcp-read") {
  servers.push({
    name: "peer",
    cmd: process.execPath,
    args: [args.peer, ROOT],
    tool: "read_text_file",
    imageTool: "read_media_file",
    image: (img) => ({
      call: { name: "read_media_file", arguments: { path: img.path } },
      opts: { textFirst: false, passThrough: true },
    }),
    sourceHead: {
      call: { name: "read_text_file", arguments: { path: S.path, head: W } },
      check: (t) => checkPlainHead("peer", t, W, S.first, S.last),
    },
    logHead: {
      call: { name: "read_text_file", arguments: { path: L.path, head: W } },
      check: (t) => checkPlainHead("peer", t, W, L.first, L.headLast),
    },
    logDeep: {
      call: { name: "read_text_file", arguments: { path: L.path, tail: W } },
      check: (t) => checkPlainTail("peer", t, W),
    },
    // The peer has no page selection, text extraction or rendering: the PDF only as a blob.
    docs: docsManifest && {
      pdf: { call: { name: "read_media_file", arguments: { path: DP.path } }, check: (r) => checkPeerPdf("peer", r) },
      nb: { call: { name: "read_text_file", arguments: { path: NB.path } }, check: (r) => checkPeerNotebook("peer", r) },
    },
  });
}

// The first answer of a row gets the full check; every later one must be identical to it.
function checker(server, spec) {
  let reference = null;
  return (result) => {
    const text = textOf(server.name, result);
    if (reference === null) {
      spec.check(text);
      reference = text;
    } else if (text !== reference) {
      fail(`${server.name}: answer differs from the first answer to the same call`);
    }
    return text;
  };
}

// ------------------------------------------------------------------ measurements
// Fairness: both servers run in the same process tree at the same time, and every row is measured
// in rounds in which each side (and, for the image rows, the floor) does one unit of work, the
// order alternating from round to round. Load that comes and goes during the run (the machine is
// often shared) then falls on both sides alike, which a whole row per server in turn would not do.
const results = {}; // results[server][row] = { value, ...extra } | { error }
const errors = [];
function setResult(name, row, v) { (results[name] ??= {})[row] = v; }
function setError(name, row, e) {
  if (!(e instanceof Failure)) e = new Failure(`${name}: ${e.stack || e}`);
  setResult(name, row, { error: e.message });
  errors.push(`${row}: ${e.message}`);
}
// parts: [{ name, once(i) -> Promise, done() -> result }]. A part that fails drops out of the row
// (its cell reads FAIL); the others go on.
async function interleave(row, parts, rounds) {
  const live = parts.filter((p) => !p.skip);
  for (let i = 0; i < rounds; i++) {
    const order = i % 2 ? [...live].reverse() : live;
    for (const p of order) {
      if (p.failed) continue;
      try { await p.once(i); } catch (e) { p.failed = true; setError(p.name, row, e); }
    }
  }
  for (const p of live) {
    if (p.failed) continue;
    try { setResult(p.name, row, await p.done()); } catch (e) { setError(p.name, row, e); }
  }
}
const stats = (lat) => ({ value: median(lat), p90: pct(lat, 90), min: Math.min(...lat), max: Math.max(...lat), n: lat.length });

// Row: spawn -> initialize answered; idle peak RSS. Round 0 warms the page cache and is not counted.
async function rowInit() {
  const parts = servers.map((server) => {
    const times = [], rss = [], spawnCall = [];
    return {
      name: server.name,
      async once(i) {
        const s = new Session(server);
        try {
          const ms = await s.initialize();
          await sleep(30); // let it settle into idle
          const hwm = vmHWMKiB(s.pid);
          if (i > 0) { times.push(ms); rss.push(hwm); spawnCall.push(s.spawnMs); }
          if (i === 0) server.info = s.serverInfo;
        } finally {
          await s.close();
        }
      },
      done() {
        setResult(server.name, "idleRss", { value: median(rss) / 1024 });
        return { ...stats(times), spawnCall: median(spawnCall) };
      },
    };
  });
  await interleave("init", parts, INIT_SPAWNS + 1);
  for (const server of servers) {
    const r = results[server.name];
    if (r.init && r.init.error && !r.idleRss) r.idleRss = { error: r.init.error };
  }
}

async function openSession(server, tool = server.tool, clientInfo) {
  const s = new Session(server);
  await s.initialize(clientInfo);
  const r = await s.request("tools/list", {});
  const names = (r.msg.result && r.msg.result.tools || []).map((t) => t.name);
  if (!names.includes(tool)) fail(`${server.name}: tools/list has no ${tool} (got ${names.join(", ")})`);
  return s;
}
// One long-lived session per server for a group of rows; a server whose session cannot be opened
// gets FAIL in those rows.
async function openAll(what, tool, rowsOf) {
  const out = new Map();
  for (const server of servers) {
    try {
      out.set(server.name, await openSession(server, tool(server)));
    } catch (e) {
      errors.push(`${what} session: ${e.message}`);
      for (const row of rowsOf(server)) setResult(server.name, row, { error: e.message });
    }
  }
  return out;
}

// Sequential calls for THROUGHPUT_SECONDS per server, in slices of SLICE_MS taken in turns.
async function rowRate(sessions) {
  const parts = servers.filter((s) => sessions.has(s.name)).map((server) => {
    const s = sessions.get(server.name);
    const check = checker(server, server.sourceHead);
    const lat = [];
    let busy = 0, bytes = 0, warm = false, cpu = 0;
    return {
      name: server.name,
      async once() {
        if (!warm) {
          for (let i = 0; i < WARMUP_CALLS; i++) check((await s.callTool(server.sourceHead.call)).result);
          warm = true;
        }
        const cpuStart = cpuSeconds(s.pid);
        const start = performance.now();
        const end = start + SLICE_MS;
        while (performance.now() < end) {
          const { result, ms } = await s.callTool(server.sourceHead.call);
          bytes = check(result).length;
          lat.push(ms);
        }
        busy += performance.now() - start;
        cpu += cpuSeconds(s.pid) - cpuStart;
      },
      done: () => ({ value: lat.length / (busy / 1000), p50: median(lat), p90: pct(lat, 90), calls: lat.length, bytes,
        cpuMs: (cpu * 1000) / lat.length }),
    };
  });
  await interleave("rate", parts, Math.round((THROUGHPUT_SECONDS * 1000) / SLICE_MS));
}

// n single calls per server, alternating.
async function rowCalls(row, sessions, specOf, n) {
  const parts = servers.filter((s) => sessions.has(s.name) && specOf(s)).map((server) => {
    const s = sessions.get(server.name);
    const spec = specOf(server);
    const check = checker(server, spec);
    const lat = [];
    let bytes = 0;
    return {
      name: server.name,
      async once() {
        const { result, ms } = await s.callTool(spec.call);
        bytes = check(result).length;
        lat.push(ms);
      },
      done: () => ({ ...stats(lat), first: lat[0], bytes }),
    };
  });
  await interleave(row, parts, n);
}

// INFLIGHT requests written at once on one session, the round's time being the wait for the last
// answer. A server that handles requests one at a time takes INFLIGHT times one call.
async function rowInflight(sessions) {
  const parts = servers.filter((s) => sessions.has(s.name)).map((server) => {
    const s = sessions.get(server.name);
    const check = checker(server, server.sourceHead);
    const rounds = [], each = [];
    return {
      name: server.name,
      async once(i) {
        const t0 = performance.now();
        const answers = await Promise.all(Array.from({ length: INFLIGHT }, () => s.callTool(server.sourceHead.call)));
        const ms = performance.now() - t0;
        for (const a of answers) check(a.result);
        if (i >= INFLIGHT_WARMUP) { rounds.push(ms); for (const a of answers) each.push(a.ms); }
      },
      done: () => ({ ...stats(rounds), rate: INFLIGHT / (median(rounds) / 1000), eachP50: median(each), eachP90: pct(each, 90) }),
    };
  });
  await interleave("inflight", parts, INFLIGHT_ROUNDS + INFLIGHT_WARMUP);
}

// The first answer is checked in full; every later one must carry the same blocks.
function blockCalls(server, s, call, check, what) {
  const lat = [], parse = [];
  let sent = null, reference = null, wire = 0;
  return {
    name: server.name,
    async once() {
      const { result, ms, bytes, parseMs } = await s.callTool(call);
      parse.push(parseMs);
      const key = JSON.stringify(result && result.content);
      if (reference === null) {
        sent = check(result);
        reference = key;
      } else if (key !== reference) {
        check(result); // names what is wrong, if anything is
        fail(`${server.name}: ${what}: answer differs from the first answer to the same call`);
      }
      lat.push(ms);
      wire = bytes;
    },
    done: () => ({ ...stats(lat), first: lat[0], wire, sent, parse: median(parse) }),
  };
}

// Client-side floor: reading the file and base64-encoding it in this process, one run per round
// between the servers' calls. The first FLOOR_WARMUP runs mostly measure heap growth.
function floorPart(img) {
  const t = [];
  return {
    name: "floor",
    async once(i) {
      const t0 = performance.now();
      const b = readFileSync(img.path).toString("base64");
      const ms = performance.now() - t0;
      if (b.length !== img.base64) throw new Error(`${img.file}: base64 length ${b.length}, expected ${img.base64}`);
      if (i >= FLOOR_WARMUP) t.push(ms);
    },
    done: () => stats(t),
  };
}

// ------------------------------------------------------------------ rows for Claude Code
const CLAUDE_CODE = { name: "claude-code", version: "2.1.330" };
// mcp-read's answer for a Claude Code client: a text block and one image block that Claude Code
// passes unchanged (CC_IMAGE), a complete PNG or JPEG with the original's aspect ratio, whose size
// agrees with `_meta` when `_meta` gives it. Returns what was sent.
function checkFit(img, result) {
  const who = `mcp-read (claude-code): ${img.file}`;
  const blocks = blocksOf("mcp-read", img.file, result);
  const ims = blocks.filter((b) => b && b.type === "image");
  if (ims.length !== 1) fail(`${who}: ${ims.length} image blocks (got ${kinds(blocks)})`);
  const { data, mimeType } = ims[0];
  if (typeof data !== "string" || data.length % 4 !== 0 || !BASE64_RE.test(data)) fail(`${who}: data is not valid base64`);
  const bytes = Buffer.from(data, "base64");
  const info = imageInfo(bytes);
  const want = { "image/png": "png", "image/jpeg": "jpeg" }[mimeType];
  if (!want || !info || info.format !== want) fail(`${who}: mimeType ${mimeType}, data ${info ? info.format : "not a PNG or JPEG"}`);
  if (!imageComplete(bytes, info.format)) fail(`${who}: the ${info.format} data is truncated`);
  const tiles = Math.ceil(info.width / 28) * Math.ceil(info.height / 28);
  const over = [];
  if (bytes.length > CC_IMAGE.bytes) over.push(`${bytes.length} bytes > ${CC_IMAGE.bytes}`);
  if (data.length > CC_IMAGE.base64) over.push(`${data.length} base64 chars > ${CC_IMAGE.base64}`);
  if (Math.max(info.width, info.height) > CC_IMAGE.edge) over.push(`long edge ${Math.max(info.width, info.height)} > ${CC_IMAGE.edge}`);
  if (tiles > CC_IMAGE.tiles) over.push(`${tiles} tiles > ${CC_IMAGE.tiles}`);
  if (over.length) fail(`${who}: sent ${info.width}×${info.height} outside Claude Code's budget: ${over.join(", ")}`);
  if (Math.abs((info.width / info.height) / (img.width / img.height) - 1) > 0.01 + 1 / Math.min(info.width, info.height)) {
    fail(`${who}: sent ${info.width}×${info.height}, aspect ratio differs from ${img.width}×${img.height}`);
  }
  const meta = result._meta || {};
  if (meta.width !== undefined && (meta.width !== info.width || meta.height !== info.height)) {
    fail(`${who}: _meta says ${meta.width}×${meta.height}, the image is ${info.width}×${info.height}`);
  }
  if (meta.sent_mime !== undefined && meta.sent_mime !== mimeType) fail(`${who}: _meta.sent_mime ${meta.sent_mime}, the block says ${mimeType}`);
  const quality = meta.quality ?? meta.jpeg_quality ?? meta.sent_quality ?? null;
  return { mime: mimeType, width: info.width, height: info.height, bytes: bytes.length, b64: data.length, tiles, quality, profile: meta.host_profile };
}
// libvips' own CLI doing the same fit: `vips thumbnail IN OUT[Q=q] W --height H` (JPEG) or
// `OUT.png`, W×H being what mcp-read sent; `--size force` when the box alone gives another size
// (vips rounds 6000×4000 into a 2000×1333 box to 1999×1333). The time is spawn to exit.
function vipsFitPart(img, target, outDir) {
  const t = [];
  let force = false, made = null;
  const run = (out, sent) => new Promise((res, rej) => {
    const argv = ["thumbnail", img.path, out, String(sent.width), "--height", String(sent.height), ...(force ? ["--size", "force"] : [])];
    const t0 = performance.now();
    const child = spawn("vips", argv, { stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    child.stderr.on("data", (d) => { err = (err + d).slice(-2000); });
    child.on("error", (e) => rej(new Failure(`vips: ${e.message}`)));
    child.on("close", (code) => (code === 0 ? res(performance.now() - t0) : rej(new Failure(`vips ${argv.join(" ")} exited with ${code}: ${err.trim()}`))));
  });
  return {
    name: "vips",
    async once(i) {
      const sent = target.sent;
      if (!sent) fail(`vips: ${img.file}: no mcp-read answer to copy the size and format from`);
      const jpeg = sent.mime === "image/jpeg";
      const q = sent.quality ?? CC_JPEG_Q;
      const file = `${outDir}/fit-${img.key}.${jpeg ? "jpg" : "png"}`;
      const out = jpeg ? `${file}[Q=${q}]` : file;
      let ms = await run(out, sent);
      if (i === 0) {
        let got = imageInfo(readFileSync(file));
        if (got && (got.width !== sent.width || got.height !== sent.height) && !force) {
          force = true;
          ms = await run(out, sent);
          got = imageInfo(readFileSync(file));
        }
        if (!got || got.width !== sent.width || got.height !== sent.height) {
          fail(`vips: ${img.file}: wrote ${got ? `${got.width}×${got.height}` : "no readable image"}, mcp-read sent ${sent.width}×${sent.height}`);
        }
        made = { bytes: readFileSync(file).length, q: jpeg ? q : null, force, cmd: `vips thumbnail ${img.file} OUT.${jpeg ? `jpg[Q=${q}]` : "png"} ${sent.width} --height ${sent.height}${force ? " --size force" : ""}` };
      }
      if (i >= FIT_WARMUP) t.push(ms);
    },
    done: () => ({ ...stats(t), made }),
  };
}
async function rowsFit() {
  const server = servers.find((s) => s.name === "mcp-read");
  const rows = ["photo", "noise"].map((k) => "fit_" + k);
  let s;
  try {
    s = await openSession(server, "read", CLAUDE_CODE); // a fresh process: Claude Code's profile
  } catch (e) {
    errors.push(`Claude Code image budget session: ${e.message}`);
    for (const row of rows) setResult("mcp-read", row, { error: e.message });
    return;
  }
  const outDir = mkdtempSync(`${ROOT}/.fit-out-`);
  try {
    for (const key of ["photo", "noise"]) {
      const img = { key, ...imagesManifest.images[key] };
      const lat = [], parse = [];
      let sent = null, reference = null, wire = 0;
      const mcp = {
        name: "mcp-read",
        sent: null,
        async once(i) {
          const { result, ms, bytes, parseMs } = await s.callTool({ name: "read", arguments: { file_path: img.path } });
          const key = JSON.stringify(result && result.content);
          if (reference === null) { sent = checkFit(img, result); mcp.sent = sent; reference = key; }
          else if (key !== reference) { checkFit(img, result); fail(`mcp-read: ${img.file}: answer differs from the first answer to the same call`); }
          if (i >= FIT_WARMUP) { lat.push(ms); parse.push(parseMs); }
          if (i === 0) mcp.firstMs = ms;
          wire = bytes;
        },
        done: () => ({ ...stats(lat), first: mcp.firstMs, wire, sent, parse: median(parse) }),
      };
      // mcp-read first in round 0: vips copies the size and format of its answer.
      await interleave("fit_" + key, [mcp, vipsFitPart(img, mcp, outDir)], FIT_ROUNDS + FIT_WARMUP);
    }
  } finally {
    rmSync(outDir, { recursive: true, force: true });
    await s.close();
  }
}

// tools/list: the answer line's bytes (without its newline) for a generic client and for Claude
// Code, each in a fresh process. Claude Code 2.1.330 sends stateless 2026-07-28 requests to a
// server that answers server/discover (mcp-read), its clientInfo in each request's `_meta`; to one
// that does not (the peer) it falls back to initialize. Both ways are measured for mcp-read.
async function rowsToolsList() {
  const statelessMeta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": CLAUDE_CODE,
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  const list = async (server, how) => {
    const s = new Session(server);
    try {
      if (how !== "stateless") await s.initialize(how === "claude-code" ? CLAUDE_CODE : undefined);
      if (how === "generic") server.info ??= s.serverInfo;
      const r = await s.request("tools/list", how === "stateless" ? { _meta: statelessMeta } : {});
      const tools = (r.msg.result && r.msg.result.tools) || [];
      const names = tools.map((t) => t.name);
      if (!names.includes(server.tool)) fail(`${server.name}: tools/list (${how}) has no ${server.tool} (got ${names.join(", ")})`);
      const read = tools.find((t) => t.name === server.tool);
      return { bytes: r.bytes, tools: tools.length, meta: read && read._meta ? Object.keys(read._meta).join(", ") : "" };
    } finally {
      await s.close();
    }
  };
  for (const server of servers) {
    const hows = server.name === "mcp-read" ? ["generic", "claude-code", "stateless"] : ["generic", "claude-code"];
    const got = {};
    try {
      for (const how of hows) got[how] = await list(server, how);
      setResult(server.name, "tl_generic", { value: got.generic.bytes, ...got.generic });
      const cc = got.stateless || got["claude-code"];
      setResult(server.name, "tl_cc", { value: Math.max(cc.bytes, got["claude-code"].bytes), ...cc, viaInit: got["claude-code"].bytes, stateless: got.stateless ? got.stateless.bytes : null });
    } catch (e) {
      for (const row of ["tl_generic", "tl_cc"]) if (!(results[server.name] || {})[row]) setError(server.name, row, e);
    }
  }
}

// The host round trip, from what bench/host-roundtrip.mjs wrote (it runs in a network namespace
// of its own, before this script).
function rowHosts() {
  if (!hostsRun) return;
  if (hostsRun.skipped) return;
  if (hostsRun.error) { for (const n of servers.map((s) => s.name)) setError(n, "host_cc", new Failure(hostsRun.error)); return; }
  for (const [side, r] of Object.entries(hostsRun.sides || {})) {
    const name = side === "mcp-read-relay" ? "relay" : side;
    if (r.error) {
      if (name === "relay") { setResult(name, "host_cc", { error: r.error }); errors.push(`host_cc: mcp-read behind the relay: ${r.error}`); }
      else setError(name, "host_cc", new Failure(`${side}: ${r.error}`));
    } else setResult(name, "host_cc", { ...stats(r.times), claude: median(r.claude), received: r.received, clientInfo: r.clientInfo });
  }
}

// HTTP: mcp-read over Streamable HTTP on loopback, HTTP_CLIENTS clients each in its own session
// calling the 2000-line read in a loop for HTTP_SECONDS. The peer speaks stdio only.
async function rowHttp(server) {
  const child = spawn(server.cmd, ["--transport", "http", "--port", "0", ROOT], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  try {
    const port = await new Promise((res, rej) => {
      const timer = setTimeout(() => rej(new Failure(`mcp-read --transport http announced no port: ${stderr.slice(-500)}`)), INIT_TIMEOUT_MS);
      child.stderr.on("data", (d) => {
        stderr = (stderr + d).slice(-8192);
        const m = /listening on http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(stderr);
        if (m) { clearTimeout(timer); res(Number(m[1])); }
      });
      child.on("exit", (code) => rej(new Failure(`mcp-read --transport http exited (${code}): ${stderr.slice(-500)}`)));
    });
    const url = `http://127.0.0.1:${port}/mcp`;
    const base = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
    let id = 1;
    const post = async (body, session) => {
      const r = await fetch(url, { method: "POST", headers: session ? { ...base, "Mcp-Session-Id": session } : base, body: JSON.stringify(body) });
      const text = await r.text();
      if (r.status !== 200 && r.status !== 202) fail(`mcp-read over HTTP: ${body.method}: HTTP ${r.status} ${text.slice(0, 200)}`);
      return { r, msg: text ? JSON.parse(text) : null };
    };
    const check = checker(server, server.sourceHead);
    const sessionsHttp = [];
    for (let c = 0; c < HTTP_CLIENTS; c++) {
      const { r } = await post({ jsonrpc: "2.0", id: id++, method: "initialize",
        params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "mcp-read-bench", version: "1" } } });
      const sid = r.headers.get("mcp-session-id");
      if (!sid) fail("mcp-read over HTTP: initialize gave no Mcp-Session-Id");
      await post({ jsonrpc: "2.0", method: "notifications/initialized" }, sid);
      sessionsHttp.push(sid);
    }
    const call = () => ({ jsonrpc: "2.0", id: id++, method: "tools/call", params: server.sourceHead.call });
    for (const sid of sessionsHttp) for (let i = 0; i < 3; i++) check((await post(call(), sid)).msg.result); // warm-up
    const lat = [];
    const t0 = performance.now();
    const end = t0 + HTTP_SECONDS * 1000;
    await Promise.all(sessionsHttp.map(async (sid) => {
      while (performance.now() < end) {
        const a = performance.now();
        const { msg } = await post(call(), sid);
        lat.push(performance.now() - a);
        if (!msg || msg.error) fail(`mcp-read over HTTP: tools/call: ${JSON.stringify(msg && msg.error)}`);
        check(msg.result);
      }
    }));
    const secs = (performance.now() - t0) / 1000;
    return { value: lat.length / secs, p50: median(lat), p90: pct(lat, 90), calls: lat.length, rss: vmHWMKiB(child.pid) / 1024 };
  } finally {
    child.kill("SIGTERM");
  }
}

const loadavg = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
const loadBefore = loadavg();
const tStart = performance.now();
if (CORE) {
await rowInit();

const TEXT_ROWS = ["rate", "inflight", "logHead", "logDeep", "peakRss"];
const sessions = await openAll("text", (s) => s.tool, () => TEXT_ROWS);
await rowRate(sessions);
await rowInflight(sessions);
await rowCalls("logHead", sessions, (s) => s.logHead, LOG_CALLS);
await rowCalls("logDeep", sessions, (s) => s.logDeep, LOG_CALLS);
for (const server of servers.filter((s) => sessions.has(s.name))) {
  const s = sessions.get(server.name);
  if (s.exited) setError(server.name, "peakRss", new Failure(`${server.name} ${s.exited}`));
  else setResult(server.name, "peakRss", { value: vmHWMKiB(s.pid) / 1024 });
  await s.close();
}
}

// Image rows: a fresh process per server (so its peak RSS is the image work's).
const IMAGES = CORE && imagesManifest
  ? ["pass", "big", "photo", "scan"].map((k) => ({ key: k, ...imagesManifest.images[k] }))
  : [];
const floors = {};
if (IMAGES.length) {
  const imgSessions = await openAll("image", (s) => s.imageTool, () => [...IMAGES.map((i) => "img_" + i.key), "imgPeakRss"]);
  for (const img of IMAGES) {
    const parts = [floorPart(img), ...servers.filter((s) => imgSessions.has(s.name)).map((server) => {
      const { call, opts } = server.image(img);
      return blockCalls(server, imgSessions.get(server.name), call, (r) => checkImage(server.name, img, r, opts), img.file);
    })];
    await interleave("img_" + img.key, parts, IMAGE_CALLS + FLOOR_WARMUP);
    floors[img.key] = results.floor && results.floor["img_" + img.key];
  }
  for (const server of servers.filter((s) => imgSessions.has(s.name))) {
    const s = imgSessions.get(server.name);
    if (s.exited) setError(server.name, "imgPeakRss", new Failure(`${server.name} ${s.exited}`));
    else setResult(server.name, "imgPeakRss", { value: vmHWMKiB(s.pid) / 1024 });
    await s.close();
  }
}

// Document rows: again a fresh process per server. A row a server has no equivalent for is left
// out for that server ("—" in the table).
const DOC_ROWS = docsManifest ? ["pdfText", "pdf", "pdfRender", "nb"] : [];
if (DOC_ROWS.length) {
  const docSessions = await openAll("document", (s) => s.imageTool,
    (s) => [...DOC_ROWS.filter((r) => s.docs[r]).map((r) => "doc_" + r), "docPeakRss"]);
  for (const row of DOC_ROWS) {
    const parts = servers.filter((s) => docSessions.has(s.name) && s.docs[row]).map((server) => {
      const spec = server.docs[row];
      return blockCalls(server, docSessions.get(server.name), spec.call, spec.check, JSON.stringify(spec.call.arguments));
    });
    await interleave("doc_" + row, parts, (row === "pdfRender" ? RENDER_CALLS : DOC_CALLS));
  }
  for (const server of servers.filter((s) => docSessions.has(s.name))) {
    const s = docSessions.get(server.name);
    if (s.exited) setError(server.name, "docPeakRss", new Failure(`${server.name} ${s.exited}`));
    else setResult(server.name, "docPeakRss", { value: vmHWMKiB(s.pid) / 1024 });
    await s.close();
  }
}

// Claude Code: its image budget (against libvips' CLI), the tools/list sizes, the host round trip.
if (FIT) await rowsFit();
if (TOOLS_LIST) await rowsToolsList();
rowHosts();

if (HTTP_SECONDS > 0) {
  for (const server of servers.filter((s) => s.name === "mcp-read")) {
    try { setResult(server.name, "http", await rowHttp(server)); } catch (e) { setError(server.name, "http", e); }
  }
}
const totalSecs = (performance.now() - tStart) / 1000;
const loadAfter = loadavg();

// ------------------------------------------------------------------ the table
const fmtMs = (v) => (v < 10 ? v.toFixed(2) : v < 100 ? v.toFixed(1) : v.toFixed(0)) + " ms";
const fmtMiB = (v) => v.toFixed(1) + " MiB";
const fmtRate = (v) => (v < 100 ? v.toFixed(1) : v.toFixed(0)) + " calls/s";
const fmtRatio = (v) => (isFinite(v) && v > 0 ? (v < 10 ? v.toFixed(2) : v.toFixed(1)) + "×" : "—");
const fmtKiB = (b) => `${(b / 1024).toFixed(0)} KiB`;
const shortMs = (v) => (v < 10 ? v.toFixed(2) : v < 100 ? v.toFixed(1) : v.toFixed(0));
// A latency cell: the median, then the 90th percentile as the spread.
const fmtLat = (r) => `${fmtMs(r.value)} (p90 ${shortMs(r.p90)})`;

// better: "lower" means ratio = peer / mcp-read; "higher" means ratio = mcp-read / peer.
const rows = !CORE ? [] : [
  { key: "init", label: `startup: spawn → initialize answered (p50 of ${INIT_SPAWNS})`, fmt: fmtLat, better: "lower",
    note: (m, p) => `ratio = peer ÷ mcp-read; spawns alternate between the servers; of which the client's own spawn() call (fork/exec) takes ${spawnCall(m)} / ${spawnCall(p)}` },
  { key: "idleRss", label: "idle peak RSS after initialize (VmHWM, median)", fmt: (r) => fmtMiB(r.value), better: "lower",
    note: () => "ratio = peer ÷ mcp-read" },
  { key: "rate", label: `text, small: source.cpp (${fmtKiB(S.bytes)}), ${W} lines: calls/s`, fmt: (r) => fmtRate(r.value), better: "higher",
    note: (m, p) => `ratio = mcp-read ÷ peer; ${THROUGHPUT_SECONDS} s of sequential calls per server in ${SLICE_MS} ms turns (${calls(m)} / ${calls(p)} calls); answer text ${size(m)} / ${size(p)}; peer: \`head: ${W}\`` },
  { key: "rate", sub: true, label: `text, small: source.cpp, ${W} lines: latency`, fmt: (r) => fmtLat({ value: r.p50, p90: r.p90 }), val: (r) => r.p50, better: "lower",
    note: () => `ratio = peer ÷ mcp-read; the calls of the row above` },
  { key: "rate", sub: true, label: `text, small: source.cpp, ${W} lines: the server's CPU per call (user + system)`, fmt: (r) => fmtMs(r.cpuMs), val: (r) => r.cpuMs, better: "lower",
    note: () => `ratio = peer ÷ mcp-read; the calls of the rows above, CPU from /proc/PID/stat (threads and waited-for children included) around each turn; independent of the client's own speed; goal ≥ ${SERVER_CPU_GOAL}×` },
  { key: "inflight", label: `${INFLIGHT} calls in flight (source.cpp, ${W} lines each): time to the last answer, p50 of ${INFLIGHT_ROUNDS} rounds`, fmt: fmtLat, better: "lower",
    note: (m, p) => `ratio = peer ÷ mcp-read; ${INFLIGHT} requests written at once on one stdio session; ` +
      `${m && !m.error ? fmtRate(m.rate) : "n/a"} / ${p && !p.error ? fmtRate(p.rate) : "n/a"}; each call's own latency p50 ${m && !m.error ? fmtMs(m.eachP50) : "n/a"} / ${p && !p.error ? fmtMs(p.eachP50) : "n/a"}` },
  { key: "logHead", label: `text, large: app.log (${(L.bytes / 1048576).toFixed(0)} MiB), first ${W} lines (p50 of ${LOG_CALLS})`, fmt: fmtLat, better: "lower",
    note: (m, p) => `ratio = peer ÷ mcp-read; first call ${first(m)} / ${first(p)}; peer: \`head: ${W}\`` },
  { key: "logDeep", label: `deep offset: app.log, ${W} lines from line ${DEEP.toLocaleString("en-US")} (p50 of ${LOG_CALLS})`, fmt: fmtLat, better: "lower",
    note: (m, p) => `ratio = peer ÷ mcp-read; first call ${first(m)} / ${first(p)}; the peer has no offset: it runs \`tail: ${W}\` ` +
      `(last ${W} lines, read backwards from the end, an easier task), the closest it offers` },
  { key: "peakRss", label: "peak RSS after the text rows (VmHWM)", fmt: (r) => fmtMiB(r.value), better: "lower",
    note: () => "ratio = peer ÷ mcp-read" },
];
// Image rows (when the image fixtures exist).
const IM = imagesManifest ? imagesManifest.images : null;
const fmtMB = (n) => `${(n / 1e6).toFixed(2)} MB`;
const dims = (i) => `${i.width}×${i.height}`;
const sentBy = (r) => (r && !r.error && r.sent
  ? `${r.sent.passedThrough ? "the file unchanged" : `${r.sent.mime.replace("image/", "").toUpperCase()} ${r.sent.width}×${r.sent.height}`}, ` +
    `${fmtMB(r.sent.b64)} of base64`
  : "n/a");
const wire = (r) => (r && !r.error && r.wire ? fmtMB(r.wire) : "n/a");
const parseMs = (r) => (r && !r.error && r.parse !== undefined ? fmtMs(r.parse) : "n/a");
const common = (img, m, p) => `answer on the wire ${wire(m)} / ${wire(p)}, of which the client's own decoding (joining the chunks, JSON.parse) takes ${parseMs(m)} / ${parseMs(p)} (p50); ` +
  `first call ${first(m)} / ${first(p)}; floor min ${floors[img] ? fmtMs(floors[img].min) : "n/a"}`;
const LIMIT = IM ? `${imagesManifest.maxBase64.toLocaleString("en-US")}-character` : "";
if (IM && CORE) {
  rows.push(
    { key: "img_pass", label: `image pass-through: pass.png (${fmtMB(IM.pass.bytes)} PNG, ${dims(IM.pass)}), within the limits (p50 of ${IMAGE_CALLS + FLOOR_WARMUP})`, fmt: fmtLat, better: "lower", floor: true,
      note: (m, p) => `ratio = peer ÷ mcp-read; same work on both sides: the file unchanged as base64 (${fmtMB(IM.pass.base64)}); ` +
        `mcp-read sent ${sentBy(m)}, the peer ${sentBy(p)}; ${common("pass", m, p)}; the peer repeats the image in \`structuredContent\`, so its answer is twice the size` },
    { key: "img_big", label: `image re-encode: big.png (${fmtMB(IM.big.bytes)} PNG, ${dims(IM.big)}), base64 over the limit (p50 of ${IMAGE_CALLS + FLOOR_WARMUP})`, fmt: fmtLat, better: "lower", floor: true,
      note: (m, p) => `ratio = peer ÷ mcp-read, not the same work: mcp-read re-encodes to fit the ${LIMIT} limit, sent ${sentBy(m)}; ` +
        `the peer sends the file unchanged, ${fmtMB(IM.big.base64)} of base64, which the model API rejects (over the limit); ${common("big", m, p)}` },
    { key: "img_photo", label: `image downscale: photo.jpg (${fmtMB(IM.photo.bytes)} JPEG, ${dims(IM.photo)} = ${Math.round(IM.photo.width * IM.photo.height / 1e6)} MP) (p50 of ${IMAGE_CALLS + FLOOR_WARMUP})`, fmt: fmtLat, better: "lower", floor: true,
      note: (m, p) => `ratio = peer ÷ mcp-read, not the same work: mcp-read decodes and downscales to a ${imagesManifest.maxEdge} px long edge, sent ${sentBy(m)}; ` +
        `the peer sends the file unchanged, ${fmtMB(IM.photo.base64)} of base64 at ${dims(IM.photo)} (over both limits, rejected by the model API); ${common("photo", m, p)}` },
    { key: "img_scan", label: `image conversion: scan.bmp (${fmtMB(IM.scan.bytes)} BMP, ${dims(IM.scan)}) (p50 of ${IMAGE_CALLS + FLOOR_WARMUP})`, fmt: fmtLat, better: "lower", floor: true,
      note: (m, p) => `ratio = peer ÷ mcp-read, not the same work: mcp-read converts it, sent ${sentBy(m)}; ` +
        `the peer sends the BMP unchanged as \`image/bmp\`, ${fmtMB(IM.scan.base64)} of base64 (a format the model API does not accept, and over the limit); ${common("scan", m, p)}` },
    { key: "imgPeakRss", label: "peak RSS after the image rows (VmHWM)", fmt: (r) => fmtMiB(r.value), better: "lower",
      note: () => `ratio = peer ÷ mcp-read; a fresh process per server for the image rows, so this is their peak alone` },
  );
}
// Document rows (when the document fixtures exist).
const sentOf = (r) => (r && !r.error && r.sent ? r.sent : null);
const kib = (n) => (n >= 1048576 ? fmtMB(n) : fmtKiB(n));
const docCommon = (m, p) => `answer on the wire ${wire(m)} / ${wire(p)}; client's own decoding ${parseMs(m)} / ${parseMs(p)} (p50); first call ${first(m)} / ${first(p)}`;
const mcpOnly = (m) => `answer on the wire ${wire(m)}; client's own decoding ${parseMs(m)} (p50); first call ${first(m)}`;
if (docsManifest) {
  rows.push(
    { key: "doc_pdfText", label: `PDF text: doc.pdf (${DP.pages} pages, ${fmtKiB(DP.bytes)}), pages 1-20, \`file_type: "text"\` (p50 of ${DOC_CALLS})`, fmt: fmtLat, better: "lower",
      note: (m) => {
        const a = sentOf(m);
        return `mcp-read only: the text of the selected pages${a ? ` (${a.markers} page markers, ${kib(a.text)})` : ""}, no blob; ` +
          `the peer has no text extraction (its only way to a PDF is the whole-file blob of the next row); ${mcpOnly(m)}`;
      } },
    { key: "doc_pdf", label: `PDF page subset: doc.pdf, pages 1-20, text + PDF of those pages (p50 of ${DOC_CALLS})`, fmt: fmtLat, better: "lower",
      note: (m, p) => {
        const a = sentOf(m), b = sentOf(p);
        return `ratio = peer ÷ mcp-read, not the same work: mcp-read sends text the model can read, ` +
          (a ? `pages 1-20 under ${a.markers} page markers (${kib(a.text)}), plus a PDF of only the selected pages (${a.blobPages} pages, ${kib(a.blobBytes)}, ${kib(a.blob)} of base64) as a \`resource\` block` : "n/a") +
          `; the peer (\`read_media_file\`, no page selection) sends the whole ${DP.pages}-page file as one opaque base64 blob` +
          (b ? ` (\`resource\`, \`${b.mime}\`, ${kib(b.blob)}, repeated in \`structuredContent\`)` : "") +
          `, no text: Claude Code saves such a blob to disk instead of showing it; ${docCommon(m, p)}`;
      } },
    { key: "doc_pdfRender", label: `PDF render: doc.pdf, pages 1-3 as images, \`file_type: "image"\` (p50 of ${RENDER_CALLS})`, fmt: fmtLat, better: "lower",
      note: (m) => {
        const a = sentOf(m);
        return `mcp-read only: each page rendered (poppler) and sized for the model (long edge ≤ ${DOC_MAX_EDGE} px), after its page marker` +
          (a ? `: ${a.images.map((i) => `${i.mime.replace("image/", "").toUpperCase()} ${i.width}×${i.height}`).join(", ")}, ${fmtMB(a.b64)} of base64 in all` : "") +
          `; the peer cannot render pages; ${mcpOnly(m)}`;
      } },
    { key: "doc_nb", label: `notebook: nb.ipynb (${NB.cells} code cells, ${NB.images.length} PNG outputs, ${fmtMB(NB.bytes)}) (p50 of ${DOC_CALLS})`, fmt: fmtLat, better: "lower",
      note: (m, p) => {
        const a = sentOf(m), b = sentOf(p);
        return `ratio = peer ÷ mcp-read, not the same work: mcp-read sends the cells (sources and outputs) as text the model can read` +
          (a ? ` (${a.texts} text blocks, ${kib(a.text)}, no base64 in them) and the ${a.images} PNG outputs as \`image\` blocks the model sees ` +
            `(${a.unchanged} of them the file's PNG unchanged, ${fmtMB(a.b64)} of base64)` : "") +
          `; the peer (\`read_text_file\`) sends the raw JSON` +
          (b ? ` (${kib(b.text)}, of which ${fmtMB(b.inlineB64)} is the images' base64 as plain characters; repeated in \`structuredContent\`)` : "") +
          `; ${docCommon(m, p)}`;
      } },
    { key: "docPeakRss", label: "peak RSS after the document rows (VmHWM)", fmt: (r) => fmtMiB(r.value), better: "lower",
      note: () => `ratio = peer ÷ mcp-read; a fresh process per server for the document rows, so this is their peak alone` },
  );
}
if (HTTP_SECONDS > 0) {
  rows.push(
    { key: "http", label: `HTTP throughput: ${HTTP_CLIENTS} clients, Streamable HTTP sessions, source.cpp ${W} lines: calls/s over ${HTTP_SECONDS} s`, fmt: (r) => fmtRate(r.value), better: "higher",
      note: (m) => `mcp-read only (\`--transport http\`, loopback); the peer serves stdio only; ` +
        (m && !m.error ? `each call's latency p50 ${fmtMs(m.p50)}, p90 ${fmtMs(m.p90)}; ${m.calls} calls; server peak RSS ${fmtMiB(m.rss)}` : "n/a") },
  );
}
// Rows for Claude Code. In the image budget rows the peer column is libvips' own CLI (`vips`).
const fmtBytes = (n) => `${Math.round(n).toLocaleString("en-US")} B`;
const fitNote = (img) => (m, v) => {
  const a = sentOf(m);
  const made = v && !v.error && v.made;
  return `ratio = vips CLI ÷ mcp-read (≥ 1: mcp-read at least as fast); peer column: \`${made ? made.cmd : "vips thumbnail"}\`, spawn to exit, ` +
    `writing ${made ? `${fmtBytes(made.bytes)}` : "n/a"}${made && made.force ? " (the box alone gave another size)" : ""}; ` +
    `mcp-read: \`read\` on a session whose clientInfo is claude-code, from writing the request to the parsed answer` +
    (a ? `; sent ${a.mime.replace("image/", "").toUpperCase()} ${a.width}×${a.height}, ${fmtBytes(a.bytes)} (${a.b64.toLocaleString("en-US")} base64 chars), ${a.tiles.toLocaleString("en-US")} tiles: ` +
      `within Claude Code's budget (≤ ${CC_IMAGE.bytes.toLocaleString("en-US")} B, ≤ ${CC_IMAGE.edge} px, ≤ ${CC_IMAGE.tiles} tiles of 28 px)` +
      `; ${a.quality != null ? `JPEG quality ${a.quality} (from \`_meta\`)` : a.mime === "image/jpeg" ? `mcp-read reports no JPEG quality, vips writes Q=${CC_JPEG_Q}` : "PNG"}` : "") +
    `; answer on the wire ${wire(m)}, client's own decoding ${parseMs(m)} (p50); first call ${first(m)} (not counted); ${img.file}: ${dims(img)}, ${fmtMB(img.bytes)}`;
};
if (FIT) {
  const N = FIT_ROUNDS;
  rows.push(
    { key: "fit_photo", other: "vips", label: `fit into Claude Code's image budget: photo.jpg (24 MP JPEG) — peer column: \`vips thumbnail\` CLI (p50 of ${N})`,
      fmt: fmtLat, better: "lower", note: fitNote(IM.photo) },
    { key: "fit_noise", other: "vips", label: `fit into Claude Code's image budget: noise.png (noisy 12 MP PNG, ${fmtMB(IM.noise.bytes)}) — peer column: \`vips thumbnail\` CLI (p50 of ${N})`,
      fmt: fmtLat, better: "lower", note: fitNote(IM.noise) },
  );
}
if (TOOLS_LIST) {
  const tl = (r) => (r && !r.error ? `${r.tools} tools${r.meta ? `, \`_meta\` on the read tool: ${r.meta}` : ""}` : "n/a");
  rows.push(
    { key: "tl_generic", label: "tools/list size: generic client (bytes of the answer line)", fmt: (r) => fmtBytes(r.value), better: "lower",
      note: (m, p) => `ratio = peer ÷ mcp-read; clientInfo mcp-read-bench, after initialize; mcp-read ${tl(m)}; peer ${tl(p)}; goal ≤ ${TOOLS_LIST_GOAL.toLocaleString("en-US")} B` },
    { key: "tl_cc", label: "tools/list size: Claude Code (clientInfo claude-code)", fmt: (r) => fmtBytes(r.value), better: "lower",
      note: (m, p) => `ratio = peer ÷ mcp-read; mcp-read: the stateless 2026-07-28 request Claude Code 2.1.330 sends (clientInfo in \`_meta\`)` +
        `${m && !m.error ? `; after initialize ${fmtBytes(m.viaInit)}` : ""}; the peer answers no server/discover, so Claude Code initializes it: ` +
        `its answer after initialize with clientInfo claude-code; mcp-read ${tl(m)}; peer ${tl(p)}; goal ≤ ${TOOLS_LIST_GOAL.toLocaleString("en-US")} B` },
  );
}
if (hostsRun) {
  const R = hostsRun.rounds || 0;
  const recv = (r) => {
    const x = r && !r.error && r.received;
    if (!x) return "n/a";
    return x.whole ? `all ${x.lines.toLocaleString("en-US")} lines (${x.chars.toLocaleString("en-US")} chars)` :
      x.persisted ? `a ${x.chars.toLocaleString("en-US")}-char preview instead (Claude Code saved the result to disk: text-only, over 50,000 chars, no \`anthropic/maxResultSizeChars\`)` :
      `${x.chars.toLocaleString("en-US")} chars`;
  };
  const relay = (results.relay || {}).host_cc;
  rows.push(
    { key: "host_cc", label: `Claude Code round trip: spawn → result for a 2000-line read${R ? ` (p50 of ${R})` : ""}`, fmt: fmtLat, better: "lower",
      note: (m, p) => hostsRun.skipped ? `not run: ${hostsRun.skipped}` :
        `ratio = peer ÷ mcp-read; the whole \`runHost()\` of tests/hosts/claude-code/driver.mjs (Claude Code ${hostsRun.hostVersion}, loopback mock model, inside \`unshare -n\`): ` +
        `Claude Code starts, connects to the server, loads the tool through ToolSearch, calls it with source.cpp and sends the result to the mock; ${R} rounds after ${hostsRun.warmup} not counted, the order alternating; ` +
        `of which Claude Code's own run ${m && !m.error ? fmtMs(m.claude) : "n/a"} / ${p && !p.error ? fmtMs(p.claude) : "n/a"}; ` +
        `mcp-read: \`read\` with \`limit: 2000\`, the model received ${recv(m)}; peer: \`read_text_file\` with \`head: 2000\`, presented as \`read\` by bench/host-relay.mjs ` +
        `(the driver offers and allows only \`mcp__read__read\`), the model received ${recv(p)}; the relay is one more node process: mcp-read behind the same relay (identity) took ` +
        `${relay && !relay.error ? fmtLat(relay) : "n/a"}` },
  );
}
function spawnCall(r) { return r && !r.error && r.spawnCall !== undefined ? fmtMs(r.spawnCall) : "n/a"; }
function calls(r) { return r && !r.error ? r.calls : "n/a"; }
function size(r) { return r && !r.error && r.bytes !== undefined ? fmtKiB(r.bytes) : "n/a"; }
function first(r) { return r && !r.error && r.first !== undefined ? fmtMs(r.first) : "n/a"; }

const cell = (r, row) => (!r ? "—" : r.error ? "FAIL" : row.fmt(r));
const val = (r, row) => (r && !r.error ? (row.val ? row.val(r) : r.value) : NaN);

const M = results["mcp-read"] || {};
const P = results["peer"] || {};
const V = results.vips || {};
const F = results.floor || {};
const lines = [];
lines.push("| row | mcp-read | peer | floor | ratio (>1: mcp-read better) | note |");
lines.push("|---|---:|---:|---:|---:|---|");
// The same table without the notes, short enough for the project's README.
const summary = ["| row | mcp-read | peer | floor | ratio |", "|---|---:|---:|---:|---:|"];
const ratios = {};
const behind = [];
for (const row of rows) {
  const O = row.other === "vips" ? V : P; // the image budget rows: libvips' CLI in the peer column
  const m = val(M[row.key], row);
  const p = val(O[row.key], row);
  const ratio = row.better === "lower" ? p / m : m / p;
  ratios[row.key + (row.sub ? "_sub" : "")] = ratio;
  if (isFinite(ratio) && ratio < 1) behind.push(`${row.label}: ${fmtRatio(ratio)}`);
  const floorCell = row.floor ? (F[row.key] && !F[row.key].error ? fmtLat(F[row.key]) : "n/a") : "—";
  lines.push(`| ${row.label} | ${cell(M[row.key], row)} | ${cell(O[row.key], row)} | ${floorCell} | ${fmtRatio(ratio)} | ${row.note(M[row.key], O[row.key])} |`);
  summary.push(`| ${row.label} | ${cell(M[row.key], row)} | ${cell(O[row.key], row)} | ${floorCell} | ${fmtRatio(ratio)} |`);
}

const peerVersion = (() => {
  try { return JSON.parse(readFileSync(`${dirname(dirname(args.peer))}/package.json`, "utf8")).version; } catch { return "?"; }
})();
const info = (s) => (s && s.info ? `${s.info.name || "?"} ${s.info.version || ""}`.trim() : "n/a");
const header = [
  `# mcp-read benchmark`,
  "",
  `- date: ${new Date().toISOString()}; node ${process.version}; ${cpus().length} CPU(s): ${cpus()[0] ? cpus()[0].model.trim() : "?"}; BENCH_ITERATIONS=${ITER}`,
  `- mcp-read: ${only === "peer" ? "not run" : `${args["mcp-read"]} (${info(servers.find((s) => s.name === "mcp-read"))})`}`,
  `- peer: @modelcontextprotocol/server-filesystem ${peerVersion} (${info(servers.find((s) => s.name === "peer"))}), \`node dist/index.js ROOT\``,
  `- fixtures: source.cpp ${fmtKiB(S.bytes)}, ${S.lines} lines; app.log ${(L.bytes / 1048576).toFixed(0)} MiB, ${L.lines.toLocaleString("en-US")} lines` +
    (IM ? `; images (${imagesManifest.vips}): ${Object.values(IM).map((i) => `${i.file} ${dims(i)} ${fmtMB(i.bytes)}`).join(", ")}` : "; no image fixtures (image rows not run)") +
    (docsManifest ? `; documents: doc.pdf ${DP.pages} pages ${fmtKiB(DP.bytes)}, nb.ipynb ${NB.cells} cells with ${NB.images.length} PNG outputs ${fmtMB(NB.bytes)}` : "; no document fixtures (document rows not run)"),
  `- latencies are measured by the client from writing the request to having parsed the answer; cells give the median and the 90th percentile; ` +
    `in every row the two servers (and the floor) take turns, one call each, the order alternating`,
  `- floor (image rows): reading the same file and base64-encoding it in the benchmark's own node process, no server, no JSON`,
  "",
];
const targets = [];
if (only === "" && CORE) {
  const initM = val(M.init, rows[0]);
  const yes = (b) => (b ? "met" : "not met");
  targets.push("", "Targets (reported, not asserted):", "");
  targets.push(`- initialize ≤ 10 ms: ${isFinite(initM) ? fmtMs(initM) : "n/a"} — ${yes(initM <= 10)}`);
  targets.push(`- initialize ≥ 30× faster than the peer: ${fmtRatio(ratios.init)} — ${yes(ratios.init >= 30)}`);
  targets.push(`- ≥ 10× the peer's calls/s on the ${W}-line read: ${fmtRatio(ratios.rate)} — ${yes(ratios.rate >= 10)}`);
  {
    const m = results["mcp-read"]?.rate, p = results.peer?.rate;
    const r = m && p && !m.error && !p.error ? p.cpuMs / m.cpuMs : NaN;
    targets.push(`- ≥ ${SERVER_CPU_GOAL}× less server CPU than the peer per ${W}-line read: ${fmtRatio(r)} — ${isFinite(r) ? yes(r >= SERVER_CPU_GOAL) : "n/a"}`);
  }
  targets.push("", behind.length ? `Rows where the peer was faster in this run: ${behind.join("; ")} (see bench/README.md for the profile of each).`
    : "mcp-read was at least as fast as the peer in every row with a peer equivalent.");
}
// Goals of the Claude Code rows (reported, not asserted).
{
  const yes = (b) => (b ? "met" : "not met");
  const goals = [];
  if (FIT) for (const k of ["photo", "noise"]) {
    const r = ratios["fit_" + k];
    goals.push(`- fitting ${IM[k].file} into Claude Code's image budget at least as fast as \`vips thumbnail\` (ratio ≥ 1.0): ${fmtRatio(r)} — ${isFinite(r) ? yes(r >= 1) : "n/a"}`);
  }
  if (TOOLS_LIST && M.tl_generic && !M.tl_generic.error && M.tl_cc && !M.tl_cc.error) {
    const most = Math.max(M.tl_generic.value, M.tl_cc.viaInit, M.tl_cc.stateless ?? 0);
    goals.push(`- tools/list ≤ ${TOOLS_LIST_GOAL.toLocaleString("en-US")} bytes: generic ${fmtBytes(M.tl_generic.value)}, claude-code ${fmtBytes(M.tl_cc.viaInit)} after initialize, ` +
      `${M.tl_cc.stateless != null ? fmtBytes(M.tl_cc.stateless) : "n/a"} stateless — ${yes(most <= TOOLS_LIST_GOAL)}`);
  }
  if (goals.length) targets.push("", "Goals of the Claude Code rows (reported, not asserted):", "", ...goals);
}
const footer = ["", `Measuring time: ${totalSecs.toFixed(1)} s. Load average before / after: ${loadBefore} / ${loadAfter} ` +
  `(other work on the machine makes the numbers noisy).`];
if (errors.length) footer.push("", "Failures:", "", ...errors.map((e) => `- ${e.replace(/\n/g, "\n  ")}`));

const report = [...header, "## Summary", "", ...summary, ...targets, "", "## Rows with notes", "", ...lines, ...footer].join("\n") + "\n";
process.stdout.write(report);
if (args.out) {
  mkdirSync(dirname(args.out), { recursive: true });
  writeFileSync(args.out, report);
}
process.exit(errors.length ? 1 : 0);
