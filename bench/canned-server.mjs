#!/usr/bin/env node
// The benchmark client's own floor: an MCP server over stdio that answers each request with the
// bytes mcp-read gave for the same method and arguments the first time, at once. It does no
// reading, so a client's calls/s against it are the most that client can measure of any server.
//
// Usage: node bench/canned-server.mjs MCP_READ_BIN ROOT
import { spawn } from "node:child_process";

const [bin, root] = process.argv.slice(2);
if (!bin || !root) {
  console.error("usage: node bench/canned-server.mjs MCP_READ_BIN ROOT");
  process.exit(2);
}
const real = spawn(bin, [root], { stdio: ["pipe", "pipe", "inherit"] });
const canned = new Map(); // method + arguments -> the answer after its id
const waiting = [];       // [key, id] of requests forwarded to mcp-read, in order
let realParts = [];
real.stdout.on("data", (chunk) => {
  let start = 0, i;
  while ((i = chunk.indexOf(10, start)) !== -1) {
    realParts.push(chunk.subarray(start, i + 1));
    const line = Buffer.concat(realParts).toString("utf8");
    realParts = [];
    start = i + 1;
    const [key, id] = waiting.shift();
    const head = `{"id":${JSON.stringify(id)},`;
    if (!line.startsWith(head)) throw new Error(`unexpected answer: ${line.slice(0, 80)}`);
    canned.set(key, line.slice(head.length));
    process.stdout.write(line);
  }
  if (start < chunk.length) realParts.push(chunk.subarray(start));
});
real.on("exit", () => process.exit(0));

let parts = [];
process.stdin.on("data", (chunk) => {
  let start = 0, i;
  while ((i = chunk.indexOf(10, start)) !== -1) {
    parts.push(chunk.subarray(start, i + 1));
    const line = Buffer.concat(parts);
    parts = [];
    start = i + 1;
    const msg = JSON.parse(line.toString("utf8"));
    if (msg.id === undefined) { real.stdin.write(line); continue; }
    const key = `${msg.method} ${JSON.stringify(msg.params?.arguments ?? null)}`;
    const answer = canned.get(key);
    if (answer === undefined) { waiting.push([key, msg.id]); real.stdin.write(line); continue; }
    process.stdout.write(`{"id":${JSON.stringify(msg.id)},${answer}`);
  }
  if (start < chunk.length) parts.push(chunk.subarray(start));
});
process.stdin.on("end", () => real.stdin.end());
