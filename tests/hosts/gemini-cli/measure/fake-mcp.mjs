#!/usr/bin/env node
// Tiny fake MCP server: tool `read`; tools/call returns the CallToolResult stored (as JSON) in
// the file named by arguments.file_path.
import { readFileSync } from 'node:fs';
let buf = '';
const send = (m) => process.stdout.write(JSON.stringify(m) + '\n');
process.stdin.on('data', (d) => {
  buf += d;
  let i;
  while ((i = buf.indexOf('\n')) >= 0) {
    const line = buf.slice(0, i); buf = buf.slice(i + 1);
    if (!line.trim()) continue;
    const m = JSON.parse(line);
    if (m.id === undefined) continue;
    if (m.method === 'initialize') send({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'fake', version: '0' } } });
    else if (m.method === 'tools/list') send({ jsonrpc: '2.0', id: m.id, result: { tools: [{ name: 'read', description: 'Read a file', inputSchema: { type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] }, ...(process.env.FAKE_OUTPUT_SCHEMA ? { outputSchema: { type: 'object' } } : {}) }] } });
    else if (m.method === 'tools/call') {
      try { send({ jsonrpc: '2.0', id: m.id, result: JSON.parse(readFileSync(m.params.arguments.file_path, 'utf8')) }); }
      catch (e) { send({ jsonrpc: '2.0', id: m.id, error: { code: -32603, message: String(e) } }); }
    } else if (m.method === 'ping') send({ jsonrpc: '2.0', id: m.id, result: {} });
    else send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } });
  }
});
