#!/usr/bin/env node
// Measures how Claude Code passes MCP tool results to the model, by feeding it canned results
// from fake-server.mjs (which borrows mcp-read for the handshake):
//   node tests/hosts/claude-code/measure.mjs /path/to/mcp-read [FILTER]
// Run it inside `unshare -n` like the suite. FILTER (a substring) picks cases by label.
// Prints one block per case: what the model received (types, sizes, text heads) and isError.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runHost } from './driver.mjs';
import { makePng, padPng, imageDims } from '../common/png.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const mcpRead = path.resolve(process.argv[2] || path.join(here, '../../../build/mcp-read'));
const filter = process.argv[3] || '';

const text = (n, ch = 'x') => ({ type: 'text', text: ch.repeat(n) });
const image = (buf) => ({ type: 'image', mimeType: 'image/png', data: buf.toString('base64') });
const small = makePng(64, 48);
const meta = (n) => ({ 'anthropic/maxResultSizeChars': n });
const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n' + ' '.repeat(1200));

const cases = [
  // text size limits (default maxResultSizeChars 50,000; MAX_MCP_OUTPUT_TOKENS 25,000)
  ['text 50000 chars', { content: [text(50000)] }],
  ['text 50001 chars', { content: [text(50001)] }],
  ['two texts 30000+30000', { content: [text(30000), text(30000)] }],
  ['CJK text 40000 chars', { content: [text(40000, '中')] }],
  ['CJK text 60000 chars', { content: [text(60000, '中')] }],
  ['text 110000 chars', { content: [text(110000)] }],
  ['text 200000, tool _meta maxResultSizeChars 200000', { content: [text(200000)] }, { toolMeta: meta(200000) }],
  ['text 200001, tool _meta maxResultSizeChars 200000', { content: [text(200001)] }, { toolMeta: meta(200000) }],
  ['text 500000, tool _meta maxResultSizeChars 1000000', { content: [text(500000)] }, { toolMeta: meta(1000000) }],
  ['text 500001, tool _meta maxResultSizeChars 1000000', { content: [text(500001)] }, { toolMeta: meta(1000000) }],
  ['text 30000, tool _meta maxResultSizeChars 20000', { content: [text(30000)] }, { toolMeta: meta(20000) }],
  ['text 30000, MAX_MCP_OUTPUT_TOKENS=5000', { content: [text(30000)] }, { env: { MAX_MCP_OUTPUT_TOKENS: '5000' } }],
  // images
  ['png 64x48', { content: [text(6, 'a'), image(small), text(5, 'z')] }],
  ['png padded to 512000 B', { content: [image(padPng(small, 512000))] }],
  ['png padded to 512001 B', { content: [image(padPng(small, 512001))] }],
  ['png 2000x100', { content: [image(makePng(2000, 100))] }],
  ['png 2001x100', { content: [image(makePng(2001, 100))] }],
  ['png 1932x1932', { content: [image(makePng(1932, 1932))] }],
  ['png 1933x1933', { content: [image(makePng(1933, 1933))] }],
  ['png 2000x1848', { content: [image(makePng(2000, 1848))] }],
  ['png 2000x1849', { content: [image(makePng(2000, 1849))] }],
  ['image + text 60000', { content: [text(60000), image(small)] }],
  ['image + text 120000', { content: [text(120000), image(small)] }],
  ['image + text 120000, tool _meta maxResultSizeChars 200000', { content: [text(120000), image(small)] }, { toolMeta: meta(200000) }],
  ['20 x (text + image 64x48), mock counts 1600 tokens per image', { content: Array.from({ length: 20 }, (_, i) => [{ type: 'text', text: `page ${i + 1}` }, image(small)]).flat() }, { countTokens: (b) => 1600 * 20 }],
  // other block types
  ['resource blob application/pdf', { content: [{ type: 'text', text: 'page text' }, { type: 'resource', resource: { uri: 'file:///r/a.pdf', mimeType: 'application/pdf', blob: pdf.toString('base64') } }] }],
  ['resource blob image/png', { content: [{ type: 'resource', resource: { uri: 'file:///r/a.png', mimeType: 'image/png', blob: small.toString('base64') } }] }],
  ['resource text', { content: [{ type: 'resource', resource: { uri: 'file:///r/a.txt', mimeType: 'text/plain', text: 'resource body' } }] }],
  ['resource_link', { content: [{ type: 'resource_link', uri: 'file:///r/a.txt', name: 'a.txt', mimeType: 'text/plain' }] }],
  ['audio wav', { content: [{ type: 'text', text: 'audio follows' }, { type: 'audio', mimeType: 'audio/wav', data: Buffer.alloc(2000, 1).toString('base64') }] }],
  ['structuredContent + text', { content: [{ type: 'text', text: '     1\tone' }], structuredContent: { path: '/x', lines: 1 } }],
  ['structuredContent + text + image', { content: [{ type: 'text', text: 'hello' }, image(small)], structuredContent: { path: '/x' } }],
  ['empty content', { content: [] }],
  ['isError two texts', { content: [{ type: 'text', text: 'first' }, { type: 'text', text: 'second' }], isError: true }],
  ['isError text + image', { content: [{ type: 'text', text: 'bad' }, image(small)], isError: true }],
  ['isError text 11001', { content: [text(11001, 'e')], isError: true }],
  ['isError text 11100', { content: [text(11100, 'e')], isError: true }],
  ['tool description 4097 chars', { content: [{ type: 'text', text: 'ok' }] }, { toolDescription: 'd'.repeat(4097) }],
];

