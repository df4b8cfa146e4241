#!/usr/bin/env node
// Smoke test of the Claude Code host harness (not of mcp-read's answer shapes):
//   node tests/hosts/claude-code/smoke.mjs /path/to/mcp-read [KEY=VALUE ...]
// KEY=VALUE pairs are passed to the host's environment (e.g. ENABLE_TOOL_SEARCH=false).
// Makes a temp root with a 3-line text file and a 64x48 PNG, runs one round trip per file and one
// for a missing file, prints what the model received, exits 0 when every round trip completed and
// the model got something each time.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runHost, HOST_VERSION } from './driver.mjs';
import { makePng, imageDims } from '../common/png.mjs';

function dims(b64) {
  const d = imageDims(Buffer.from(b64, 'base64'));
  return d ? `${d[0]}x${d[1]}` : '?';
}

function summary(part) {
  switch (part.type) {
    case 'text': return `text(${part.text.length}) ${JSON.stringify(part.text.length > 160 ? part.text.slice(0, 160) + '…' : part.text)}`;
    case 'image': return `image ${part.mimeType} ${part.bytes} B ${dims(part.data)}`;
    case 'document':
    case 'audio': return `${part.type} ${part.mimeType} ${part.bytes} B`;
    default: return `other ${JSON.stringify(part.value).slice(0, 160)}`;
  }
}

const mcpRead = process.argv[2];
if (!mcpRead) {
  console.error('usage: node smoke.mjs /path/to/mcp-read [KEY=VALUE ...]');
  process.exit(2);
}
const env = Object.fromEntries(process.argv.slice(3).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'host-claude-code-smoke-'));
fs.writeFileSync(path.join(root, 'hello.txt'), 'alpha\nbeta\ngamma\n');
fs.writeFileSync(path.join(root, 'pic.png'), makePng(64, 48));

const cases = [
  { name: 'text', toolArgs: { file_path: path.join(root, 'hello.txt') } },
  { name: 'png', toolArgs: { file_path: path.join(root, 'pic.png') } },
  { name: 'missing', toolArgs: { file_path: path.join(root, 'missing.txt') } },
];
console.log(`claude-code ${HOST_VERSION} smoke, mcp-read ${mcpRead}`);
let failures = 0;
try {
  for (const c of cases) {
    const t0 = Date.now();
    try {
      const r = await runHost({ mcpRead, root, toolArgs: c.toolArgs, timeoutMs: 90000, env });
      const ci = r.clientInfo;
      console.log(`\n[${c.name}] ${Date.now() - t0} ms; tool ${r.toolName}; client ${ci.name} ${ci.version}, protocol ${ci.protocolVersion}${ci.discover ? ' (server/discover)' : ''}; isError=${r.isError}`);
      for (const p of r.received) console.log(`  - ${summary(p)}`);
      for (const n of r.notes) console.log(`  note: ${n}`);
      if (!r.received.length) { failures++; console.log('  FAIL: the model received nothing'); }
    } catch (e) {
      failures++;
      console.log(`\n[${c.name}] FAIL after ${Date.now() - t0} ms: ${e.message}`);
    }
  }
} finally {
  fs.rmSync(root, { recursive: true, force: true });
}
console.log(`\n${cases.length - failures} passed, ${failures} failed`);
process.exit(failures ? 1 : 0);
