#!/usr/bin/env node
// Smoke test of the Codex host harness (not of mcp-read's answer shapes).
// usage: node tests/hosts/codex/smoke.mjs /path/to/mcp-read [--model SLUG]... [--families]
//   --families  run each file with one model of each tool wiring Codex 0.169 uses:
//               gpt-5.5 (tool_search), an unknown slug (direct), gpt-6.1-sol (JavaScript code mode)
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runHost, DEFAULT_MODEL, MODELS, PINNED_VERSION } from './driver.mjs';
import { tilePng as png } from '../common/png.mjs';

const argv = process.argv.slice(2);
const mcpRead = argv.find((a) => !a.startsWith('--') && !argv[argv.indexOf(a) - 1]?.startsWith('--model'));
if (!mcpRead) { console.error('usage: smoke.mjs /path/to/mcp-read [--model SLUG]... [--families]'); process.exit(2); }
let models = argv.flatMap((a, i) => (a === '--model' ? [argv[i + 1]] : []));
if (argv.includes('--families')) models = [MODELS.toolSearch, MODELS.direct, MODELS.codeMode];
if (!models.length) models = [DEFAULT_MODEL];

function pngSize(b64) {
  const b = Buffer.from(b64, 'base64');
  if (b.length > 24 && b.readUInt32BE(0) === 0x89504e47) return `${b.readUInt32BE(16)}x${b.readUInt32BE(20)}`;
  if (b.length > 4 && b[0] === 0xff && b[1] === 0xd8) {
    for (let i = 2; i + 9 < b.length;) {
      if (b[i] !== 0xff) break;
      const m = b[i + 1]; const len = b.readUInt16BE(i + 2);
      if (m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc) return `${b.readUInt16BE(i + 7)}x${b.readUInt16BE(i + 5)}`;
      i += 2 + len;
    }
  }
  return '?';
}

const root = mkdtempSync(join(tmpdir(), 'mcp-read-codex-smoke-'));
writeFileSync(join(root, 'three.txt'), 'first line\nsecond line\nthird line\n');
writeFileSync(join(root, 'pic.png'), png(64, 48));
const cases = [
  { name: 'text', args: { file_path: join(root, 'three.txt') } },
  { name: 'png', args: { file_path: join(root, 'pic.png') } },
  { name: 'missing', args: { file_path: join(root, 'no-such-file.txt') } },
];

let failed = 0;
console.log(`Codex CLI ${PINNED_VERSION} smoke; mcp-read ${mcpRead}`);
try {
  for (const model of models) {
    for (const c of cases) {
      const t0 = Date.now();
      try {
        const r = await runHost({ mcpRead, root, toolArgs: c.args, model, timeoutMs: 60000 });
        const ms = Date.now() - t0;
        const parts = r.received.map((p) => {
          if (p.type === 'text') return `text(${p.text.length}) ${JSON.stringify(p.text.slice(0, 80))}`;
          if (p.type === 'image' || p.type === 'document' || p.type === 'audio') return `${p.type} ${p.mimeType} ${p.bytes} B${p.type === 'image' ? ' ' + pngSize(p.data) : ''}`;
          return `other ${JSON.stringify(p.value).slice(0, 80)}`;
        });
        const ok = r.received.length > 0 && (c.name !== 'png' || r.received.some((p) => p.type === 'image'));
        if (!ok) failed++;
        console.log(`[${ok ? 'ok' : 'FAIL'}] ${model} ${c.name} (${ms} ms) family=${r.family} tool=${r.toolName} isError=${r.isError} client=${r.clientInfo?.name}/${r.clientInfo?.version} protocol=${r.clientInfo?.protocolVersion}`);
        for (const p of parts) console.log(`      ${p}`);
      } catch (e) {
        failed++;
        console.log(`[FAIL] ${model} ${c.name}: ${e.message}`);
      }
    }
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
