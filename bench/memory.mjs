#!/usr/bin/env node
// Memory and the hot paths, side by side in one run (issue 20's goals; reported, not asserted):
//   - idle RSS after initialize, and after a mix of image, document and text reads (a ping's
//     answer marks the idle moment: mcp-read trims before it sends a large answer);
//   - peak RSS of each image read in a fresh process against `vips thumbnail` on the same file;
//   - pass-through of pass.png: mcp-read's own time for the answer (its debug log: read, checks,
//     base64 and the JSON message) against the floor (read + base64 in this process), and end to
//     end against the peer;
//   - the 2000-line read of source.cpp: calls/s, p50 and p99 against the peer, in many short
//     alternating turns; rates and the ratio are medians over the turns (the peer's rate drifts).
//
// Usage: node bench/memory.mjs --fixtures DIR --mcp-read BIN --peer PEER_ENTRY [--out FILE] [--json]
//        [--only peak,idle,pass,text]  (some of the parts only)
// DIR is what bench/gen-fixtures.mjs, gen-images.mjs and gen-docs.mjs wrote.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith("--") ? [...acc, [a.slice(2), all[i + 1]?.startsWith("--") || all[i + 1] === undefined ? true : all[i + 1]]] : acc), []),
);
if (!args.fixtures || !args["mcp-read"]) {
  console.error("usage: node bench/memory.mjs --fixtures DIR --mcp-read BIN [--peer PEER_ENTRY] [--out FILE] [--json]");
  process.exit(2);
}
const ROOT = args.fixtures;
const only = typeof args.only === "string" ? new Set(args.only.split(",")) : null;
const want = (part) => !only || only.has(part);
const ITER = Number(process.env.BENCH_ITERATIONS || 1);
const IMAGE_CALLS = 5 * ITER;
const PASS_ROUNDS = 30 * ITER;
const TEXT_MS = 6000 * ITER;  // per server, in 200 ms turns

// ------------------------------------------------------------------ a minimal stdio client
class Session {
  constructor(name, cmd, argv, { debugLog = false } = {}) {
    this.name = name;
    this.pending = new Map();
    this.parts = [];
    this.nextId = 1;
    this.micros = []; // mcp-read's "tools/call read answered in N us" lines (read, base64, JSON)
    this.readMicros = []; // its "read <path> -> ok in N us" lines (the read alone)
    this.child = spawn(cmd, argv, { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, ...(debugLog ? { MCP_READ_LOG_LEVEL: "debug" } : {}) } });
    this.pid = this.child.pid;
    this.child.stdout.on("data", (c) => this.onData(c));
    let err = "";
    this.child.stderr.on("data", (d) => {
      err += d.toString();
      let i;
      while ((i = err.indexOf("\n")) !== -1) {
        const m = /tools\/call \S+ answered in (\d+) us/.exec(err.slice(0, i));
        if (m) this.micros.push(Number(m[1]));
        // Builds before that line logged only the read (open, checks, base64), not the JSON.
        const old = / -> ok in (\d+) us/.exec(err.slice(0, i));
        if (old) this.readMicros.push(Number(old[1]));
        err = err.slice(i + 1);
      }
    });
    this.child.on("exit", (code, sig) => {
      for (const p of this.pending.values()) p.reject(new Error(`${name} exited (${code}, ${sig})`));
      this.pending.clear();
    });
  }
  onData(chunk) {
    let start = 0, i;
    while ((i = chunk.indexOf(10, start)) !== -1) {
      this.parts.push(chunk.subarray(start, i));
      const line = this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts);
      this.parts = [];
      start = i + 1;
      const msg = JSON.parse(line.toString("utf8"));
      const p = this.pending.get(msg.id);
      if (p && msg.method === undefined) {
        this.pending.delete(msg.id);
        msg.error ? p.reject(new Error(`${this.name}: ${JSON.stringify(msg.error)}`)) : p.resolve(msg.result);
      }
    }
    if (start < chunk.length) this.parts.push(chunk.subarray(start));
  }
  request(method, params = {}) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n");
    });
  }
  async initialize() {
    await this.request("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "mcp-read-bench", version: "1" } });
    this.child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
  }
  async call(name, a) {
    const r = await this.request("tools/call", { name, arguments: a });
    if (r.isError) throw new Error(`${this.name}: ${name} ${JSON.stringify(a)}: ${JSON.stringify(r.content).slice(0, 300)}`);
    return r;
  }
  // VmRSS, VmHWM, RssAnon, RssFile in MiB, once idle (after a ping's answer).
  async memory() {
    await this.request("ping");
    const s = readFileSync(`/proc/${this.pid}/status`, "utf8");
    const kib = (k) => Number(new RegExp(`${k}:\\s+(\\d+) kB`).exec(s)?.[1] ?? NaN) / 1024;
    return { rss: kib("VmRSS"), hwm: kib("VmHWM"), anon: kib("RssAnon"), file: kib("RssFile") };
  }
  async close() {
    const done = new Promise((r) => this.child.once("exit", r));
    this.child.stdin.end();
    const t = setTimeout(() => this.child.kill("SIGKILL"), 5000);
    await done;
    clearTimeout(t);
  }
}

