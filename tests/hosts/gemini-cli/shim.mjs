#!/usr/bin/env node
// Logging shim between Gemini CLI and the real MCP server (stdio).
// usage: node shim.mjs LOGFILE SERVER [ARGS...]
// Relays stdin/stdout byte for byte and appends every newline-delimited JSON-RPC
// message seen in either direction to LOGFILE as {dir:"c2s"|"s2c", msg} lines,
// except that large results (tools/call answers) are logged without their content.
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';

const [logFile, server, ...args] = process.argv.slice(2);
const child = spawn(server, args, { stdio: ['pipe', 'pipe', 'inherit'] });

function logger(dir) {
  let buf = '';
  return (chunk) => {
    buf += chunk.toString('utf8');
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i).trim();
      buf = buf.slice(i + 1);
      if (!line) continue;
      let msg;
      try { msg = JSON.parse(line); } catch { msg = { unparsed: line.slice(0, 200) }; }
      const slim = (m) => {
        if (m && m.result && Array.isArray(m.result.content)) {
          return { ...m, result: { ...m.result, content: m.result.content.map((b) => ({ type: b.type, len: JSON.stringify(b).length })) } };
        }
        return m;
      };
      const out = Array.isArray(msg) ? msg.map(slim) : slim(msg);
      try { appendFileSync(logFile, JSON.stringify({ t: Date.now(), dir, msg: out }) + '\n'); } catch {}
    }
  };
}
const c2s = logger('c2s');
const s2c = logger('s2c');
process.stdin.on('data', (d) => { c2s(d); child.stdin.write(d); });
process.stdin.on('end', () => child.stdin.end());
child.stdout.on('data', (d) => { s2c(d); process.stdout.write(d); });
child.on('exit', (code, sig) => {
  try { appendFileSync(logFile, JSON.stringify({ t: Date.now(), dir: 'exit', code, sig }) + '\n'); } catch {}
  process.exit(code ?? 1);
});
child.on('error', (e) => {
  try { appendFileSync(logFile, JSON.stringify({ t: Date.now(), dir: 'error', error: String(e) }) + '\n'); } catch {}
  process.exit(127);
});
for (const s of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(s, () => { child.kill(s); });
process.stdin.on('error', () => {});
process.stdout.on('error', () => {});