function show(part) {
  if (part.type === 'text') {
    const t = part.text;
    return `text(${t.length}) ${JSON.stringify(t.length > 220 ? t.slice(0, 140) + ' … ' + t.slice(-60) : t)}`;
  }
  if (part.type === 'image') {
    const d = imageDims(Buffer.from(part.data, 'base64'));
    return `image ${part.mimeType} ${part.bytes} B ${d ? d.join('x') : ''}`;
  }
  if (part.type === 'other') return `other ${JSON.stringify(part.value).slice(0, 200)}`;
  return `${part.type} ${part.mimeType} ${part.bytes} B`;
}

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'host-claude-code-measure-'));
const root = path.join(scratch, 'root');
fs.mkdirSync(root);
fs.writeFileSync(path.join(root, 'a.txt'), 'a\n');
try {
  for (const [label, result, opts = {}] of cases) {
    if (filter && !label.includes(filter)) continue;
    const dir = fs.mkdtempSync(path.join(scratch, 'case-'));
    const spec = path.join(dir, 'spec.json');
    fs.writeFileSync(spec, JSON.stringify({ result, toolMeta: opts.toolMeta, toolDescription: opts.toolDescription }));
    const wrapper = path.join(dir, 'server.sh');
    fs.writeFileSync(wrapper, `#!/bin/sh\nexec '${process.execPath}' '${path.join(here, 'fake-server.mjs')}' '${spec}' '${mcpRead}' "$@"\n`, { mode: 0o755 });
    try {
      const r = await runHost({
        mcpRead: wrapper, root, toolArgs: { file_path: path.join(root, 'a.txt') },
        env: { ENABLE_TOOL_SEARCH: 'false', ...(opts.env || {}) }, countTokens: opts.countTokens,
      });
      const counts = r.modelRequests.filter((q) => q.url.includes('count_tokens')).length;
      console.log(`\n=== ${label}: isError=${r.isError}${counts ? `, count_tokens x${counts}` : ''}`);
      for (const p of r.received) console.log(`  - ${show(p)}`);
      if (opts.toolDescription) {
        const t = r.raw.tools.find((x) => x.name === r.toolName);
        console.log(`  tool description as the model sees it: ${t.description.length} chars, ends ${JSON.stringify(t.description.slice(-20))}`);
      }
    } catch (e) {
      console.log(`\n=== ${label}: FAILED ${e.message}`);
    }
  }
} finally {
  fs.rmSync(scratch, { recursive: true, force: true });
}
