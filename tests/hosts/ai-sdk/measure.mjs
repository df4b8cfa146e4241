#!/usr/bin/env node
// Measure how the AI SDK hands each kind of MCP content block to each model API, using
// fake-server.mjs (canned CallToolResults) instead of mcp-read.
// usage (inside `unshare -n`): node measure.mjs [OUT.json] [case,case,...] [provider[:model],...]
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runHost } from './driver.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const out = process.argv[2] || null;
const cases = (process.argv[3] || 'text,image,two-images,resource-blob,resource-text,resource-link,audio,image-pdf-mime,image-wav-mime,error,structured,structured-only,annotations,meta,empty,big').split(',');
const targets = (process.argv[4] || 'anthropic,openai-responses,openai-chat,google,google:gemini-2.5-flash').split(',').map((t) => {
  const [provider, model] = t.split(':');
  return { provider, model };
});

function summary(item) {
  if (item.type === 'text') {
    const t = item.text;
    return { type: 'text', chars: t.length, text: t.length > 240 ? `${t.slice(0, 160)} … ${t.slice(-60)}` : t };
  }
  if (item.type === 'other') return { type: 'other', value: JSON.stringify(item.value).slice(0, 300) };
  return { type: item.type, mimeType: item.mimeType, bytes: item.bytes };
}

const results = [];
for (const { provider, model } of targets) {
  for (const c of cases) {
    const toolArgs = { file_path: `/fake/${c}` };
    try {
      const r = await runHost({ serverCommand: [process.execPath, path.join(HERE, 'fake-server.mjs')], root: '/', toolArgs, provider, model, timeoutMs: 60000 });
      const rec = { provider, model: r.model, case: c, isError: r.isError, received: r.received.map(summary), notes: r.notes, clientInfo: r.clientInfo, toolName: r.toolName, ms: r.elapsedMs };
      results.push(rec);
      console.log(`${provider}${model ? ':' + model : ''} ${c} isError=${r.isError} ${JSON.stringify(rec.received)}${r.notes.length ? '\n   notes: ' + r.notes.join(' | ') : ''}`);
    } catch (e) {
      results.push({ provider, model, case: c, error: e.message });
      console.log(`${provider} ${c} ERROR ${e.message.split('\n')[0]}`);
    }
  }
}
if (out) writeFileSync(out, JSON.stringify(results, null, 1));
