#!/usr/bin/env node
// Logging relay between the AI SDK MCP client and an MCP server over stdio.
// usage: node shim.mjs LOGFILE COMMAND [ARGS...]
// Bytes pass through unchanged in both directions. Each newline-delimited JSON-RPC message is
// appended to LOGFILE as one JSON line {t, dir: "c2s"|"s2c", msg}; the content of tools/call
// results is summarised (block type and JSON size) so that large answers don't bloat the log.
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';

const [logFile, command, ...args] = process.argv.slice(2);
if (!logFile || !command) {
  process.stderr.write('usage: shim.mjs LOGFILE COMMAND [ARGS...]\n');
  process.exit(2);
}
const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });

function log(record) {
  try { appendFileSync(logFile, JSON.stringify({ t: Date.now(), ...record }) + '\n'); } catch { /* ignore */ }
}

function summarise(m) {
  if (m && m.result && Array.isArray(m.result.content)) {
    const content = m.result.content.map((b) => ({ type: b && b.type, jsonChars: JSON.stringify(b).length }));
    return { ...m, result: { ...m.result, content } };
  }
  return m;
}

function lineSplitter(dir) {
  let buf = '';
  return (chunk) => {
    buf += chunk.toString('utf8');
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i).trim();
      buf = buf.slice(i + 1);
      if (!line) continue;
      let msg;
      try { msg = JSON.parse(line); } catch { msg = { unparsed: line.slice(0, 300) }; }
      log({ dir, msg: Array.isArray(msg) ? msg.map(summarise) : summarise(msg) });
    }
  };
}

const c2s = lineSplitter('c2s');
const s2c = lineSplitter('s2c');
process.stdin.on('data', (d) => { c2s(d); child.stdin.write(d); });
process.stdin.on('end', () => child.stdin.end());
process.stdin.on('error', () => {});
process.stdout.on('error', () => {});
child.stdin.on('error', () => {});
child.stdout.on('data', (d) => { s2c(d); process.stdout.write(d); });
child.on('exit', (code, signal) => { log({ dir: 'exit', code, signal }); process.exit(code ?? 1); });
child.on('error', (e) => { log({ dir: 'error', error: String(e) }); process.exit(127); });
for (const s of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(s, () => { try { child.kill(s); } catch { /* gone */ } });
