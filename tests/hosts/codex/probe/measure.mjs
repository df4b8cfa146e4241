#!/usr/bin/env node
// Measures how Codex CLI passes MCP tool results to the model, with the canned fake MCP server
// (probe/fake-mcp.mjs) in place of mcp-read. Run inside `unshare -n` (loopback only):
//   node tests/hosts/codex/probe/measure.mjs [--model SLUG]... [--only NAME,NAME] [--json OUT]
// Default models: gpt-5.5 (tool_search), mcp-read-test-model (unknown slug: fallback metadata,
// tool offered directly) and gpt-6.1-sol (JavaScript code mode, Codex's default model).
import { writeFileSync, rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runHost } from '../driver.mjs';
import { png, imageInfo, bigText, wav, TINY_PDF } from './gen.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const FAKE = join(HERE, 'fake-mcp.mjs');
const argv = process.argv.slice(2);
let models = argv.flatMap((a, i) => (a === '--model' ? [argv[i + 1]] : []));
if (!models.length) models = ['gpt-5.5', 'mcp-read-test-model', 'gpt-6.1-sol'];
const only = (argv[argv.indexOf('--only') + 1] || '').split(',').filter((s) => argv.includes('--only') && s);
const jsonOut = argv.includes('--json') ? argv[argv.indexOf('--json') + 1] : null;

// ---------- cases ----------
const smallPng = png(64, 48);
const CASES = {
  text_small: () => ({ content: [{ type: 'text', text: 'hello\nworld' }] }),
  text_98k: () => ({ content: [{ type: 'text', text: bigText(98000) }] }),
  text_3x20k: () => ({ content: [0, 1, 2].map((k) => ({ type: 'text', text: `BLOCK${k}\n` + bigText(20000) })) }),
  text_then_image_big_text: () => ({ content: [{ type: 'text', text: bigText(60000) }, { type: 'image', mimeType: 'image/png', data: smallPng.toString('base64') }, { type: 'text', text: 'AFTER IMAGE' }] }),
  is_error: () => ({ content: [{ type: 'text', text: 'File not found: /x' }], isError: true }),
  structured_with_text: () => ({ content: [{ type: 'text', text: 'TEXT BLOCK' }], structuredContent: { lines: 3, path: '/x' } }),
  structured_only: () => ({ content: [], structuredContent: { lines: 3, path: '/x' } }),
  meta: () => ({ content: [{ type: 'text', text: 'with meta' }], _meta: { 'x/y': 1 } }),
  resource_blob_pdf: () => ({ content: [{ type: 'text', text: 'PDF follows' }, { type: 'resource', resource: { uri: 'file:///x.pdf', mimeType: 'application/pdf', blob: TINY_PDF.toString('base64') } }] }),
  resource_text: () => ({ content: [{ type: 'resource', resource: { uri: 'file:///x.txt', mimeType: 'text/plain', text: 'resource text body' } }] }),
  resource_link: () => ({ content: [{ type: 'resource_link', uri: 'file:///x.txt', name: 'x.txt', mimeType: 'text/plain' }] }),
  audio_wav: () => ({ content: [{ type: 'text', text: 'audio follows' }, { type: 'audio', mimeType: 'audio/wav', data: wav().toString('base64') }] }),
  image_small_png: () => ({ content: [{ type: 'image', mimeType: 'image/png', data: smallPng.toString('base64') }] }),
  image_3000x2000_png: () => ({ content: [{ type: 'image', mimeType: 'image/png', data: png(3000, 2000).toString('base64') }] }),
  image_2048x2048_png: () => ({ content: [{ type: 'image', mimeType: 'image/png', data: png(2048, 2048).toString('base64') }] }),
  image_noise_1200x900_png: () => ({ content: [{ type: 'image', mimeType: 'image/png', data: png(1200, 900, 'noise').toString('base64') }] }),
  image_noise_1600x1200_png: () => ({ content: [{ type: 'image', mimeType: 'image/png', data: png(1600, 1200, 'noise').toString('base64') }] }),
  image_4000x3000_png: () => ({ content: [{ type: 'image', mimeType: 'image/png', data: png(4000, 3000).toString('base64') }] }),
  image_7000x1000_png: () => ({ content: [{ type: 'image', mimeType: 'image/png', data: png(7000, 1000).toString('base64') }] }),
  image_noise_2000x1500_png: () => ({ content: [{ type: 'image', mimeType: 'image/png', data: png(2000, 1500, 'noise').toString('base64') }] }),
  json_line_over_16MiB_2700x2700_png: () => ({ content: [{ type: 'image', mimeType: 'image/png', data: png(2700, 2700, 'noise').toString('base64') }] }),
  image_wrong_mime: () => ({ content: [{ type: 'image', mimeType: 'image/jpeg', data: smallPng.toString('base64') }] }),
  image_bad_data: () => ({ content: [{ type: 'image', mimeType: 'image/png', data: Buffer.from('not an image at all').toString('base64') }] }),
  two_images: () => ({ content: [{ type: 'text', text: 'page 1' }, { type: 'image', mimeType: 'image/png', data: smallPng.toString('base64') }, { type: 'text', text: 'page 2' }, { type: 'image', mimeType: 'image/png', data: png(32, 32).toString('base64') }] }),
};

function summarise(r, result) {
  const inImgs = (result.content || []).filter((b) => b.type === 'image');
  return r.received.map((p) => {
    if (p.type === 'text') {
      const t = p.text;
      const m = /…[^…]{0,40}…/.exec(t);
      return { type: 'text', chars: t.length, bytes: Buffer.byteLength(t), head: t.slice(0, 160), tail: t.length > 160 ? t.slice(-80) : undefined, marker: m ? m[0] : undefined };
    }
    if (p.type === 'image') {
      const same = inImgs.some((b) => b.data === p.data);
      return { type: 'image', mimeType: p.mimeType, bytes: p.bytes, detail: p.detail, ...imageInfo(p.data), unchanged: same };
    }
    return { ...p, data: p.data ? `${p.data.slice(0, 16)}…(${p.data.length})` : undefined };
  });
}

const scratch = mkdtempSync(join(tmpdir(), 'codex-measure-'));
const report = [];
try {
  for (const [name, make] of Object.entries(CASES)) {
    if (only.length && !only.includes(name)) continue;
    const result = make();
    const spec = join(scratch, `${name}.json`);
    writeFileSync(spec, JSON.stringify({ result }));
    const inSummary = (result.content || []).map((b) => (b.type === 'image' ? `image ${b.mimeType} ${Buffer.from(b.data, 'base64').length} B ${JSON.stringify(imageInfo(b.data))}` : b.type === 'text' ? `text ${b.text.length}` : b.type));
    for (const model of models) {
      const t0 = Date.now();
      try {
        const r = await runHost({ serverCommand: [process.execPath, FAKE, spec], toolArgs: { file_path: '/x' }, model, timeoutMs: 90000, toolTimeoutSec: 20 });
        const entry = { case: name, model, family: r.family, ms: Date.now() - t0, sent: inSummary, received: summarise(r, result), outputType: r.outputItem.type, outputIsString: typeof r.outputItem.output === 'string' };
        report.push(entry);
        console.log(JSON.stringify(entry));
      } catch (e) {
        const entry = { case: name, model, error: e.message.slice(0, 600) };
        report.push(entry);
        console.log(JSON.stringify(entry));
      }
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
if (jsonOut) writeFileSync(jsonOut, JSON.stringify(report, null, 1));
