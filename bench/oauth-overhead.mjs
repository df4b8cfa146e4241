// What checking OAuth access tokens costs a call: the same calls to two mcp-read servers in the
// same run, one taking the shared token (--auth-token), one an OAuth resource server
// (--oauth-issuer) whose authorization server is a loopback stand-in made here (RFC 8414
// metadata and a JWKS of one RSA key; the tokens are RS256 JWTs signed here). The keys are
// fetched once, before measuring ("cached keys"). Two OAuth rows:
//   same token    one token for every call: liboauth2 remembers a verified token for 60 s, so a
//                 call checks its claims but not its signature again (a client's usual case);
//   fresh tokens  another token for every call (its jti differs): each signature is verified.
// Calls go one at a time through one keep-alive connection per server, rounds alternating
// between the servers so that load from other work falls on all alike. Per row: the median and
// 90th percentile of the call's wall time (client included) and the server's CPU per call
// (user + system from /proc, all its threads, over the row's calls), and the ratio to the
// shared token's row.
//
//   node bench/oauth-overhead.mjs BINARY [--calls N] [--rounds N] [--call ping|read] [--json]
import { generateKeyPairSync, randomUUID, sign } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { benchArguments, startHttpServer } from "./http-server.mjs";

const { binary, option, flag } =
  benchArguments("node bench/oauth-overhead.mjs BINARY [--calls N] [--rounds N] [--call ping|read] [--json]");
const callsPerRound = Number(option("--calls", "200"));
const rounds = Number(option("--rounds", "10"));
const callKind = option("--call", "read");
const asJson = flag("--json");

// --- the authorization server's stand-in: metadata and a JWKS on 127.0.0.1
const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const jwk = { ...publicKey.export({ format: "jwk" }), kid: "bench-1", alg: "RS256", use: "sig" };
const authorization = http.createServer((request, response) => {
  const documents = {
    "/.well-known/oauth-authorization-server": { issuer, jwks_uri: `${issuer}/jwks.json` },
    "/jwks.json": { keys: [jwk] },
  };
  const document = documents[request.url];
  response.writeHead(document ? 200 : 404, { "Content-Type": "application/json" });
  response.end(JSON.stringify(document ?? {}));
});
await new Promise((resolve) => authorization.listen(0, "127.0.0.1", resolve));
const issuer = `http://127.0.0.1:${authorization.address().port}`;

const base64url = (data) => Buffer.from(data).toString("base64url");
function token(audience, claims = {}) {
  const now = Math.floor(Date.now() / 1000);
  const header = base64url(JSON.stringify({ alg: "RS256", typ: "at+jwt", kid: "bench-1" }));
  const payload = base64url(JSON.stringify({ iss: issuer, sub: "bench", aud: audience, scope: "files:read",
    iat: now, exp: now + 3600, ...claims }));
  return `${header}.${payload}.${sign("sha256", Buffer.from(`${header}.${payload}`), privateKey).toString("base64url")}`;
}

// --- the file read, and the two servers
const root = mkdtempSync(join(tmpdir(), "mcp-read-oauth-bench-"));
const file = join(root, "notes.txt");
writeFileSync(file, Array.from({ length: 40 }, (_, i) => `line ${i + 1}: lorem ipsum dolor sit amet`).join("\n") + "\n");
const sharedToken = randomUUID();

async function start(extra) {
  const { child, url } = await startHttpServer(binary, [...extra, root]);
  return { server: child, url, agent: new http.Agent({ keepAlive: true, maxSockets: 1 }) };
}
const shared = await start(["--auth-token", sharedToken]);
const oauth = await start(["--oauth-issuer", issuer]);
const resource = oauth.url;

