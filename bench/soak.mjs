// A soak: bounded mixed load on mcp-read over stdio and HTTP for a given time (20 minutes by
// default; not part of the test command), then whether the process held steady:
//   - RSS after warm-up (the first 10 % of the run) against the end (medians of the first and last
//     windows' samples): growth ≤ 5 %;
//   - open file descriptors at the end against after warm-up: flat (≤ 2 more);
//   - p99 latency of the last minute within 20 % of the first minute after warm-up.
// The load, 6 HTTP clients and one stdio client with 2 calls in flight: text, an image, PDF pages,
// a notebook, a missing file (errors), stateless calls cut mid-way (the client disconnects: the
// cancellation of protocol 2026-07-28), sessions opened and ended, and over stdio
// notifications/cancelled. Every answer is checked.
//
//   node bench/soak.mjs BINARY [--minutes N | --seconds N] [--json]
//
// Needs `vips` (libvips-tools) for the image and the notebook's plots. Exit status 1 when an
// answer was wrong or a goal was missed; the figures are printed either way.
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import readline from "node:readline";

const args = process.argv.slice(2);
const option = (name, fallback) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : fallback; };
const binary = args[0];
if (!binary || binary.startsWith("--")) {
  console.error("usage: node bench/soak.mjs BINARY [--minutes N | --seconds N] [--json]");
  process.exit(2);
}
const seconds = args.includes("--seconds") ? Number(option("--seconds")) : Number(option("--minutes", "20")) * 60;
const warmup = seconds * 0.1;
const window = Math.min(60, (seconds - warmup) / 3);  // "a minute", shorter in a short run
const here = dirname(fileURLToPath(import.meta.url));

// --- fixtures
const root = mkdtempSync(join(tmpdir(), "mcp-read-soak-"));
const children = [];
process.on("exit", () => { for (const c of children) c.kill("SIGKILL"); rmSync(root, { recursive: true, force: true }); });
const lines = [];
for (let i = 1; i <= 2000; i++) lines.push(`line ${i}: ${"lorem ipsum dolor sit amet ".repeat(2)}`);
writeFileSync(join(root, "text.txt"), lines.join("\n") + "\n");
execFileSync("node", [join(here, "gen-docs.mjs"), root], { stdio: "ignore" });
execFileSync("vips", ["gaussnoise", join(root, "image.png"), "1200", "900"], { stdio: "ignore" });
const work = [
  { name: "text", args: { file_path: join(root, "text.txt") }, ok: (t) => t.includes("     1\tline 1:") },
  { name: "image", args: { file_path: join(root, "image.png") }, ok: (_, r) => r.content?.some((c) => c.type === "image") },
  { name: "pdf", args: { file_path: join(root, "doc.pdf"), pages: "1-3" }, ok: (_, r) => !r.isError },
  { name: "notebook", args: { file_path: join(root, "nb.ipynb") }, ok: (_, r) => !r.isError },
  { name: "error", args: { file_path: join(root, "missing.txt") }, ok: (_, r) => r.isError === true },
];

