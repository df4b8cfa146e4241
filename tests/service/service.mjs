// Three mcp-read replicas behind nginx (deploy/nginx/mcp-read.conf), driven through nginx by the
// TypeScript SDK client in a session, a stateless 2026-07-28 client and the Inspector CLI; then
// the replica holding the SDK session is killed under stateless load and another is drained with
// SIGTERM. Prints `ok - ...` / `not ok - ...` per check and `service: N passed, M failed`.
//
//   node tests/service/service.mjs NGINX_PORT FILE R1_PORT:R1_PID R2_PORT:R2_PID R3_PORT:R3_PID
//
// Every wait is bounded (fetch and SDK timeouts): a hang fails a check instead of the run.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";

const [nginxPort, file, ...replicaArgs] = process.argv.slice(2);
const replicas = replicaArgs.map((a, i) => {
  const [port, pid] = a.split(":").map(Number);
  return { id: `r${i + 1}`, port, pid };
});
const front = `http://127.0.0.1:${nginxPort}/mcp`;
const inspector = "@modelcontextprotocol/inspector@0.15.0";
let passed = 0, failed = 0;
const check = (ok, what, detail = "") => {
  if (ok) { passed++; console.log(`ok - ${what}`); }
  else { failed++; console.log(`not ok - ${what}${detail ? `\n  ${detail}` : ""}`); }
  return ok;
};
const firstLine = "     1\talpha: the service test's file";

// --- a stateless 2026-07-28 read through nginx
const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
let nextId = 1;
async function statelessRead() {
  const body = { jsonrpc: "2.0", id: nextId++, method: "tools/call",
    params: { name: "read", arguments: { file_path: file }, _meta: meta } };
  try {
    const r = await fetch(front, { method: "POST", signal: AbortSignal.timeout(15000),
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream",
        "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "read" },
      body: JSON.stringify(body) });
    const text = await r.text();
    const answer = r.status === 200 ? JSON.parse(text) : null;
    const ok = answer?.result?.content?.[0]?.text?.startsWith(firstLine) && !answer.result.isError;
    return ok ? null : `HTTP ${r.status}: ${text.slice(0, 200)}`;
  } catch (e) {
    return String(e);
  }
}
// `count` stateless reads, `concurrency` at a time; `midway` runs once a third of them are done,
// while the rest are in flight or to come. Returns the failures.
async function statelessLoad(count, concurrency, midway = () => {}) {
  const failures = [];
  let started = 0, done = 0;
  const worker = async () => {
    while (started < count) {
      started++;
      const why = await statelessRead();
      if (why) failures.push(why);
      if (++done === Math.floor(count / 3)) midway();
    }
  };
  await Promise.all([...Array(concurrency)].map(worker));
  return failures;
}

async function metricsOf(replica) {
  const r = await fetch(`http://127.0.0.1:${replica.port}/metrics`, { signal: AbortSignal.timeout(5000) });
  return parsePrometheusTextFormat(await r.text());
}
const sampleSum = (families, name, where = () => true) =>
  (families.find((f) => f.name === name)?.metrics ?? []).filter((m) => where(m.labels ?? {}))
    .reduce((n, m) => n + Number(m.value ?? m.count ?? 0), 0);

async function sdkClient(name) {
  const client = new Client({ name, version: "1" });
  const transport = new StreamableHTTPClientTransport(new URL(front));
  await client.connect(transport, { timeout: 10000 });
  return { client, transport };
}
const sdkRead = (client) => client.callTool({ name: "read", arguments: { file_path: file } }, undefined, { timeout: 10000 });
const replicaOf = (sessionId) => replicas.find((r) => sessionId?.startsWith(`${r.id}.`));

function runInspector(args) {
  return new Promise((resolve) => {
    execFile("npx", ["-y", inspector, "--cli", front, "--transport", "http", ...args],
      { timeout: 180000, maxBuffer: 1 << 24 }, (error, stdout, stderr) => resolve({ error, stdout, stderr }));
  });
}
// The replicas are run.sh's children: a dead one stays a zombie until it is reaped.
const alive = (pid) => {
  try { return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0] !== "Z"; } catch { return false; }
};
const exited = (pid, ms) => new Promise((resolve) => {
  const until = Date.now() + ms;
  const poll = () => (!alive(pid) ? resolve(true) : Date.now() > until ? resolve(false) : setTimeout(poll, 50));
  poll();
});

// --- 1. stateless requests spread over the replicas
const before = await Promise.all(replicas.map(metricsOf));
const failures1 = await statelessLoad(60, 6);
check(failures1.length === 0, "60 stateless reads through nginx succeed", failures1.slice(0, 3).join("; "));
const after = await Promise.all(replicas.map(metricsOf));
const served = replicas.map((_, i) =>
  sampleSum(after[i], "mcpread_http_requests_total", (l) => l.method === "tools/call") -
  sampleSum(before[i], "mcpread_http_requests_total", (l) => l.method === "tools/call"));
check(served.every((n) => n > 0), "round-robin: every replica served stateless calls", `per replica: ${served}`);

// --- 2. /metrics of every replica through a real Prometheus text parser
for (const [i, families] of after.entries()) {
  const types = Object.fromEntries(families.map((f) => [f.name, f.type]));
  check(types.mcpread_http_requests_total === "COUNTER" && types.mcpread_http_request_duration_seconds === "HISTOGRAM" &&
        types.mcpread_read_calls_total === "COUNTER" && types.mcpread_worker_queue_depth === "GAUGE" &&
        types.mcpread_calls_in_flight === "GAUGE" && types.mcpread_ready === "GAUGE",
        `replica ${replicas[i].id}: /metrics parses, with the families and types expected`, JSON.stringify(types));
}
const textReads = after.reduce((n, f) => n + sampleSum(f, "mcpread_read_calls_total", (l) => l.kind === "text" && l.outcome === "ok"), 0);
check(textReads >= 60,
      "read calls counted by kind and outcome across the replicas", `counted: ${textReads}`);

