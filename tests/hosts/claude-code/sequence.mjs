#!/usr/bin/env node
// Claude Code's own connection sequence with mcp-read, end to end (real Claude Code, loopback mock
// of its model API, no network):
//
//   node tests/hosts/claude-code/sequence.mjs /path/to/mcp-read
//
// Claude Code opens with `server/discover` on 2026-07-28 and sends every later request statelessly
// (`_meta` with the protocol version, its clientInfo and capabilities; no initialize). With
// `--stateless-roots ask`, mcp-read answers a read with `input_required` asking for `roots/list`;
// Claude Code answers with its working directory as its root (echoing `requestState` when one was
// given), and the read is confined to that root as well as to the server's own.
// Prints `ok - …` / `not ok - …` per check and ends with `claude-code sequence: N passed, M failed`;
// exit status 0 when every check passed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { runHost } from './driver.mjs';

const VERSION = '2026-07-28';
const META_VERSION = 'io.modelcontextprotocol/protocolVersion';

let passed = 0;
let failed = 0;
function expect(ok, what, detail = '') {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? 'ok' : 'not ok'} - ${what}${!ok && detail ? `: ${detail}` : ''}`);
}
const brief = (v) => JSON.stringify(v)?.slice(0, 300);

// mcp-read behind a wrapper that adds options (the driver's shim runs `COMMAND ROOT`).
function wrapper(dir, binary, args) {
  const file = path.join(dir, `mcp-read-${args.join('-').replace(/[^a-z0-9-]/gi, '') || 'plain'}`);
  const q = (s) => `'${String(s).replace(/'/g, `'\\''`)}'`;
  fs.writeFileSync(file, `#!/bin/sh\nexec ${[binary, ...args].map(q).join(' ')} "$@"\n`);
  fs.chmodSync(file, 0o755);
  return file;
}

// The JSON-RPC traffic of one run: requests Claude Code sent and mcp-read's answers, by id.
function traffic(log) {
  const sent = log.filter((e) => e.dir === 'c2s').flatMap((e) => [e.msg].flat()).filter((m) => m && m.method);
  const answers = new Map();
  for (const e of log) if (e.dir === 's2c') for (const m of [e.msg].flat()) if (m && m.id !== undefined && !m.method) answers.set(JSON.stringify(m.id), m);
  const answerTo = (req) => answers.get(JSON.stringify(req.id));
  return { sent, answerTo };
}

