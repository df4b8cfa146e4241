// Throughput through nginx against direct, on the same load: three mcp-read replicas, and the
// same stateless `read` clients either spread over the replicas' own ports (direct) or all sent
// to nginx with the documented config (deploy/nginx/mcp-read.conf, addresses swapped for
// loopback ports). Prints both calls/s and their ratio (goal: nginx ≥ 0.9 × direct).
//
//   node bench/nginx-ratio.mjs BINARY [--seconds N] [--clients N] [--json]
//
// Needs nginx (Debian's nginx-light). Exit status 1 when a call failed.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync, rmSync, mkdirSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

import { benchArguments, startHttpServer } from "./http-server.mjs";

const { binary, option, flag } = benchArguments("node bench/nginx-ratio.mjs BINARY [--seconds N] [--clients N] [--json]");
const seconds = Number(option("--seconds", "10"));
const clients = Number(option("--clients", "32"));
const repo = join(dirname(fileURLToPath(import.meta.url)), "..");
const nginxBin = ["/usr/sbin/nginx", "/usr/bin/nginx"].find((p) => { try { readFileSync(p); return true; } catch { return false; } });
if (!nginxBin) { console.error("nginx-ratio: nginx not found (apt-get install nginx-light)"); process.exit(2); }

const tmp = mkdtempSync(join(tmpdir(), "mcp-read-nginx-ratio-"));
const lines = [];
for (let i = 1; i <= 200; i++) lines.push(`line ${i}: ${"lorem ipsum dolor sit amet ".repeat(2)}`);
writeFileSync(join(tmp, "text.txt"), lines.join("\n") + "\n");
const file = join(tmp, "text.txt");

const children = [];
process.on("exit", () => { for (const c of children) c.kill("SIGKILL"); rmSync(tmp, { recursive: true, force: true }); });
async function startReplica(i) {
  const { child, port } = await startHttpServer(binary, ["--replica-id", `r${i}`, tmp]);
  children.push(child);
  return port;
}
const freePort = () => new Promise((resolve) => {
  const s = net.createServer().listen(0, "127.0.0.1", () => { const p = s.address().port; s.close(() => resolve(p)); });
});
const listening = (port) => new Promise((resolve) => {
  const s = net.connect(port, "127.0.0.1", () => { s.destroy(); resolve(true); });
  s.on("error", () => resolve(false));
});

const ports = [await startReplica(1), await startReplica(2), await startReplica(3)];
const nginxPort = await freePort();
let conf = readFileSync(join(repo, "deploy/nginx/mcp-read.conf"), "utf8");
ports.forEach((p, i) => { conf = conf.replaceAll(`10.0.0.1${i + 1}:8080`, `127.0.0.1:${p}`); });
conf = conf.replace(/^(\s*)listen 80;/m, `$1listen 127.0.0.1:${nginxPort};`);
writeFileSync(join(tmp, "mcp-read.conf"), conf);
for (const d of ["body", "proxy", "fastcgi", "uwsgi", "scgi"]) mkdirSync(join(tmp, d));
writeFileSync(join(tmp, "nginx.conf"), `${process.getuid() === 0 ? "user root;\n" : ""}daemon off;
worker_processes 1;
pid ${tmp}/nginx.pid;
error_log ${tmp}/nginx-error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${tmp}/body; proxy_temp_path ${tmp}/proxy; fastcgi_temp_path ${tmp}/fastcgi;
  uwsgi_temp_path ${tmp}/uwsgi; scgi_temp_path ${tmp}/scgi;
  include ${tmp}/mcp-read.conf;
}
`);
children.push(spawn(nginxBin, ["-c", join(tmp, "nginx.conf"), "-p", tmp], { stdio: "ignore" }));
for (let i = 0; i < 500 && !(await listening(nginxPort)); i++) await new Promise((r) => setTimeout(r, 20));

const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
const headers = { "Content-Type": "application/json", Accept: "application/json, text/event-stream",
  "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "read" };
const failures = [];
async function run(urls, span = seconds / 2) {
  const until = performance.now() + span * 1000;
  let calls = 0, id = 1;
  const client = async (i) => {
    const url = urls[i % urls.length];
    while (performance.now() < until) {
      const r = await fetch(url, { method: "POST", headers, signal: AbortSignal.timeout(20000),
        body: JSON.stringify({ jsonrpc: "2.0", id: id++, method: "tools/call",
          params: { name: "read", arguments: { file_path: file }, _meta: meta } }) }).catch((e) => ({ status: 0, text: async () => String(e) }));
      const text = await r.text();
      if (r.status !== 200 || !text.includes("line 200:")) { if (failures.length < 5) failures.push(`${r.status} ${text.slice(0, 120)}`); }
      else calls++;
    }
  };
  await Promise.all([...Array(clients)].map((_, i) => client(i)));
  return calls / span;
}
// A warm-up each way, then two alternating rounds of half the time each, so that neither side
// gets the cold start or the machine's drift alone.
const directUrls = ports.map((p) => `http://127.0.0.1:${p}/mcp`);
const nginxUrls = [`http://127.0.0.1:${nginxPort}/mcp`];
await run(directUrls, 1);
await run(nginxUrls, 1);
const rounds = [await run(directUrls), await run(nginxUrls), await run(nginxUrls), await run(directUrls)];
const direct = (rounds[0] + rounds[3]) / 2;
const viaNginx = (rounds[1] + rounds[2]) / 2;
const ratio = viaNginx / direct;
const result = { seconds, clients, replicas: 3, direct_calls_per_s: Math.round(direct), nginx_calls_per_s: Math.round(viaNginx),
  ratio: Number(ratio.toFixed(3)), failures: failures.length };
if (flag("--json")) console.log(JSON.stringify(result));
else {
  console.log(`three replicas, ${clients} stateless clients, ${seconds} s each way (after 1 s of warm-up), rounds alternated`);
  console.log(`direct (clients spread over the replicas' ports): ${result.direct_calls_per_s} calls/s`);
  console.log(`through nginx (deploy/nginx/mcp-read.conf):       ${result.nginx_calls_per_s} calls/s`);
  console.log(`ratio nginx/direct: ${result.ratio} (goal >= 0.9)`);
}
for (const f of failures) console.error(`failed call: ${f}`);
process.exit(failures.length ? 1 : 0);