function post(target, bearer, body, headers = {}) {
  return new Promise((resolve, reject) => {
    const data = JSON.stringify(body);
    const request = http.request(target.url, { method: "POST", agent: target.agent, headers: {
      "Content-Type": "application/json", Accept: "application/json, text/event-stream",
      Authorization: `Bearer ${bearer}`, "Content-Length": Buffer.byteLength(data), ...headers } }, (response) => {
      const chunks = [];
      response.on("data", (c) => chunks.push(c));
      response.on("end", () => resolve({ status: response.statusCode, headers: response.headers,
        body: Buffer.concat(chunks).toString() }));
    });
    request.on("error", reject);
    request.end(data);
  });
}

let nextId = 1;
async function initialize(target, bearer) {
  const r = await post(target, bearer, { jsonrpc: "2.0", id: nextId++, method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "oauth-bench", version: "1" } } });
  const session = r.headers["mcp-session-id"];
  if (r.status !== 200 || !session) throw new Error(`initialize: HTTP ${r.status} ${r.body.slice(0, 300)}`);
  await post(target, bearer, { jsonrpc: "2.0", method: "notifications/initialized" }, { "Mcp-Session-Id": session });
  return session;
}

const request = () => callKind === "ping"
  ? { jsonrpc: "2.0", id: nextId++, method: "ping" }
  : { jsonrpc: "2.0", id: nextId++, method: "tools/call", params: { name: "read", arguments: { file_path: file } } };
async function call(target, bearer, session) {
  const start = performance.now();
  const r = await post(target, bearer, request(), { "Mcp-Session-Id": session });
  const took = performance.now() - start;
  const body = JSON.parse(r.body);
  if (r.status !== 200 || !body.result || body.result.isError) throw new Error(`call: HTTP ${r.status} ${r.body.slice(0, 300)}`);
  return took;
}

const cpuSeconds = (pid) => {  // utime + stime of the process, all its threads
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

// --- the rows
const sameToken = token(resource);
const rows = [
  { name: "shared token (--auth-token)", target: shared, bearer: () => sharedToken },
  { name: "OAuth, same token", target: oauth, bearer: () => sameToken },
  { name: "OAuth, fresh tokens", target: oauth, bearer: null },
];
for (const row of rows) {
  row.session = await initialize(row.target, row.bearer ? row.bearer() : sameToken);  // keys fetched here
  row.times = [];
  row.cpu = 0;
}
for (let round = 0; round < rounds; round++) {
  for (const row of rows) {
    // Fresh tokens are signed before the row's calls: signing is the client's cost, not the server's.
    const bearers = Array.from({ length: callsPerRound },
      () => (row.bearer ? row.bearer() : token(resource, { jti: randomUUID() })));
    const before = cpuSeconds(row.target.server.pid);
    for (const bearer of bearers) row.times.push(await call(row.target, bearer, row.session));
    row.cpu += cpuSeconds(row.target.server.pid) - before;
  }
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const results = rows.map((row) => ({
  row: row.name,
  calls: row.times.length,
  median_ms: percentile(row.times, 50),
  p90_ms: percentile(row.times, 90),
  server_cpu_ms_per_call: (row.cpu * 1000) / row.times.length,
}));
for (const r of results) {
  r.median_ratio = r.median_ms / results[0].median_ms;
  r.cpu_ratio = r.server_cpu_ms_per_call / results[0].server_cpu_ms_per_call;
}

for (const target of [shared, oauth]) target.server.kill("SIGTERM");
authorization.close();
rmSync(root, { recursive: true, force: true });

if (asJson) {
  console.log(JSON.stringify({ call: callKind, results }, null, 2));
} else {
  console.log(`| ${callKind} call, ${callsPerRound * rounds} per row | median ms (p90) | ÷ shared token | server CPU ms per call | ÷ shared token |`);
  console.log("|---|---|---:|---:|---:|");
  for (const r of results)
    console.log(`| ${r.row} | ${r.median_ms.toFixed(3)} (${r.p90_ms.toFixed(3)}) | ${r.median_ratio.toFixed(2)}× | ` +
      `${r.server_cpu_ms_per_call.toFixed(3)} | ${r.cpu_ratio.toFixed(2)}× |`);
}
process.exit(0);