// --- the servers
const rssKiB = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]);
const fds = (pid) => readdirSync(`/proc/${pid}/fd`).length;
const http = spawn(binary, ["--transport", "http", "--port", "0", root], { stdio: ["ignore", "ignore", "pipe"] });
children.push(http);
const port = await new Promise((resolve, reject) => {
  let log = "";
  const timer = setTimeout(() => reject(new Error(`no port: ${log}`)), 10000);
  http.stderr.on("data", (d) => {
    log += d;
    const m = /listening on http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(log);
    if (m) { clearTimeout(timer); resolve(Number(m[1])); }
  });
});
const url = `http://127.0.0.1:${port}/mcp`;
const stdio = spawn(binary, [root], { stdio: ["pipe", "pipe", "ignore"] });
children.push(stdio);
const pending = new Map();
readline.createInterface({ input: stdio.stdout }).on("line", (line) => {
  const m = JSON.parse(line);
  if (m.id !== undefined && pending.has(m.id)) { pending.get(m.id)(m); pending.delete(m.id); }
});
let stdioId = 1;
const stdioRequest = (method, params, cancel = false) => new Promise((resolve) => {
  const id = stdioId++;
  pending.set(id, resolve);
  stdio.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n");
  if (cancel) {
    stdio.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id } }) + "\n");
    pending.delete(id);  // no answer comes, or one that is ignored
    resolve(null);
  }
});
await stdioRequest("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "soak", version: "1" } });
stdio.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");

// --- the load
const started = performance.now();
const until = started + seconds * 1000;
const samples = [];  // [seconds since start, latency ms]
const failures = [];
let calls = 0, cut = 0, cancelled = 0, sessions = 0;
const fail = (what) => { if (failures.length < 10) failures.push(what); };
const record = (t0) => samples.push([(t0 - started) / 1000, performance.now() - t0]);
const base = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
const statelessHeaders = { ...base, "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "read" };
let httpId = 1;
const check = (w, result) => {
  const text = result?.content?.find((c) => c.type === "text")?.text ?? "";
  if (!result || !w.ok(text, result)) fail(`${w.name}: ${(result?.content?.[0]?.text ?? JSON.stringify(result)).slice(0, 400)}`);
  else calls++;
};

async function httpClient(index) {
  let session = null;
  for (let n = index; performance.now() < until; n++) {
    const w = work[n % work.length];
    if (n % 25 === 0) {  // a session opened, used below, and ended later
      if (session) await fetch(url, { method: "DELETE", headers: { "Mcp-Session-Id": session } }).then((r) => r.text());
      const r = await fetch(url, { method: "POST", headers: base, body: JSON.stringify({ jsonrpc: "2.0", id: httpId++,
        method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "soak", version: "1" } } }) });
      await r.text();
      session = r.headers.get("mcp-session-id");
      sessions++;
    }
    if (n % 13 === 0) {  // cut mid-way: the client goes away
      const abort = new AbortController();
      const call = fetch(url, { method: "POST", headers: statelessHeaders, signal: abort.signal, body: JSON.stringify({
        jsonrpc: "2.0", id: httpId++, method: "tools/call", params: { name: "read", arguments: work[2].args, _meta: meta } }) })
        .then((r) => r.text()).catch(() => {});
      setTimeout(() => abort.abort(), 2);
      await call;
      cut++;
      continue;
    }
    const inSession = session && n % 2 === 0;
    const params = { name: "read", arguments: w.args };
    if (!inSession) params._meta = meta;
    const t0 = performance.now();
    const r = await fetch(url, { method: "POST", signal: AbortSignal.timeout(30000),
      headers: inSession ? { ...base, "Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-11-25" } : statelessHeaders,
      body: JSON.stringify({ jsonrpc: "2.0", id: httpId++, method: "tools/call", params }) }).catch((e) => e);
    const body = r instanceof Error ? null : await r.text();
    record(t0);
    let result = null;
    try { result = JSON.parse(body).result; } catch { fail(`${w.name} over HTTP: ${String(r).slice(0, 100)} ${String(body).slice(0, 100)}`); continue; }
    check(w, result);
  }
}
async function stdioClient(index) {
  for (let n = index; performance.now() < until; n++) {
    const w = work[n % work.length];
    if (n % 11 === 0) { await stdioRequest("tools/call", { name: "read", arguments: work[2].args }, true); cancelled++; continue; }
    const t0 = performance.now();
    const m = await stdioRequest("tools/call", { name: "read", arguments: w.args });
    record(t0);
    check(w, m.result);
  }
}

const resources = [];  // [seconds, http rss KiB, http fds, stdio rss KiB, stdio fds]
const sampler = setInterval(() => resources.push([(performance.now() - started) / 1000, rssKiB(http.pid), fds(http.pid),
  rssKiB(stdio.pid), fds(stdio.pid)]), Math.max(250, Math.min(5000, seconds * 10)));
await Promise.all([...[...Array(6)].map((_, i) => httpClient(i)), stdioClient(0), stdioClient(1)]);
clearInterval(sampler);
resources.push([(performance.now() - started) / 1000, rssKiB(http.pid), fds(http.pid), rssKiB(stdio.pid), fds(stdio.pid)]);

