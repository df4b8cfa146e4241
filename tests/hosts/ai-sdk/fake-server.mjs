#!/usr/bin/env node
// A tiny MCP server (stdio, newline-delimited JSON-RPC) with one tool `read` whose answer is canned:
// `file_path` selects the case (see CASES). Speaks both eras: server/discover (2026-07-28,
// stateless) and initialize (older). Used by measure.mjs to see how the AI SDK passes each kind of
// content block to each model API; not part of the suite's assertions.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { lineSplitter } from '../common/relay.mjs';
import { gradientPng, rgbPng } from '../common/png.mjs';

// A valid PNG of w×h: the gradient, or LCG noise (incompressible).
export function makePng(w, h, noise = false) {
  if (!noise) return gradientPng(w, h);
  let seed = 12345;
  const next = () => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed >>> 24; };
  return rgbPng(w, h, () => [next(), next(), next()]);
}
function wav(samples = 800) {
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) data.writeInt16LE(Math.round(8000 * Math.sin(i / 5)), i * 2);
  const h = Buffer.alloc(44);
  h.write('RIFF', 0); h.writeUInt32LE(36 + data.length, 4); h.write('WAVE', 8); h.write('fmt ', 12);
  h.writeUInt32LE(16, 16); h.writeUInt16LE(1, 20); h.writeUInt16LE(1, 22); h.writeUInt32LE(8000, 24);
  h.writeUInt32LE(16000, 28); h.writeUInt16LE(2, 32); h.writeUInt16LE(16, 34); h.write('data', 36); h.writeUInt32LE(data.length, 40);
  return Buffer.concat([h, data]);
}
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');
const b64 = (b) => Buffer.from(b).toString('base64');
const longText = (n) => { let s = ''; let i = 1; while (s.length < n) s += `${String(i++).padStart(6)}\tline of filler text for the size test, abcdefghijklmnopqrstuvwxyz\n`; return s.slice(0, n - 4) + 'END\n'; };

const png = makePng(64, 48);
const CASES = {
  text: () => ({ content: [{ type: 'text', text: 'hello from fake server' }] }),
  image: () => ({ content: [{ type: 'text', text: 'before image' }, { type: 'image', data: b64(png), mimeType: 'image/png' }, { type: 'text', text: 'after image' }] }),
  'two-images': () => ({ content: [{ type: 'text', text: 'page 1' }, { type: 'image', data: b64(png), mimeType: 'image/png' }, { type: 'text', text: 'page 2' }, { type: 'image', data: b64(makePng(32, 32)), mimeType: 'image/png' }] }),
  'resource-blob': () => ({ content: [{ type: 'text', text: 'pdf follows' }, { type: 'resource', resource: { uri: 'file:///x/doc.pdf', mimeType: 'application/pdf', blob: b64(PDF) } }] }),
  'resource-text': () => ({ content: [{ type: 'resource', resource: { uri: 'file:///x/a.txt', mimeType: 'text/plain', text: 'resource text body' } }] }),
  'resource-link': () => ({ content: [{ type: 'resource_link', uri: 'file:///x/a.txt', name: 'a.txt', mimeType: 'text/plain' }] }),
  audio: () => ({ content: [{ type: 'text', text: 'audio follows' }, { type: 'audio', data: b64(wav()), mimeType: 'audio/wav' }] }),
  'image-wav-mime': () => ({ content: [{ type: 'text', text: 'wav as image block' }, { type: 'image', data: b64(wav()), mimeType: 'audio/wav' }] }),
  'image-pdf-mime': () => ({ content: [{ type: 'image', data: b64(PDF), mimeType: 'application/pdf' }] }),
  error: () => ({ content: [{ type: 'text', text: 'Error: file not found: /nope' }], isError: true }),
  structured: () => ({ content: [{ type: 'text', text: 'the file text' }], structuredContent: { path: '/x/a.txt', lines: 3 } }),
  'structured-only': () => ({ structuredContent: { path: '/x/a.txt', lines: 3 } }),
  annotations: () => ({ content: [{ type: 'text', text: 'annotated', annotations: { audience: ['assistant'], priority: 1 }, _meta: { k: 'v' } }] }),
  meta: () => ({ content: [{ type: 'text', text: 'with meta' }], _meta: { 'mcp-read/info': { lines: 3 } } }),
  empty: () => ({ content: [] }),
  big: (a) => ({ content: [{ type: 'text', text: longText(a.size || 150 * 1024) }] }),
  'big-image': (a) => ({ content: [{ type: 'image', data: b64(makePng(a.w || 1200, a.h || 900, true)), mimeType: 'image/png' }] }),
  file: (a) => ({ content: [{ type: 'text', text: readFileSync(a.path, 'utf8') }] }),
};

const LEGACY = process.argv.includes('--legacy');
const SERVER_INFO = { name: 'fake-read', version: '0.0.1' };
const TOOL = {
  name: 'read', description: 'Read a file (fake).',
  inputSchema: { type: 'object', properties: { file_path: { type: 'string' }, size: { type: 'number' }, w: { type: 'number' }, h: { type: 'number' } }, required: ['file_path'] },
};

function send(m) { process.stdout.write(JSON.stringify(m) + '\n'); }
function handle(m) {
  if (m.id === undefined) return; // notification
  const ok = (result) => send({ jsonrpc: '2.0', id: m.id, result });
  switch (m.method) {
    case 'server/discover':
      if (LEGACY) return send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found: server/discover' } });
      return ok({ supportedVersions: ['2026-07-28', '2025-11-25'], capabilities: { tools: {} }, _meta: { 'io.modelcontextprotocol/serverInfo': SERVER_INFO }, resultType: 'complete' });
    case 'initialize':
      return ok({ protocolVersion: m.params?.protocolVersion ?? '2025-11-25', capabilities: { tools: {} }, serverInfo: SERVER_INFO });
    case 'ping': return ok({});
    case 'tools/list': return ok({ tools: [TOOL], resultType: 'complete' });
    case 'tools/call': {
      const a = m.params?.arguments || {};
      const name = String(a.file_path || 'text').replace(/^.*\//, '');
      if (name === 'hang') return; // never answer: exercises the driver's timeout
      const f = CASES[name];
      if (!f) return ok({ content: [{ type: 'text', text: `unknown case ${name}` }], isError: true });
      return ok({ ...f(a), resultType: 'complete' });
    }
    default:
      return send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: `Method not found: ${m.method}` } });
  }
}
function serve() {
  process.stdin.on('data', lineSplitter((line) => {
    try { handle(JSON.parse(line)); } catch (e) { process.stderr.write(`fake-server: ${e}\n`); }
  }));
  process.stdin.on('end', () => process.exit(0));
}
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) serve();
