// Measures how Gemini CLI hands CallToolResult blocks to the model, with canned results from
// fake-mcp.mjs (tool `read` answering with the JSON CallToolResult stored at file_path).
// usage: node measure/measure.mjs [case,case,...|all] [model|-]     (ROUTE=pro for the pro route)
// Run inside `unshare -n` like the suite. Prints one summary per case.
import { writeFileSync, mkdtempSync, rmSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { runHost } from '../driver.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const FAKE = path.join(HERE, 'fake-mcp.mjs');
chmodSync(FAKE, 0o755);
const lines = (n) => { let s = ''; let i = 1; while (s.length < n) { s += `${String(i).padStart(6)}\tline ${i} ${'x'.repeat(50)}\n`; i++; } return s.slice(0, n - 3) + 'END'; };
const img = (n, mime = 'image/png') => ({ type: 'image', mimeType: mime, data: randomBytes(n).toString('base64') });
const text = (t) => ({ type: 'text', text: t });
const cases = {
  text39959: { content: [text(lines(39959))] }, // + 41 wrapper chars = 40,000: kept
  text39960: { content: [text(lines(39960))] }, // 40,001: truncated
  text60k: { content: [text(lines(60000))] },
  text150k: { content: [text(lines(150000))] },
  text500k: { content: [text(lines(500000))] },
  cjk39960: { content: [text('中'.repeat(39960))] },
  emoji19980: { content: [text('😀'.repeat(19980))] }, // 39,960 UTF-16 units
  two250k: { content: [text(lines(250000)), text('SECOND ' + lines(250000))] },
  text60kPlusImg: { content: [text(lines(60000)), img(1000)] },
  order: { content: [text('T1 before image A'), img(100), text('T2 between'), img(200, 'image/jpeg'), text('T3 after')] },
  formats: { content: ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/bmp', 'image/svg+xml', 'image/tiff', 'image/heic'].map((m, i) => img(50 + i, m)) },
  imgOnly: { content: [img(300)] },
  img4m: { content: [text('four MB image'), img(4_000_000)] },
  img15m: { content: [text('15 MB image'), img(15_000_000)] },
  pdfBlob: { content: [text('── Page 1 of 1 ──\nhello pdf'), { type: 'resource', resource: { uri: 'file:///x/a.pdf', mimeType: 'application/pdf', blob: randomBytes(1234).toString('base64') } }] },
  blobNoMime: { content: [{ type: 'resource', resource: { uri: 'file:///x/a.bin', blob: randomBytes(10).toString('base64') } }] },
  resText: { content: [{ type: 'resource', resource: { uri: 'file:///x/a.txt', mimeType: 'text/plain', text: 'resource text body' } }] },
  resLink: { content: [{ type: 'resource_link', uri: 'file:///x/a.txt', name: 'a.txt', title: 'A title' }] },
  audio: { content: [text('audio follows'), { type: 'audio', mimeType: 'audio/wav', data: randomBytes(500).toString('base64') }] },
  audioOnly: { content: [{ type: 'audio', mimeType: 'audio/mpeg', data: randomBytes(500).toString('base64') }] },
  isError: { content: [text('File does not exist: /x/nope.txt')], isError: true },
  isErrorBig: { content: [text(lines(100000))], isError: true },
  isErrorImg: { content: [text('err with image'), img(100)], isError: true },
  structured: { content: [text('file text here')], structuredContent: { path: '/x/a.txt', total_lines: 3 } },
  structuredEmpty: { content: [], structuredContent: { path: '/x/a.txt', total_lines: 3 } },
  jsonText: { content: [text('{"looks":"like json"}')] },
  unknownBlock: { content: [text('known'), { type: 'weird', foo: 1 }] },
  emptyContent: { content: [] },
};
const want = !process.argv[2] || process.argv[2] === 'all' ? Object.keys(cases) : process.argv[2].split(',');
const model = process.argv[3] && process.argv[3] !== '-' ? process.argv[3] : undefined;
const dir = mkdtempSync(path.join(tmpdir(), 'gemini-measure-'));
try {
  for (const name of want) {
    const f = path.join(dir, `${name}.json`);
    writeFileSync(f, JSON.stringify(cases[name]));
    try {
      const r = await runHost({ mcpRead: FAKE, root: dir, toolArgs: { file_path: f }, model, route: process.env.ROUTE || 'flash', timeoutMs: 90000 });
      const sent = cases[name].content.filter((b) => b.type === 'image' || b.type === 'audio' || b.resource?.blob).map((b) => b.data || b.resource.blob);
      const got = r.received.filter((x) => x.data).map((x) => x.data);
      console.log(`== ${name}  model=${r.model} isError=${r.isError} ${r.elapsedMs} ms; binary parts sent ${sent.length}, received ${got.length}, byte-identical ${sent.filter((d) => got.includes(d)).length}`);
      for (const x of r.received) {
        console.log('   ', x.type === 'text' ? `text(${x.text.length}) ${JSON.stringify(x.text.slice(0, 140))}${x.text.length > 140 ? ' … ' + JSON.stringify(x.text.slice(-80)) : ''}`
          : x.type === 'other' ? `other ${JSON.stringify(x.value).slice(0, 200)}` : `${x.type} ${x.mimeType} ${x.bytes} B`);
      }
      for (const n of r.notes.filter((n) => !/^main model/.test(n))) console.log('    note:', n.slice(0, 300));
    } catch (e) {
      console.log(`== ${name}  ERROR ${e.message.slice(0, 600)}`);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
