#!/usr/bin/env node
// Logging relay between Claude Code and an MCP server over stdio.
// usage: node shim.mjs LOGFILE COMMAND [ARGS...]
// Passes bytes through unchanged both ways and appends each newline-delimited JSON-RPC message to
// LOGFILE as one JSON line {t, dir: "c2s"|"s2c", msg}; tools/call results are logged with the
// content blocks summarised (type and size) so that big answers don't bloat the log.
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';

const [logFile, command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });

const log = (record) => { try { appendFileSync(logFile, JSON.stringify({ t: Date.now(), ...record }) + '\n'); } catch {} };

function summarise(m) {
  if (m && m.result && Array.isArray(m.result.content)) {
    return { ...m, result: { ...m.result, content: m.result.content.map((b) => ({ type: b && b.type, chars: JSON.stringify(b).length })) } };
  }
  return m;
}

function splitter(dir) {
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