const mcpRead = (opts) => new Session("mcp-read", args["mcp-read"], [ROOT], opts);
// Answers each call at once with the bytes mcp-read gave for it the first time (bench/canned-server.mjs).
const cannedServer = () => new Session("canned", process.execPath, [join(import.meta.dirname, "canned-server.mjs"), args["mcp-read"], ROOT]);
const peer = () => (args.peer ? new Session("peer", process.execPath, [args.peer, ROOT]) : null);
const path = (f) => join(ROOT, f);
const readImage = (s, f) => (s.name === "peer" ? s.call("read_media_file", { path: path(f) }) : s.call("read", { file_path: path(f) }));
const readText = (s) => (s.name === "peer" ? s.call("read_text_file", { path: path("source.cpp"), head: 2000 }) : s.call("read", { file_path: path("source.cpp"), limit: 2000 }));
const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))] : NaN; };
const mib = (v) => (isFinite(v) ? `${v.toFixed(1)} MiB` : "n/a");
const ms = (v) => (isFinite(v) ? `${v < 10 ? v.toFixed(2) : v.toFixed(1)} ms` : "n/a");
const ratio = (v) => (isFinite(v) ? `${v.toFixed(2)}×` : "n/a");
const yes = (ok) => (ok ? "met" : "**not met**");

const images = ["pass.png", "big.png", "photo.jpg", "scan.bmp", "noise.png"].filter((f) => existsSync(path(f)));
const rows = [];
const out = {};