// --- 2b. stateless tasks: a read from a client declaring the tasks extension becomes a task on
// the replica that took it (the replicas run with --task-after-ms 0); its tasks/get carries the
// task id in Mcp-Name, which nginx routes to that replica. Without the routing, two polls in
// three would reach a replica that knows no such task.
const taskMeta = { ...meta, "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } } };
async function statelessPost(method, name, params) {
  const r = await fetch(front, { method: "POST", signal: AbortSignal.timeout(15000),
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream",
      "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": method, "Mcp-Name": name },
    body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params: { ...params, _meta: taskMeta } }) });
  const text = await r.text();
  return r.status === 200 ? JSON.parse(text) : { status: r.status, text: text.slice(0, 200) };
}
const taskReplicas = new Set();
let tasksOk = true, taskDetail = "";
for (let i = 0; i < 6 && tasksOk; i++) {
  const created = await statelessPost("tools/call", "read", { name: "read", arguments: { file_path: file } });
  const id = created.result?.taskId;
  const owner = replicas.find((r) => id?.startsWith(`${r.id}.`));
  if (created.result?.resultType !== "task" || !owner) { tasksOk = false; taskDetail = JSON.stringify(created); break; }
  taskReplicas.add(owner.id);
  let task = null;
  for (let poll = 0; poll < 1000; poll++) {  // bounded by count; each poll is answered at once
    const got = await statelessPost("tasks/get", id, { taskId: id });
    task = got.result;
    if (!task || ["completed", "failed", "cancelled"].includes(task.status)) { if (!task) taskDetail = JSON.stringify(got); break; }
  }
  if (task?.status !== "completed" || !task.result?.content?.[0]?.text?.startsWith(firstLine)) {
    tasksOk = false;
    taskDetail ||= `task ${id}: ${JSON.stringify(task).slice(0, 300)}`;
  }
}
check(tasksOk, "6 stateless reads that became tasks, each polled to completion through nginx", taskDetail);
check(taskReplicas.size >= 2, "the tasks were made on several replicas (routing had work to do)", [...taskReplicas].join(","));

// --- 3. the SDK client keeps its session on one replica
const first = await sdkClient("service-sdk");
const home = replicaOf(first.transport.sessionId);
check(Boolean(home), `the SDK session id names its replica (${first.transport.sessionId})`);
let sessionOk = true;
for (let i = 0; i < 10; i++) {
  const r = await sdkRead(first.client).catch((e) => ({ error: String(e) }));
  sessionOk &&= r.content?.[0]?.text?.startsWith(firstLine) === true;
}
check(sessionOk, "10 reads in the SDK session through nginx (every one on the session's replica)");

// --- 4. the Inspector CLI through nginx
const listed = await runInspector(["--method", "tools/list"]);
check(!listed.error && listed.stdout.includes('"name": "read"'), "Inspector CLI: tools/list through nginx",
      String(listed.error ?? "") + listed.stderr.slice(-500));
const called = await runInspector(["--method", "tools/call", "--tool-name", "read", "--tool-arg", `file_path=${file}`]);
check(!called.error && called.stdout.includes("alpha: the service test"), "Inspector CLI: tools/call read through nginx",
      String(called.error ?? "") + called.stderr.slice(-500));

// --- 5. the session's replica dies under stateless load: no stateless call fails
const failures2 = await statelessLoad(300, 6, () => process.kill(home.pid, "SIGKILL"));
check(!alive(home.pid) || (await exited(home.pid, 5000)), `replica ${home.id} was killed mid-run`);
check(failures2.length === 0, "300 stateless reads while a replica dies: 0 failed", failures2.slice(0, 3).join("; "));

// --- 6. the dead replica's session: 404, and the SDK client initializes again
const lost = await sdkRead(first.client).then(() => null, (e) => e);
check(lost !== null && (lost.code === 404 || /404/.test(String(lost))), "the session of the dead replica gets 404",
      String(lost));
await first.client.close().catch(() => {});
const again = await sdkClient("service-sdk");
const newHome = replicaOf(again.transport.sessionId);
check(Boolean(newHome) && newHome !== home, `re-initialize lands on a live replica (${again.transport.sessionId})`);
const r6 = await sdkRead(again.client).catch((e) => ({ error: String(e) }));
check(r6.content?.[0]?.text?.startsWith(firstLine) === true, "the new session reads", JSON.stringify(r6).slice(0, 200));
await again.client.close().catch(() => {});

// --- 7. a replica drained with SIGTERM under load: no stateless call fails, it exits by itself
const draining = replicas.find((r) => r !== home && r !== newHome) ?? replicas.find((r) => r !== home && alive(r.pid));
const failures3 = await statelessLoad(200, 6, () => process.kill(draining.pid, "SIGTERM"));
check(failures3.length === 0, `200 stateless reads while replica ${draining.id} drains: 0 failed`, failures3.slice(0, 3).join("; "));
check(await exited(draining.pid, 15000), `replica ${draining.id} exited by itself after SIGTERM`);
console.log(`drained: ${draining.pid}`);  // run.sh checks its exit status

console.log(`service: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
