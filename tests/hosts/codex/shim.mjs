#!/usr/bin/env node
// Logging relay between Codex and an MCP server over stdio.
// usage: node shim.mjs LOGFILE COMMAND [ARGS...]
// Bytes pass through unchanged both ways. Each newline-delimited JSON-RPC message is appended to
// LOGFILE as one JSON line {t, dir: "c2s"|"s2c", msg}. tools/call results are logged with their
// content blocks summarised (type, size) so that big answers don't bloat the log.
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';

const [logFile, command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });

function log(record) {
  try { appendFileSync(logFile, JSON.stringify({ t: Date.now(), ...record }) + '\n'); } catch { /* ignore */ }
}

function summarise(m) {
  if (m && m.result && Array.isArray(m.result.content)) {
    const content = m.result.content.map((b) => ({ type: b && b.type, chars: JSON.stringify(b).length }));
    const { structuredContent, ...rest } = m.result;
    return { ...m, result: { ...rest, content, ...(structuredContent !== undefined ? { structuredContent: '[present]' } : {}) } };
  }
  return m;
}

function splitter(dir) {
  // Keeps chunks in a list and only scans new data for newlines, so multi-megabyte lines
  // (base64 images) cost linear time.
  let parts = [];
  return (chunk) => {
    let start = 0;
    let i;
    while ((i = chunk.indexOf(10, start)) >= 0) {
      parts.push(chunk.subarray(start, i));
      const line = Buffer.concat(parts).toString('utf8').trim();
      parts = [];
      start = i + 1;
      if (!line) continue;
      let msg;
      try { msg = JSON.parse(line); } catch { msg = { unparsed: line.slice(0, 300) }; }
      log({ dir, msg: Array.isArray(msg) ? msg.map(summarise) : summarise(msg) });
    }
    if (start < chunk.length) parts.push(chunk.subarray(start));
  };
}

const c2s = splitter('c2s');
const s2c = splitter('s2c');
process.stdin.on('data', (d) => { c2s(d); child.stdin.write(d); });
process.stdin.on('end', () => child.stdin.end());
process.stdin.on('error', () => {});
process.stdout.on('error', () => {});
child.stdin.on('error', () => {});
child.stdout.on('data', (d) => { s2c(d); process.stdout.write(d); });
child.on('exit', (code, signal) => { log({ dir: 'exit', code, signal }); process.exit(code ?? 1); });
child.on('error', (e) => { log({ dir: 'error', error: String(e) }); process.exit(127); });
for (const s of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(s, () => child.kill(s));