// ------------------------------------------------------------------ peak RSS per image vs vips
// `vips thumbnail` to a 2000 px box, the fit mcp-read makes by default; its peak is the
// child's ru_maxrss, read by a python3 wrapper (node does not expose a child's rusage).
function vipsPeak(file) {
  const dir = mkdtempSync(join(tmpdir(), "mcp-read-vips-"));
  try {
    const r = spawnSync("python3", ["-c",
      "import resource,subprocess,sys; r=subprocess.run(sys.argv[1:]); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss); sys.exit(r.returncode)",
      "vips", "thumbnail", path(file), join(dir, "out.jpg"), "2000", "--size", "down"], { encoding: "utf8" });
    return r.status === 0 ? Number(r.stdout.trim()) / 1024 : NaN;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

for (const f of want("peak") ? images : []) {
  const s = mcpRead();
  await s.initialize();
  for (let i = 0; i < IMAGE_CALLS; i++) await readImage(s, f);
  const m = await s.memory();
  await s.close();
  const v = Math.max(vipsPeak(f), vipsPeak(f));
  out[`peak_${f}`] = { mcp_read: m.hwm, vips: v };
  rows.push([`peak RSS, ${f}: ${IMAGE_CALLS} reads in a fresh process vs one \`vips thumbnail\` (2000 px)`, mib(m.hwm), mib(v), ratio(v / m.hwm), `mcp-read ≤ 1.5 × vips: ${yes(m.hwm / v <= 1.5)}`]);
}

// ------------------------------------------------------------------ idle RSS after a mix of reads
if (want("idle")) {
  const sessions = [mcpRead(), peer()].filter(Boolean);
  const init = {}, idle = {};
  for (const s of sessions) { await s.initialize(); init[s.name] = await s.memory(); }
  for (const s of sessions) {
    for (let round = 0; round < 3; round++) {
      for (const f of images) await readImage(s, f);
      if (existsSync(path("doc.pdf"))) {
        if (s.name === "peer") await s.call("read_media_file", { path: path("doc.pdf") });
        else await s.call("read", { file_path: path("doc.pdf"), pages: "1-20" });
      }
      if (existsSync(path("nb.ipynb"))) {
        if (s.name === "peer") await s.call("read_text_file", { path: path("nb.ipynb") });
        else await s.call("read", { file_path: path("nb.ipynb") });
      }
      await readText(s);
    }
    idle[s.name] = await s.memory();
  }
  // The goal's moment: 5 s after the last read (mcp-read gives memory back after
  // --idle-release-ms of quiet, 1 s by default).
  await new Promise((resolve) => setTimeout(resolve, 5000));
  const later = {};
  for (const s of sessions) later[s.name] = await s.memory();
  for (const s of sessions) await s.close();
  const m = init["mcp-read"], i = idle["mcp-read"], p = idle.peer, l = later["mcp-read"];
  out.idle = { init, idle, later };
  rows.push(["idle RSS after initialize", mib(m.rss), mib(init.peer?.rss), ratio(init.peer?.rss / m.rss), ""]);
  const bound = 2 * m.rss + 8;
  rows.push([`RSS right after 3 rounds of every image, the PDF, the notebook and 2,000 text lines (RssAnon ${mib(i.anon)}, RssFile ${mib(i.file)})`,
    mib(i.rss), mib(p?.rss), ratio(p?.rss / i.rss), ""]);
  rows.push([`idle RSS 5 s after those reads (RssAnon ${mib(l.anon)}, RssFile ${mib(l.file)})`,
    mib(l.rss), mib(later.peer?.rss), ratio(later.peer?.rss / l.rss),
    `≤ 2 × ${mib(m.rss)} + 8 MiB = ${mib(bound)}: ${yes(l.rss <= bound)}`]);
}

// ------------------------------------------------------------------ pass-through vs the floor
if (want("pass") && images.includes("pass.png")) {
  const s = mcpRead({ debugLog: true });
  const q = peer();
  const c = cannedServer();  // the client's own floor end to end (see the text part)
  await s.initialize();
  if (q) await q.initialize();
  await c.initialize();
  const floor = [], e2e = [], e2ePeer = [], e2eCanned = [];
  for (let i = 0; i < PASS_ROUNDS + 3; i++) {
    const parts = [
      async () => { const t = performance.now(); readFileSync(path("pass.png")).toString("base64"); if (i >= 3) floor.push(performance.now() - t); },
      async () => { const t = performance.now(); await readImage(s, "pass.png"); if (i >= 3) e2e.push(performance.now() - t); },
      ...(q ? [async () => { const t = performance.now(); await readImage(q, "pass.png"); if (i >= 3) e2ePeer.push(performance.now() - t); }] : []),
      async () => { const t = performance.now(); await readImage(c, "pass.png"); if (i >= 3) e2eCanned.push(performance.now() - t); },
    ];
    if (i % 2) parts.reverse();
    for (const part of parts) await part();
  }
  const inProcess = (s.micros.length ? s.micros : s.readMicros).slice(3).map((us) => us / 1000);
  await s.close();
  if (q) await q.close();
  await c.close();
  out.pass = { inProcess, floor, e2e, e2ePeer, e2eCanned };
  const r = pct(inProcess, 0.5) / pct(floor, 0.5);
  rows.push([`pass.png, mcp-read's own time for the answer (debug log: read, checks, base64 into the JSON message) vs the floor (read + base64 here), p50 (p90)`,
    `${ms(pct(inProcess, 0.5))} (${ms(pct(inProcess, 0.9))})`, `floor ${ms(pct(floor, 0.5))} (${ms(pct(floor, 0.9))})`, ratio(1 / r), `≤ 2 × floor: ${yes(r <= 2)}`]);
  if (q) {
    const e = pct(e2ePeer, 0.5) / pct(e2e, 0.5);
    rows.push(["pass.png end to end, p50 (p90)", `${ms(pct(e2e, 0.5))} (${ms(pct(e2e, 0.9))})`, `${ms(pct(e2ePeer, 0.5))} (${ms(pct(e2ePeer, 0.9))})`, ratio(e), `≥ 3× faster than the peer: ${yes(e >= 3)}`]);
    rows.push(["pass.png end to end: the client's floor, a server answering at once with mcp-read's bytes (bench/canned-server.mjs), p50 (p90); ratio to the peer",
      `${ms(pct(e2eCanned, 0.5))} (${ms(pct(e2eCanned, 0.9))})`, `${ms(pct(e2ePeer, 0.5))} (${ms(pct(e2ePeer, 0.9))})`, ratio(pct(e2ePeer, 0.5) / pct(e2eCanned, 0.5)),
      `mcp-read at ${(100 * pct(e2eCanned, 0.5) / pct(e2e, 0.5)).toFixed(0)} % of the floor's speed`]);
  }
}

// ------------------------------------------------------------------ 2000-line read, calls/s, p50, p99
// The peer's rate drifts a lot within one run (its JIT, its garbage collector, other load), so both
// servers get a long warm-up and then many short turns, the order alternating; each side's rate is
// the median of its turns' rates and the ratio the median of the ratios of adjacent turns (one of
// each side), so that a slow stretch of the machine falls on both sides of a ratio.
if (want("text")) {
  // "canned" answers each call at once with mcp-read's bytes (bench/canned-server.mjs): the most
  // this client can measure of any server, so the highest ratio the row can show.
  const sessions = [mcpRead(), peer(), cannedServer()].filter(Boolean);
  for (const s of sessions) { await s.initialize(); for (let i = 0; i < 100; i++) await readText(s); }
  const lat = Object.fromEntries(sessions.map((s) => [s.name, []]));
  const turns = Object.fromEntries(sessions.map((s) => [s.name, []]));
  const TURN_MS = 200;
  for (let turn = 0; turn * TURN_MS < TEXT_MS; turn++) {
    for (const s of turn % 2 ? [...sessions].reverse() : sessions) {
      const start = performance.now(), end = start + TURN_MS;
      let n = 0;
      while (performance.now() < end) { const t = performance.now(); await readText(s); lat[s.name].push(performance.now() - t); n++; }
      turns[s.name].push((n * 1000) / (performance.now() - start));
    }
  }
  for (const s of sessions) await s.close();
  const rate = (n) => (turns[n] ? pct(turns[n], 0.5) : NaN);
  const pairRatios = turns.peer ? turns["mcp-read"].map((r, i) => r / turns.peer[i]) : [];
  const r = pct(pairRatios, 0.5);
  out.text = { lat, turns, ratios: pairRatios };
  rows.push([`2,000 lines of source.cpp: calls/s (median of ${turns["mcp-read"].length} turns of ${TURN_MS} ms per server; ratio: median of the turns' ratios, range ${ratio(pct(pairRatios, 0.1))}–${ratio(pct(pairRatios, 0.9))} p10–p90)`,
    rate("mcp-read").toFixed(0), isFinite(rate("peer")) ? rate("peer").toFixed(0) : "n/a", ratio(r), `≥ 30×: ${yes(r >= 30)}`]);
  const floorRatios = turns.peer ? turns.canned.map((r, i) => r / turns.peer[i]) : [];
  out.text.canned = { turns: turns.canned, ratios: floorRatios };
  rows.push([`2,000 lines of source.cpp: the client's floor, a server answering each call at once with mcp-read's bytes (bench/canned-server.mjs), calls/s; ratio to the peer, as above: the most this client can show`,
    rate("canned").toFixed(0), isFinite(rate("peer")) ? rate("peer").toFixed(0) : "n/a", isFinite(rate("peer")) ? ratio(pct(floorRatios, 0.5)) : "n/a",
    `mcp-read at ${(100 * rate("mcp-read") / rate("canned")).toFixed(0)} % of the floor's rate`]);
  rows.push(["2,000 lines of source.cpp: p50, p99",
    `${ms(pct(lat["mcp-read"], 0.5))}, ${ms(pct(lat["mcp-read"], 0.99))}`,
    lat.peer ? `${ms(pct(lat.peer, 0.5))}, ${ms(pct(lat.peer, 0.99))}` : "n/a",
    ratio(pct(lat.peer ?? [], 0.5) / pct(lat["mcp-read"], 0.5)), ""]);
}

const table = [
  "| row | mcp-read | peer / vips / floor | ratio (> 1: mcp-read better) | goal |",
  "|---|---|---|---|---|",
  ...rows.map((r) => `| ${r.join(" | ")} |`),
].join("\n");
if (args.json) console.log(JSON.stringify(out));
else console.log(table);
if (typeof args.out === "string") appendFileSync(args.out, `\n## Memory and hot paths (bench/memory.mjs)\n\n${table}\n`);
