// Smoke test of the Gemini CLI host harness (not of mcp-read's answer shapes).
// usage: node tests/hosts/gemini-cli/smoke.mjs /path/to/mcp-read [model]
// Reads a 3-line text file, a 64x48 PNG and a missing file through Gemini CLI + the mock model
// API, prints what the model received each time, exits 0 when every round trip completed and
// the model got something for each.
import { mkdtemp, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runHost, hostVersion } from './driver.mjs';
import { tilePng as png } from '../common/png.mjs';

const mcpRead = path.resolve(process.argv[2] || 'build/mcp-read');
const model = process.argv[3];

function summary(r) {
  return r.received.map((x) => {
    if (x.type === 'text') return `text(${x.text.length}) ${JSON.stringify(x.text.slice(0, 120))}`;
    if (x.type === 'other') return `other ${JSON.stringify(x.value).slice(0, 120)}`;
    return `${x.type} ${x.mimeType} ${x.bytes} bytes`;
  });
}

const root = await mkdtemp(path.join(tmpdir(), 'host-smoke-'));
let ok = true;
try {
  await writeFile(path.join(root, 'three.txt'), 'first line\nsecond line\nthird line\n');
  await writeFile(path.join(root, 'pic.png'), png(64, 48));
  const cases = [
    ['text', { file_path: path.join(root, 'three.txt') }],
    ['png', { file_path: path.join(root, 'pic.png') }],
    ['missing', { file_path: path.join(root, 'nope.txt') }],
  ];
  console.log(`gemini-cli ${hostVersion()} model=${model || '(default)'} server=${mcpRead}`);
  for (const [name, toolArgs] of cases) {
    const t0 = Date.now();
    try {
      const r = await runHost({ mcpRead, root, toolArgs, model, timeoutMs: 90000 });
      const got = r.received.length > 0;
      ok &&= got;
      console.log(`\n[${name}] ${got ? 'OK' : 'EMPTY'} in ${Date.now() - t0} ms; tool=${r.toolName} model=${r.model} isError=${r.isError}`);
      console.log(`  clientInfo: ${JSON.stringify({ name: r.clientInfo.name, version: r.clientInfo.version, protocolVersion: r.clientInfo.protocolVersion })}`);
      for (const s of summary(r)) console.log(`  - ${s}`);
      for (const n of r.notes) console.log(`  note: ${n.slice(0, 300)}`);
    } catch (e) {
      ok = false;
      console.log(`\n[${name}] FAILED in ${Date.now() - t0} ms: ${e.message}`);
    }
  }
} finally {
  await rm(root, { recursive: true, force: true });
}
console.log(ok ? '\nsmoke: all round trips completed' : '\nsmoke: FAILED');
process.exit(ok ? 0 : 1);
