#!/usr/bin/env node
// A stand-in MCP server for measuring how Claude Code passes tool results to the model.
// usage: node fake-server.mjs SPEC.json MCP_READ [ARGS...]
// It runs the real mcp-read for the handshake (initialize / server/discover / lists), keeps only
// its `read` tool in tools/list (optionally with `_meta` and description from SPEC), and answers
// every tools/call with SPEC.result, a canned CallToolResult. SPEC:
//   { "result": { "content": [...], "isError": false, "structuredContent": {...} },
//     "toolMeta": { "anthropic/maxResultSizeChars": 200000 }, "toolDescription": "..." }
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { lineSplitter } from '../common/relay.mjs';

const [specFile, command, ...args] = process.argv.slice(2);
const spec = JSON.parse(fs.readFileSync(specFile, 'utf8'));
const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
const listIds = new Set();

const send = (msg) => process.stdout.write(JSON.stringify(msg) + '\n');

process.stdin.on('data', lineSplitter((line) => {
  let m;
  try { m = JSON.parse(line); } catch { child.stdin.write(line + '\n'); return; }
  if (m.method === 'tools/call' && m.id !== undefined) {
    const stateless = !!(m.params && m.params._meta && m.params._meta['io.modelcontextprotocol/protocolVersion']);
    send({ jsonrpc: '2.0', id: m.id, result: stateless ? { ...spec.result, resultType: 'complete' } : spec.result });
    return;
  }
  if (m.method === 'tools/list' && m.id !== undefined) listIds.add(m.id);
  child.stdin.write(line + '\n');
}));
process.stdin.on('end', () => child.stdin.end());
process.stdin.on('error', () => {});
child.stdin.on('error', () => {});

child.stdout.on('data', lineSplitter((line) => {
  let m;
  try { m = JSON.parse(line); } catch { process.stdout.write(line + '\n'); return; }
  if (listIds.has(m.id) && m.result && Array.isArray(m.result.tools)) {
    listIds.delete(m.id);
    m.result.tools = m.result.tools.filter((t) => t.name === 'read');
    for (const t of m.result.tools) {
      if (spec.toolMeta) t._meta = { ...(t._meta || {}), ...spec.toolMeta };
      if (spec.toolDescription) t.description = spec.toolDescription;
    }
  }
  send(m);
}));
child.on('exit', (code) => process.exit(code ?? 0));
for (const s of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(s, () => child.kill(s));
