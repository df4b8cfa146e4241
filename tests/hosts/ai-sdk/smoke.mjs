#!/usr/bin/env node
// Smoke test of the AI SDK host harness (not of mcp-read's answer shapes).
// usage: node tests/hosts/ai-sdk/smoke.mjs /path/to/mcp-read [provider,...]
// Makes a temp root with a 3-line text file and a 64×48 PNG, runs the driver for each file plus a
// missing file, through each provider (default: all four), prints what the model received, and
// exits 0 when every round trip completed and the model got something each time.
import { mkdtemp, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runHost, PROVIDERS, hostVersions } from './driver.mjs';
import { makePng } from './fake-server.mjs';

const mcpRead = path.resolve(process.argv[2] || 'build/mcp-read');
const providers = (process.argv[3] || PROVIDERS.join(',')).split(',');
const root = await mkdtemp(path.join(tmpdir(), 'ai-sdk-smoke-'));
await writeFile(path.join(root, 'three.txt'), 'alpha\nbeta\ngamma\n');
await writeFile(path.join(root, 'pic.png'), makePng(64, 48));

const files = ['three.txt', 'pic.png', 'missing.txt'];
let failures = 0;
console.log(`ai-sdk host: ${JSON.stringify(hostVersions())}`);
try {
  for (const provider of providers) {
    for (const f of files) {
      const label = `${provider} ${f}`;
      try {
        const r = await runHost({ mcpRead, root, toolArgs: { file_path: path.join(root, f) }, provider, timeoutMs: 60000 });
        const parts = r.received.map((x) => (x.type === 'text'
          ? `text(${x.text.length}): ${JSON.stringify(x.text.slice(0, 70))}`
          : x.type === 'other' ? `other: ${JSON.stringify(x.value).slice(0, 70)}` : `${x.type} ${x.mimeType} ${x.bytes} B`));
        console.log(`${label}: ${r.elapsedMs} ms, tool "${r.toolName}", client ${r.clientInfo.name}/${r.clientInfo.version} @${r.clientInfo.protocolVersion}, isError=${r.isError}`);
        for (const p of parts) console.log(`    ${p}`);
        for (const n of r.notes) console.log(`    note: ${n.slice(0, 200)}`);
        if (!r.received.length || !r.serverCalled) { failures++; console.log('    FAIL: the model got nothing, or mcp-read was never called'); }
      } catch (e) {
        failures++;
        console.log(`${label}: FAIL ${e.message}`);
      }
    }
  }
} finally {
  await rm(root, { recursive: true, force: true });
}
const total = providers.length * files.length;
console.log(`${total - failures} passed, ${failures} failed`);
process.exit(failures ? 1 : 0);
