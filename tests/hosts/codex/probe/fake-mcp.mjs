#!/usr/bin/env node
// Tiny stdio MCP server with one tool, "read", answering every tools/call with a canned
// CallToolResult. usage: node fake-mcp.mjs SPEC.json
// SPEC: { result: CallToolResult, error?: JSON-RPC error object instead of a result, hang?: never answer tools/call, tool?: extra fields for the tool definition, instructions?: string,
//         protocolVersion?: string }
import { readFileSync } from 'node:fs';
import readline from 'node:readline';

const spec = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const send = (o) => process.stdout.write(JSON.stringify(o) + '\n');
const tool = {
  name: 'read',
  description: 'Read a file.',
  inputSchema: { type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] },
  annotations: { readOnlyHint: true },
  ...(spec.tool || {}),
};
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  if (!line.trim()) return;
  let m;
  try { m = JSON.parse(line); } catch { return; }
  if (m.method === 'initialize') {
    send({ jsonrpc: '2.0', id: m.id, result: {
      protocolVersion: spec.protocolVersion || m.params?.protocolVersion || '2025-06-18',
      capabilities: { tools: {} }, serverInfo: { name: 'fake-read', version: '0.0.1' },
      ...(spec.instructions ? { instructions: spec.instructions } : {}) } });
  } else if (m.method === 'tools/list') {
    send({ jsonrpc: '2.0', id: m.id, result: { tools: [tool] } });
  } else if (m.method === 'tools/call') {
    if (spec.hang) return; // never answer
    if (spec.error) send({ jsonrpc: '2.0', id: m.id, error: spec.error });
    else send({ jsonrpc: '2.0', id: m.id, result: spec.result });
  } else if (m.method === 'ping') {
    send({ jsonrpc: '2.0', id: m.id, result: {} });
  } else if (m.id !== undefined && m.method) {
    send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: `method not found: ${m.method}` } });
  }
});