async function main() {
  const binary = path.resolve(process.argv[2] || path.join(import.meta.dirname, '..', '..', '..', 'build', 'mcp-read'));
  if (!fs.existsSync(binary)) {
    expect(false, `mcp-read binary exists (${binary})`);
    return;
  }
  const top = fs.mkdtempSync(path.join(os.tmpdir(), 'host-claude-code-sequence-'));
  try {
    // The server may read all of `top`; Claude Code's root is only `top/project`.
    const root = path.join(top, 'root');
    const project = path.join(root, 'project');
    fs.mkdirSync(project, { recursive: true });
    fs.writeFileSync(path.join(project, 'notes.txt'), 'first line of the notes\nsecond line\n');
    fs.writeFileSync(path.join(root, 'elsewhere.txt'), 'outside the project\n');
    const ask = wrapper(top, binary, ['--stateless-roots', 'ask']);

    // 1. A read inside Claude Code's root, through the roots round.
    const inside = await runHost({ mcpRead: ask, root, cwd: project, toolArgs: { file_path: path.join(project, 'notes.txt') }, timeoutMs: 90000 });
    const { sent, answerTo } = traffic(inside.mcpLog || []);
    expect(sent.length > 0 && sent[0].method === 'server/discover' && sent[0].params?._meta?.[META_VERSION] === VERSION,
      'Claude Code opens with server/discover on 2026-07-28', brief(sent[0]));
    expect(!sent.some((m) => m.method === 'initialize'), 'no initialize is sent (stateless era)', sent.map((m) => m.method).join(', '));
    const discover = sent[0] && answerTo(sent[0]);
    expect(discover?.result?.capabilities?.tools !== undefined && discover.result._meta?.['io.modelcontextprotocol/serverInfo']?.name === 'mcp-read',
      'server/discover is answered with the tools capability and serverInfo', brief(discover));
    const requests = sent.filter((m) => m.id !== undefined);
    expect(requests.every((m) => m.params?._meta?.[META_VERSION] === VERSION),
      'every request carries the protocol version in _meta', brief(requests.find((m) => m.params?._meta?.[META_VERSION] !== VERSION)));
    const unanswered = requests.filter((m) => !answerTo(m));
    expect(unanswered.length === 0, 'every request is answered', unanswered.map((m) => m.method).join(', '));
    const badType = requests.map(answerTo).filter((a) => a && a.result && !['complete', 'input_required'].includes(a.result.resultType));
    expect(badType.length === 0, 'every result carries resultType', brief(badType[0]));
    const list = requests.find((m) => m.method === 'tools/list');
    const tools = list && answerTo(list)?.result;
    expect(tools?.tools?.some((t) => t.name === 'read') && Number.isInteger(tools.ttlMs) && typeof tools.cacheScope === 'string',
      'tools/list lists read with caching hints', brief(tools && { names: tools.tools?.map((t) => t.name), ttlMs: tools.ttlMs, cacheScope: tools.cacheScope }));

    const calls = requests.filter((m) => m.method === 'tools/call');
    const first = calls[0] && answerTo(calls[0])?.result;
    const asked = first && first.resultType === 'input_required' &&
      Object.values(first.inputRequests || {}).some((r) => r.method === 'roots/list');
    expect(asked, 'the first tools/call is answered input_required with a roots/list request', brief(first));
    const retry = calls[1];
    const key = asked && Object.keys(first.inputRequests).find((k) => first.inputRequests[k].method === 'roots/list');
    const roots = retry?.params?.inputResponses?.[key]?.roots;
    expect(Array.isArray(roots) && roots.some((r) => r.uri === pathToFileURL(project).href),
      'Claude Code retries with its working directory as its root', brief(retry?.params?.inputResponses));
    expect(retry && retry.params.name === calls[0].params.name && JSON.stringify(retry.params.arguments) === JSON.stringify(calls[0].params.arguments),
      'the retry is the same call', brief(retry?.params));
    if (first && typeof first.requestState === 'string')
      expect(retry?.params?.requestState === first.requestState, 'the retry echoes requestState unchanged', brief(retry?.params?.requestState));
    const final = retry && answerTo(retry)?.result;
    expect(final?.resultType === 'complete' && final.isError !== true, 'the retried call completes', brief(final));
    const text = (inside.received || []).filter((b) => b.type === 'text').map((b) => b.text).join('\n');
    expect(inside.isError !== true && /1\tfirst line of the notes/.test(text) && /2\tsecond line/.test(text),
      'the model receives the numbered lines', brief(inside.received));

    // 2. A file the server may read but Claude Code's root does not hold: refused, and says why.
    const outside = await runHost({ mcpRead: ask, root, cwd: project, toolArgs: { file_path: path.join(root, 'elsewhere.txt') }, timeoutMs: 90000 });
    const refusal = (outside.received || []).filter((b) => b.type === 'text').map((b) => b.text).join('\n');
    expect(outside.isError === true && refusal.includes(path.join(root, 'elsewhere.txt')) && !refusal.includes('outside the project'),
      'a file outside the client\'s root is refused with its path named, content not shown', brief(outside.received));

    // 3. Without --stateless-roots the server's roots alone decide: no input round.
    const plain = await runHost({ mcpRead: binary, root, cwd: project, toolArgs: { file_path: path.join(root, 'elsewhere.txt') }, timeoutMs: 90000 });
    const plainSent = traffic(plain.mcpLog || []);
    const plainResults = plainSent.sent.filter((m) => m.method === 'tools/call').map((m) => plainSent.answerTo(m)?.result);
    expect(plainResults.length === 1 && plainResults[0]?.resultType === 'complete' && plain.isError !== true &&
      (plain.received || []).some((b) => b.type === 'text' && b.text.includes('1\toutside the project')),
    'by default one tools/call answers at once, within the server\'s roots', brief(plainResults));
  } catch (e) {
    expect(false, 'the sequence runs', String(e.message || e).split('\n').slice(0, 3).join(' | '));
  } finally {
    fs.rmSync(top, { recursive: true, force: true });
  }
}

await main();
console.log(`claude-code sequence: ${passed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
