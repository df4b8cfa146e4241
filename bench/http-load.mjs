// Load on mcp-read's HTTP transport over loopback, bounded in time:
//   - CLIENTS concurrent clients calling `read` in a loop, half through Streamable HTTP sessions
//     (initialize, then tools/call with Mcp-Session-Id), half as stateless 2026-07-28 requests;
//   - slow-header clients that send a request line and then one header byte at a time;
//   - oversize-body clients that announce and start sending a body over --max-body-bytes;
//   - one client pinging through its own session every 50 ms, measuring the answer's latency.
// Every answer is checked; the server's peak RSS is read from /proc at the end.
//
//   node bench/http-load.mjs BINARY [--seconds N] [--clients N] [--json]
//
// Exit status 1 when a call failed, a ping went unanswered, a slow or oversize client was not cut
// off, or the server's peak RSS went over --max-rss-mib (default 512): the load test's
// assertions. Figures (calls/s, p50/p99 latencies, peak RSS) are printed, and as JSON with --json.
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from "node:fs";
import net from "node:net";
import { Worker } from "node:worker_threads";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { benchArguments, startHttpServer } from "./http-server.mjs";

const { binary, option, flag } = benchArguments("node bench/http-load.mjs BINARY [--seconds N] [--clients N] [--json]");
const seconds = Number(option("--seconds", "10"));
const clients = Number(option("--clients", "200"));
const slowClients = Number(option("--slow-clients", "20"));
const oversizeClients = Number(option("--oversize-clients", "5"));
const maxRssMiB = Number(option("--max-rss-mib", "512"));
const asJson = flag("--json");
const idleTimeoutS = 2;
const maxBodyBytes = 1 << 20;

// --- fixture: a 2000-line text file
const root = mkdtempSync(join(tmpdir(), "mcp-read-load-"));
const lines = [];
for (let i = 1; i <= 2000; i++) lines.push(`line ${i}: ${"lorem ipsum dolor sit amet ".repeat(2)}`);
writeFileSync(join(root, "text.txt"), lines.join("\n") + "\n");
const file = join(root, "text.txt");

// --- the server
const { child: server, port } = await startHttpServer(binary, ["--idle-timeout-s", String(idleTimeoutS),
  "--max-body-bytes", String(maxBodyBytes), "--max-sessions", String(clients + 50), root]);
const url = `http://127.0.0.1:${port}/mcp`;
const base = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };

const failures = [];
const fail = (what) => { if (failures.length < 20) failures.push(what); };
let nextId = 1;

async function post(body, headers = {}) {
  const response = await fetch(url, { method: "POST", headers: { ...base, ...headers }, body: JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

async function initialize(name) {
  const r = await post({ jsonrpc: "2.0", id: nextId++, method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name, version: "1" } } });
  const session = r.headers.get("mcp-session-id");
  if (r.status !== 200 || !session) throw new Error(`initialize: HTTP ${r.status}`);
  await post({ jsonrpc: "2.0", method: "notifications/initialized" }, { "Mcp-Session-Id": session });
  return session;
}

const statelessMeta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
function readCall(session) {
  const id = nextId++;
  const params = { name: "read", arguments: { file_path: file } };
  if (session) return post({ jsonrpc: "2.0", id, method: "tools/call", params }, { "Mcp-Session-Id": session });
  params._meta = statelessMeta;
  return post({ jsonrpc: "2.0", id, method: "tools/call", params },
    { "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "read" });
}

const percentile = (values, p) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

// --- the clients
const deadline = performance.now() + seconds * 1000;
const callLatencies = [];
let calls = 0;
async function reader(index) {
  const session = index % 2 === 0 ? await initialize(`load-${index}`) : null;
  while (performance.now() < deadline) {
    const start = performance.now();
    const r = await readCall(session);
    callLatencies.push(performance.now() - start);
    const text = r.body?.result?.content?.[0]?.text ?? "";
    if (r.status !== 200 || r.body?.result?.isError || !text.includes("     1\tline 1:")) {
      fail(`read (${session ? "session" : "stateless"}): HTTP ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
      return;
    }
    calls++;
  }
}

// The pinger runs on a thread of its own, so that its latencies are the server's and not the
// wait for this thread's event loop, busy with the readers' answers.
const pingerCode = `
const { parentPort, workerData } = require("node:worker_threads");
const { url, until } = workerData;
const base = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
(async () => {
  const latencies = []; let sent = 0; let error = null;
  try {
    const init = await fetch(url, { method: "POST", headers: base, body: JSON.stringify({ jsonrpc: "2.0", id: 1,
      method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "pinger", version: "1" } } }) });
    await init.text();
    const session = init.headers.get("mcp-session-id");
    let id = 2;
    while (Date.now() < until) {
      const start = performance.now();
      sent++;
      const r = await fetch(url, { method: "POST", headers: { ...base, "Mcp-Session-Id": session },
        body: JSON.stringify({ jsonrpc: "2.0", id: id++, method: "ping" }) });
      const body = await r.json();
      if (r.status === 200 && body.result) latencies.push(performance.now() - start);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } catch (e) { error = e.message; }
  parentPort.postMessage({ latencies, sent, error });
})();
`;
function pinger() {
  return new Promise((resolve) => {
    const worker = new Worker(pingerCode, { eval: true, workerData: { url, until: Date.now() + seconds * 1000 } });
    worker.on("message", resolve);
    worker.on("error", (e) => resolve({ latencies: [], sent: 1, error: e.message }));
  });
}

// Sends a request line and headers one byte per 300 ms; the server must close the connection
// once --idle-timeout-s has passed without a whole request.
function slowHeader() {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    const text = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Slow: ${"a".repeat(200)}`;
    let i = 0;
    const opened = performance.now();
    const timer = setInterval(() => { if (i < text.length) socket.write(text[i++]); }, 300);
    const done = (cut) => {
      clearInterval(timer);
      socket.destroy();
      resolve({ cut, after: (performance.now() - opened) / 1000 });
    };
    socket.on("close", () => done(true));
    socket.on("error", () => done(true));
    setTimeout(() => done(false), (idleTimeoutS + 5) * 1000);
  });
}

// Announces a body of 64 MiB and sends it in 64 KiB pieces; the server must answer 413 and close.
function oversizeBody() {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    const total = 64 << 20;
    let answer = "";
    socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
      `Accept: application/json, text/event-stream\r\nContent-Length: ${total}\r\n\r\n`);
    const piece = Buffer.alloc(64 << 10, 0x20);
    let sent = 0;
    const pump = () => {
      while (sent < total && !socket.destroyed) {
        sent += piece.length;
        if (!socket.write(piece)) { socket.once("drain", pump); return; }
      }
    };
    pump();
    socket.on("data", (d) => { answer += d; });
    const done = () => { socket.destroy(); resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(answer)?.[1] ?? 0), sent }); };
    socket.on("close", done);
    socket.on("error", done);
  });
}