// --- the verdict
const p99 = (from, to) => {
  const v = samples.filter(([t]) => t >= from && t < to).map(([, ms]) => ms).sort((a, b) => a - b);
  return v.length ? v[Math.min(v.length - 1, Math.floor(0.99 * v.length))] : NaN;
};
// RSS moves with the reads in flight: each end is the median of its window's samples; fds are
// read at the window's last sample.
const median = (rows, col) => { const v = rows.map((r) => r[col]).sort((a, b) => a - b); return v[Math.floor(v.length / 2)]; };
const windowRows = (from, to) => { const rows = resources.filter(([t]) => t >= from && t <= to); return rows.length ? rows : [resources[resources.length - 1]]; };
const firstRows = windowRows(warmup, warmup + window), lastRows = windowRows(seconds - window, Infinity);
const afterWarmup = [0, median(firstRows, 1), firstRows[firstRows.length - 1][2], median(firstRows, 3), firstRows[firstRows.length - 1][4]];
const end = [0, median(lastRows, 1), resources[resources.length - 1][2], median(lastRows, 3), resources[resources.length - 1][4]];
const growth = (a, b) => (b - a) / a;
const firstP99 = p99(warmup, warmup + window), lastP99 = p99(seconds - window, seconds + 1);
const result = {
  seconds, calls, cut, cancelled_stdio: cancelled, sessions, failures: failures.length,
  http_rss_mib: [afterWarmup[1] / 1024, end[1] / 1024].map((x) => Number(x.toFixed(1))),
  http_rss_growth: Number(growth(afterWarmup[1], end[1]).toFixed(3)),
  stdio_rss_mib: [afterWarmup[3] / 1024, end[3] / 1024].map((x) => Number(x.toFixed(1))),
  stdio_rss_growth: Number(growth(afterWarmup[3], end[3]).toFixed(3)),
  http_fds: [afterWarmup[2], end[2]], stdio_fds: [afterWarmup[4], end[4]],
  p99_ms_first_last: [Number(firstP99.toFixed(1)), Number(lastP99.toFixed(1))], window_s: window,
};
const goals = {
  "RSS growth after warm-up <= 5 % (HTTP)": result.http_rss_growth <= 0.05,
  "RSS growth after warm-up <= 5 % (stdio)": result.stdio_rss_growth <= 0.05,
  "open fds flat (HTTP, stdio: at most 2 more)": end[2] <= afterWarmup[2] + 2 && end[4] <= afterWarmup[4] + 2,
  "p99 of the last window within 20 % of the first": lastP99 <= firstP99 * 1.2,
  "every answer right": failures.length === 0,
};
if (args.includes("--json")) console.log(JSON.stringify({ ...result, goals }));
else {
  console.log(`soak: ${seconds} s (warm-up ${warmup.toFixed(0)} s, windows of ${window.toFixed(0)} s): ${calls} calls checked, ` +
    `${cut} HTTP calls cut mid-way, ${cancelled} stdio calls cancelled, ${sessions} sessions opened`);
  console.log(`  HTTP server:  RSS ${result.http_rss_mib[0]} -> ${result.http_rss_mib[1]} MiB (${(result.http_rss_growth * 100).toFixed(1)} %), fds ${result.http_fds.join(" -> ")}`);
  console.log(`  stdio server: RSS ${result.stdio_rss_mib[0]} -> ${result.stdio_rss_mib[1]} MiB (${(result.stdio_rss_growth * 100).toFixed(1)} %), fds ${result.stdio_fds.join(" -> ")}`);
  console.log(`  p99 latency: first window ${result.p99_ms_first_last[0]} ms, last window ${result.p99_ms_first_last[1]} ms`);
  for (const [goal, met] of Object.entries(goals)) console.log(`  ${met ? "met" : "MISSED"}: ${goal}`);
}
for (const f of failures) console.error(`wrong answer: ${f}`);
process.exit(Object.values(goals).every(Boolean) ? 0 : 1);