const started = performance.now();
const [slow, oversize, , ping] = await Promise.all([
  Promise.all(Array.from({ length: slowClients }, slowHeader)),
  Promise.all(Array.from({ length: oversizeClients }, oversizeBody)),
  Promise.all(Array.from({ length: clients }, (_, i) => reader(i).catch((e) => fail(`client ${i}: ${e.message} (${e.cause?.code ?? ""}: ${e.cause?.message ?? ""}) ${e.stack?.split("\n")[2] ?? ""}`)))),
  pinger(),
]);
if (ping.error) fail(`pinger: ${ping.error}`);
const pingLatencies = ping.latencies;
const pingsSent = ping.sent;
const elapsed = (performance.now() - started) / 1000;

const status = readFileSync(`/proc/${server.pid}/status`, "utf8");
const peakRssMiB = Number(/VmHWM:\s+(\d+)/.exec(status)[1]) / 1024;
server.kill("SIGTERM");
const exitCode = await new Promise((resolve) => server.on("exit", (code) => resolve(code)));
rmSync(root, { recursive: true, force: true });

const notCut = slow.filter((s) => !s.cut).length;
if (notCut > 0) fail(`${notCut} slow-header client(s) were still connected after ${idleTimeoutS + 5} s`);
const not413 = oversize.filter((o) => o.status !== 413).length;
if (not413 > 0) fail(`${not413} oversize-body client(s) got no 413: ${JSON.stringify(oversize)}`);
if (pingLatencies.length !== pingsSent) fail(`${pingsSent - pingLatencies.length} ping(s) unanswered`);
if (calls === 0) fail("no read call completed");
if (peakRssMiB > maxRssMiB) fail(`peak RSS ${peakRssMiB.toFixed(1)} MiB is over ${maxRssMiB} MiB`);
if (exitCode !== 0) fail(`the server exited with ${exitCode} on SIGTERM`);

const figures = {
  clients, seconds: Number(elapsed.toFixed(2)), calls, calls_per_s: Math.round(calls / elapsed),
  call_p50_ms: Number(percentile(callLatencies, 50).toFixed(2)),
  call_p99_ms: Number(percentile(callLatencies, 99).toFixed(2)),
  pings: pingLatencies.length,
  ping_p50_ms: Number(percentile(pingLatencies, 50).toFixed(2)),
  ping_p99_ms: Number(percentile(pingLatencies, 99).toFixed(2)),
  slow_header_clients_cut: slow.length - notCut, slow_header_cut_after_s_max: Number(Math.max(...slow.map((s) => s.after)).toFixed(1)),
  oversize_clients_413: oversize.length - not413,
  peak_rss_mib: Number(peakRssMiB.toFixed(1)),
};
if (asJson) console.log(JSON.stringify(figures));
else for (const [k, v] of Object.entries(figures)) console.log(`${k.padEnd(32)} ${v}`);
for (const f of failures) console.error(`http-load: FAIL ${f}`);
process.exit(failures.length ? 1 : 0);
