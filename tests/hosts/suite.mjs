#!/usr/bin/env node
// The host suite: for each host variant × case, what mcp-read sent to that host (direct.mjs,
// presenting the host's own clientInfo and protocol version) is compared with what the model
// received in the real host (tests/hosts/<host>/driver.mjs, against a loopback mock of the
// model API). Host-agnostic checks, see README.md beside this file.
//
//   node tests/hosts/suite.mjs MCPREAD            (run it inside `unshare -n`: see run.sh)
//
// Environment:
//   HOSTS_ONLY=a,b         variants to run: a variant name (claude-code, gemini-cli,
//                          gemini-cli/gemini-3-flash-preview, codex/gpt-5.5, ai-sdk/google, …) or a
//                          host name (all its variants)
//   HOSTS_CASES=a,b        cases to run (names as printed)
//   HOSTS_SHORT=1          every case on one variant per host, the short list (text-60k,
//                          png-4000x3000, pdf-3-pages, wav, missing) on the others (default:
//                          every case on every variant)
//   HOSTS_CONCURRENCY=N    host rounds at once (default 2)
//   HOSTS_ROUND_TIMEOUT_S  timeout of one host round (default 90)
//   HOSTS_FIXTURES=DIR     write the fixtures there (kept; reused when DIR/cases.json exists)
//   HOSTS_VERBOSE=1        print the drivers' notes under each row
//   HOSTS_NOT_INSTALLED=a,b hosts whose install failed (set by run.sh): one failed row each
//   HOSTS_SERVER_ARGS="…"  extra mcp-read options for every round, host and direct alike (e.g.
//                          "--host-profile generic": answers shaped for no host in particular)
// Prints `ok - VARIANT CASE …` / `not ok - VARIANT CASE: reasons` per round, the time spent per
// host, and ends with `hosts: N passed, M failed`. Exit status 0 when nothing failed.
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { blockDigest, callRead } from './direct.mjs';
import { writeFixtures } from './fixtures.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));

// ------------------------------------------------------------------------------ variants
// `full`: this variant gets every case even with HOSTS_SHORT=1. `limits`: content kinds this host variant
// cannot deliver whatever the server does (the server cannot tell this variant from the host's
// others: same clientInfo), checked as a known limitation (`# skip`) instead of failed.
const VARIANTS = [
  { name: 'claude-code', host: 'claude-code', opts: {}, full: true },
  { name: 'gemini-cli', host: 'gemini-cli', opts: {}, full: true },
  {
    name: 'gemini-cli/gemini-3-flash-preview', host: 'gemini-cli', opts: { model: 'gemini-3-flash-preview' },
    limits: { image: 'Gemini CLI drops images for gemini-3-* models', resource: 'Gemini CLI drops embedded binary resources for gemini-3-* models' },
  },
  { name: 'codex/gpt-5.5', host: 'codex', opts: { model: 'gpt-5.5' }, full: true },
  { name: 'codex/gpt-6.1-sol', host: 'codex', opts: { model: 'gpt-6.1-sol' } },
  { name: 'codex/unknown-model', host: 'codex', opts: { model: 'mcp-read-test-model' }, optional: true },
  { name: 'ai-sdk/anthropic', host: 'ai-sdk', opts: { provider: 'anthropic' }, full: true },
  { name: 'ai-sdk/openai-responses', host: 'ai-sdk', opts: { provider: 'openai-responses' } },
  {
    name: 'ai-sdk/openai-chat', host: 'ai-sdk', opts: { provider: 'openai-chat' },
    limits: { image: 'the AI SDK sends images to OpenAI Chat Completions as JSON text', imageAsText: true },
  },
  { name: 'ai-sdk/google', host: 'ai-sdk', opts: { provider: 'google' } },
];
// What each host announced when the drivers were written; used only when a driver cannot tell.
const DEFAULT_CLIENTS = {
  'claude-code': { clientInfo: { name: 'claude-code', version: '2.1.332' }, protocolVersion: '2026-07-28' },
  'gemini-cli': { clientInfo: { name: 'gemini-cli-mcp-client', version: '0.61.0' }, protocolVersion: '2025-06-18', capabilities: { roots: { listChanged: true } } },
  codex: { clientInfo: { name: 'codex-mcp-client', title: 'Codex', version: '0.171.0' }, protocolVersion: '2025-06-18' },
  'ai-sdk': { clientInfo: { name: 'ai-sdk-mcp-client', version: '1.0.0' }, protocolVersion: '2026-07-28' },
};

// Host-side cutting, previewing, saving or dropping, as the drivers' READMEs document them. A
// marker counts when the received text holds it more often than the text mcp-read sent.
const MARKERS = [
  // Claude Code
  { re: /<persisted-output>/g, what: 'Claude Code persisted the output (<persisted-output>)' },
  { re: /Output too large \(/g, what: 'Claude Code: "Output too large (…)"' },
  { re: /\bsaved to\b/gi, what: 'content "saved to" a file by the host' },
  { re: /\[Image left out|\bimages? left out\b/g, what: 'image left out by the host' },
  { re: /OUTPUT TRUNCATED/g, what: 'OUTPUT TRUNCATED' },
  { re: /exceeds maximum allowed tokens/g, what: 'result over the host token limit' },
  { re: /\[[\d,]+ characters truncated\]/g, what: 'error text cut ([N characters truncated])' },
  { re: /original \d+x\d+, displayed at \d+x\d+/g, what: 'image downscaled by the host (displayed at)' },
  { re: /\[(Resource|Audio) from [^\]]*\]/g, what: 'binary block replaced by a placeholder' },
  { re: /completed with no output/g, what: 'empty result' },
  // Gemini CLI
  { re: /Output too large\. Showing first/g, what: 'Gemini CLI cut the output' },
  { re: /stripped from response/g, what: 'binary content stripped from the response' },
  { re: /\[[\d,]+ characters omitted\]/g, what: 'text omitted ([N characters omitted])' },
  // Codex
  { re: /…\d[\d,]* (tokens|chars|characters|bytes) truncated…/g, what: 'Codex cut the text (…N tokens truncated…)' },
  { re: /\[omitted \d+ text items/g, what: 'Codex omitted text items' },
  { re: /content omitted because/g, what: 'content omitted by the host' },
  { re: /Warning: truncated output/g, what: 'Codex truncated the output' },
  { re: /Code Mode session output limit reached/g, what: 'Codex code mode output limit' },
];
const BASE64_RUN = /[A-Za-z0-9+/=]{200,}/g;

// ------------------------------------------------------------------------------ helpers
const sha = (b64) => createHash('sha256').update(Buffer.from(b64 || '', 'base64')).digest('hex');
const b64bytes = (b64) => Buffer.from(b64 || '', 'base64').length;
const kb = (n) => (n < 1024 ? `${n} B` : n < 1048576 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1048576).toFixed(2)} MiB`);
const jsonEscaped = (s) => JSON.stringify(s).slice(1, -1);
const countOf = (re, s) => (s.match(new RegExp(re.source, re.flags)) || []).length;
const withTimeout = (p, ms, what) => {
  let t;
  return Promise.race([p, new Promise((_, rej) => { t = setTimeout(() => rej(new Error(`${what} did not finish within ${ms} ms`)), ms); })]).finally(() => clearTimeout(t));
};

// Longest prefix of `needle` found in `hay` (binary search on the length).
function longestPrefix(hay, needle) {
  let lo = 0, hi = needle.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (hay.includes(needle.slice(0, mid))) lo = mid; else hi = mid - 1;
  }
  return lo;
}
function describeBlock(b) {
  if (b.type === 'text') return `text(${b.text.length})`;
  if (b.type === 'resource') return `resource(${b.resource?.mimeType || '?'}${b.resource?.blob ? `, blob ${kb(b64bytes(b.resource.blob))}` : `, text ${b.resource?.text?.length ?? 0}`})`;
  if (b.type === 'image' || b.type === 'audio') return `${b.type}(${b.mimeType}, ${kb(b64bytes(b.data))})`;
  return b.type;
}
function describeReceived(p) {
  if (p.type === 'text') return `text(${p.text.length})`;
  if (p.type === 'other') return `other(${JSON.stringify(p.value).slice(0, 60)})`;
  return `${p.type}(${p.mimeType}, ${kb(p.bytes ?? b64bytes(p.data))})`;
}

// ------------------------------------------------------------------------------ checks
// sent: { result } or { error } from direct.mjs; run: the driver's answer.
export function check(variant, testCase, sent, run, hostGot = null) {
  const fails = [];
  const skips = []; // known host limitations: the check is skipped
  const infos = []; // worth knowing, not a failure
  // 0. the host got from mcp-read what direct.mjs got (else the suite's mirror of the host is off)
  if (hostGot) {
    const got = hostGot[hostGot.length - 1];
    if (!got) fails.push('mcp-read never answered a tools/call from the host');
    else if (hostGot.length > 1) infos.push(`the host called the tool ${hostGot.length} times; the last answer is compared`);
    if (got) {
      const mine = sent.error ? { error: sent.error } : { isError: sent.result?.isError === true, blocks: (sent.result?.content || []).map(blockDigest) };
      const same = got.error || mine.error
        ? !!got.error && !!mine.error && got.error.code === mine.error.code
        : got.isError === mine.isError && got.blocks.length === mine.blocks.length && got.blocks.every((b, i) => b.sha256 === mine.blocks[i].sha256);
      if (!same) {
        const show = (r) => (r.error ? `error ${r.error.code}` : `[${r.blocks.map((b) => b.type).join(' ')}]${r.isError ? ' isError' : ''}`);
        fails.push(`the host got another answer from mcp-read (${show(got)}) than direct.mjs did (${show(mine)}): the suite does not present itself as this host does, or the answer is not deterministic`);
      }
    }
  }
  const limits = variant.limits || {};
  const received = run.received || [];
  const texts = received.filter((p) => p.type === 'text').map((p) => p.text);
  const recvText = texts.join('\n');
  const binaries = received.filter((p) => p.type === 'image' || p.type === 'document' || p.type === 'audio')
    .map((p) => ({ ...p, hash: sha(p.data) }));

  if (run.serverCalled === false) fails.push('mcp-read never got the tools/call (the host answered by itself)');
  if (!received.length) fails.push('the model received nothing for the tool call');

  if (sent.error) {
    // A JSON-RPC error: the model must still learn it (the host turns it into some text).
    const msg = String(sent.error.message || '');
    if (!(recvText.includes(msg) || recvText.includes(jsonEscaped(msg)))) fails.push(`mcp-read answered JSON-RPC error ${sent.error.code} "${msg}", which the model never sees`);
    return { fails, skips, infos };
  }
  const result = sent.result || {};
  const content = Array.isArray(result.content) ? result.content : [];
  const sentText = content.filter((b) => b.type === 'text').map((b) => b.text).join('\n')
    + content.filter((b) => b.type === 'resource' && typeof b.resource?.text === 'string').map((b) => '\n' + b.resource.text).join('');

  // 1. every text block, verbatim (block boundaries may be joined differently: trimmed)
  let escapedOnly = false;
  content.forEach((b, i) => {
    const t = b.type === 'text' ? b.text : b.type === 'resource' && typeof b.resource?.text === 'string' ? b.resource.text : null;
    if (t == null) return;
    const want = t.trim();
    if (!want) return;
    if (recvText.includes(want)) return;
    if (recvText.includes(jsonEscaped(want))) { escapedOnly = true; return; }
    const n = Math.max(longestPrefix(recvText, want), longestPrefix(recvText, jsonEscaped(want)));
    fails.push(`text block #${i + 1} (${want.length} chars) did not arrive whole: ` +
      (n ? `its first ${n} chars arrive, then it differs (${JSON.stringify(want.slice(n, n + 40))}…)` : `not even its start arrives (${JSON.stringify(want.slice(0, 60))}…)`));
  });
  if (escapedOnly) infos.push('text arrives JSON-escaped inside a JSON string');

  // 2. images: same bytes, same relative order; 3. resource blobs and audio: same bytes
  const sentImages = [];
  content.forEach((b, i) => { if (b.type === 'image') sentImages.push({ i, b, hash: sha(b.data) }); });
  const recvImages = binaries.filter((p) => p.type === 'image');
  const allowedBase64 = [];
  if (sentImages.length && limits.image) {
    const lost = sentImages.filter((s) => !recvImages.some((r) => r.hash === s.hash)).length;
    skips.push(`image check: ${limits.image} (${lost} of ${sentImages.length} image(s) not received as images)`);
    if (limits.imageAsText) for (const s of sentImages) allowedBase64.push(s.b.data);
  } else {
    let last = -1;
    for (const s of sentImages) {
      let at = recvImages.findIndex((r, k) => k > last && r.hash === s.hash); // the same image may be sent twice
      if (at < 0) at = recvImages.findIndex((r) => r.hash === s.hash);
      const bytes = b64bytes(s.b.data);
      if (at < 0) {
        const other = binaries.find((r) => r.hash === s.hash);
        if (other) { fails.push(`image block #${s.i + 1} (${s.b.mimeType}, ${kb(bytes)}) arrived as a ${other.type} part, not an image`); continue; }
        const fuzzy = recvImages.length ? ` (received images: ${recvImages.map((r) => `${r.mimeType} ${kb(r.bytes ?? b64bytes(r.data))}`).join(', ')}: re-encoded or resized by the host?)` : '';
        const asText = recvText.includes(s.b.data.slice(0, 200)) ? ' — its base64 arrived as text' : '';
        fails.push(`image block #${s.i + 1} (${s.b.mimeType}, ${kb(bytes)}) did not arrive byte-identical${fuzzy}${asText}`);
        continue;
      }
      if (at < last) fails.push(`image block #${s.i + 1} arrived out of order among the images`);
      last = Math.max(last, at);
    }
  }
  content.forEach((b, i) => {
    let data = null, kind = null, mime = null;
    if (b.type === 'resource' && typeof b.resource?.blob === 'string') { data = b.resource.blob; kind = 'resource'; mime = b.resource.mimeType; }
    else if (b.type === 'audio') { data = b.data; kind = 'audio'; mime = b.mimeType; }
    if (!data) return;
    const h = sha(data);
    if (binaries.some((r) => r.hash === h)) return;
    if (limits[kind]) {
      skips.push(`${kind} check: ${limits[kind]}`);
      allowedBase64.push(data);
      return;
    }
    const became = recvText.includes(data.slice(0, 200)) ? 'it turned into text' : 'it was dropped or replaced';
    fails.push(`host ${variant.host} cannot take ${kind === 'resource' ? 'resource' : 'audio'} (${mime}, block #${i + 1}; ${became}): the server must not send it to this host`);
  });
  for (const b of content) {
    if (!['text', 'image', 'audio', 'resource'].includes(b.type)) infos.push(`block type ${b.type} not checked`);
  }

  // 4. no base64 as text
  for (const t0 of texts) {
    let t = t0;
    for (const a of allowedBase64) t = t.split(a).join('');
    const runs = t.match(BASE64_RUN) || [];
    if (runs.length) {
      const ours = runs.some((r) => sentText.includes(r.slice(0, 200)));
      fails.push(`base64 as text: ${runs.length} run(s) of ≥ 200 base64 characters in the received text (longest ${Math.max(...runs.map((r) => r.length))})${ours ? ', already in the text mcp-read sent' : ''}`);
      break;
    }
  }

  // 5. no host-side cutting, previewing or saving
  const seen = new Set();
  for (const m of MARKERS) {
    if (countOf(m.re, recvText) > countOf(m.re, sentText) && !seen.has(m.what)) {
      seen.add(m.what);
      const at = recvText.search(new RegExp(m.re.source, m.re.flags.replace('g', '')));
      fails.push(`host marker: ${m.what} (${JSON.stringify(recvText.slice(Math.max(0, at - 20), at + 70))})`);
    }
  }

  // 6. a case read past the host's ceiling must come as a capped page that says how to go on
  if (testCase.capped && !/\[Output capped at \d+ bytes: lines 1-\d+[^\]]*offset=\d+/.test(sentText)) {
    fails.push(`the answer is not a capped page ending with the offset to continue from (${JSON.stringify(sentText.slice(-160))})`);
  }

  // 7. errors: the model must learn it is one
  if (testCase.error && !result.isError) fails.push('mcp-read did not set isError for this error case');
  if (result.isError) {
    const first = content.find((b) => b.type === 'text')?.text?.trim() || '';
    if (run.isError === true) { /* the host kept the flag */ }
    else if (!/^Error\b/.test(first)) {
      fails.push(`the host drops isError (isError=${run.isError}) and our error text does not start with "Error" (${JSON.stringify(first.slice(0, 60))}): the model cannot tell it is an error`);
    } else if (!(recvText.includes(first) || recvText.includes(jsonEscaped(first)))) {
      fails.push('the host drops isError and our "Error…" text did not arrive');
    }
  }
  return { fails, skips, infos };
}

// ------------------------------------------------------------------------------ main
function clientFrom(run, host) {
  const c = run.clientInfo || {};
  const d = DEFAULT_CLIENTS[host];
  if (!c.name) return { ...d, fallback: true };
  const clientInfo = { name: c.name, version: c.version ?? '' };
  if (c.title) clientInfo.title = c.title;
  return {
    clientInfo,
    protocolVersion: c.protocolVersion || d.protocolVersion,
    capabilities: c.capabilities ?? c.clientCapabilities ?? {},
  };
}

async function pool(items, n, fn) {
  let next = 0;
  const workers = Array.from({ length: Math.min(n, items.length) }, async () => {
    while (next < items.length) { const i = next++; await fn(items[i], i); }
  });
  await Promise.all(workers);
}

async function main() {
  const binary = process.argv[2] ? path.resolve(process.argv[2]) : path.resolve(HERE, '..', '..', 'build', 'mcp-read');
  if (!existsSync(binary)) { console.log(`not ok - mcp-read binary exists (${binary})`); console.log('hosts: 0 passed, 1 failed'); return 1; }
  const env = process.env;
  const serverArgs = (env.HOSTS_SERVER_ARGS || '').split(/\s+/).filter(Boolean);
  const concurrency = Math.max(1, Number(env.HOSTS_CONCURRENCY) || 2);
  const roundTimeout = (Number(env.HOSTS_ROUND_TIMEOUT_S) || 90) * 1000;
  const only = (env.HOSTS_ONLY || '').split(',').map((s) => s.trim()).filter(Boolean);
  const onlyCases = (env.HOSTS_CASES || '').split(',').map((s) => s.trim()).filter(Boolean);
  const full = env.HOSTS_SHORT !== '1';
  const verbose = env.HOSTS_VERBOSE === '1';
  const t0 = Date.now();

  let variants = only.length ? VARIANTS.filter((v) => only.includes(v.name) || (only.includes(v.host) && !v.optional)) : VARIANTS.filter((v) => !v.optional);
  const unknown = only.filter((o) => !VARIANTS.some((v) => v.name === o || v.host === o));

  // Fixtures
  const keep = !!env.HOSTS_FIXTURES;
  const dir = keep ? path.resolve(env.HOSTS_FIXTURES) : mkdtempSync(path.join(tmpdir(), 'mcp-read-hosts-'));
  let manifest;
  try {
    const tf = Date.now();
    manifest = keep && existsSync(path.join(dir, 'cases.json')) ? JSON.parse(readFileSync(path.join(dir, 'cases.json'), 'utf8')) : writeFixtures(dir);
    console.log(`# fixtures in ${dir} (${((Date.now() - tf) / 1000).toFixed(1)} s)`);
  } catch (e) {
    console.log(`not ok - fixtures are written: ${e.message.split('\n')[0]}`);
    console.log('hosts: 0 passed, 1 failed');
    if (!keep) rmSync(dir, { recursive: true, force: true });
    return 1;
  }
  // Each round's host runs mcp-read through a wrapper script: `direct.mjs --record` relays stdio
  // and logs a digest of every tools/call answer, so that the suite can check that the host got
  // the very answer direct.mjs got.
  const wrapperRoot = mkdtempSync(path.join(tmpdir(), 'mcp-read-hosts-bin-'));
  let wrappers = 0;
  const q = (s) => `'${String(s).replace(/'/g, `'\\''`)}'`;
  const makeWrapper = (caseArgs = []) => {
    const d = path.join(wrapperRoot, String(++wrappers));
    mkdirSync(d);
    const log = path.join(d, 'answers.jsonl');
    const bin = path.join(d, 'mcp-read');
    writeFileSync(bin, `#!/bin/sh\nexec ${[process.execPath, path.join(HERE, 'direct.mjs'), '--record', log, '--', binary, ...serverArgs, ...caseArgs].map(q).join(' ')} "$@"\n`);
    chmodSync(bin, 0o755);
    return { d, bin, log };
  };
  const cases = manifest.cases.filter((c) => !onlyCases.length || onlyCases.includes(c.name));

  let passed = 0, failed = 0;
  const timing = {};
  if (unknown.length) {
    console.log(`not ok - HOSTS_ONLY names known variants or hosts: unknown ${unknown.join(', ')} (variants: ${VARIANTS.map((v) => v.name).join(', ')})`);
    failed++;
  }
  const unknownCases = onlyCases.filter((n) => !manifest.cases.some((c) => c.name === n));
  if (unknownCases.length) {
    console.log(`not ok - HOSTS_CASES names known cases: unknown ${unknownCases.join(', ')} (cases: ${manifest.cases.map((c) => c.name).join(', ')})`);
    failed++;
  }
  // Hosts whose install.sh failed (run.sh says which): one failed row each, no rounds.
  const notInstalled = (env.HOSTS_NOT_INSTALLED || '').split(',').map((s) => s.trim()).filter(Boolean);
  for (const h of notInstalled) {
    if (!variants.some((v) => v.host === h)) continue;
    console.log(`not ok - ${h} installs (its install.sh failed; see above)`);
    failed++;
    variants = variants.filter((v) => v.host !== h);
  }
  const drivers = {};
  const tasks = [];
  for (const v of variants) {
    if (!(v.host in drivers)) {
      try {
        const mod = await import(pathToFileURL(path.join(HERE, v.host, 'driver.mjs')).href);
        drivers[v.host] = typeof mod.runHost === 'function' ? mod : new Error('driver.mjs does not export runHost');
      } catch (e) { drivers[v.host] = e; }
    }
    if (drivers[v.host] instanceof Error) {
      console.log(`not ok - ${v.name} driver loads: ${drivers[v.host].message.split('\n')[0]}`);
      failed++;
      continue;
    }
    for (const c of cases) if ((full || v.full || c.subset) && (!c.hosts || c.hosts.includes(v.host))) tasks.push({ v, c });
  }
  // Interleave hosts so that two rounds at once are usually of different hosts.
  tasks.sort((a, b) => cases.indexOf(a.c) - cases.indexOf(b.c) || variants.indexOf(a.v) - variants.indexOf(b.v));
  console.log(`# ${tasks.length} host rounds (${variants.length} variants × ${cases.length} cases${full ? '' : ', short list on all but one variant per host (HOSTS_SHORT=1)'}), ${concurrency} at once, ${roundTimeout / 1000} s per round; mcp-read ${binary}${serverArgs.length ? ' ' + serverArgs.join(' ') : ''}`);

  const sentCache = new Map();
  const announced = new Set();
  await pool(tasks, concurrency, async ({ v, c }) => {
    const label = `${v.name} ${c.name}`;
    const started = Date.now();
    let line;
    const notes = [];
    const wrapper = makeWrapper(c.serverArgs);
    const toolArgs = { file_path: c.path, ...(c.args || {}) };
    try {
      const run = await withTimeout(drivers[v.host].runHost({
        mcpRead: wrapper.bin, root: dir, toolArgs, timeoutMs: roundTimeout, ...v.opts,
      }), roundTimeout + 20000, `${v.name} driver`);
      let hostGot = [];
      try { hostGot = readFileSync(wrapper.log, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)); } catch {}
      const hostMs = Date.now() - started;
      const client = clientFrom(run, v.host);
      if (client.fallback) notes.push(`driver saw no clientInfo; assumed ${client.clientInfo.name}/${client.clientInfo.version} @${client.protocolVersion}`);
      if (!announced.has(v.name)) {
        announced.add(v.name);
        console.log(`# ${v.name}: client ${client.clientInfo.name}/${client.clientInfo.version} @${client.protocolVersion}, tool "${run.toolName}"${run.model ? `, model ${run.model}` : ''}${run.family ? `, wiring ${run.family}` : ''}`);
      }
      const key = JSON.stringify([client, c.name]);
      if (!sentCache.has(key)) {
        sentCache.set(key, callRead({ mcpRead: binary, serverArgs: [...serverArgs, ...(c.serverArgs || [])], root: dir, args: toolArgs, ...client, timeoutMs: 60000 }));
      }
      const sent = await sentCache.get(key);
      const { fails, skips, infos } = check(v, c, sent, run, hostGot);
      const profile = sent.result?._meta?.host_profile || 'no profile';
      const shape = sent.result ? (sent.result.content || []).map(describeBlock).join(' ') : `JSON-RPC error ${sent.error?.code}`;
      const secs = (hostMs / 1000).toFixed(1);
      if (fails.length) {
        line = `not ok - ${label}: ${fails.join('; ')}\n#   sent [${profile}]: ${shape}\n#   received: ${(run.received || []).map(describeReceived).join(' ')}`;
        failed++;
      } else {
        line = `ok - ${label} (${secs} s, ${profile}: ${shape})${skips.length ? ` # skip ${skips.join('; ')}` : ''}`;
        passed++;
      }
      for (const n of infos) line += `\n#   ${n}`;
      if (verbose) for (const n of [...notes, ...(run.notes || [])]) line += `\n#   note: ${String(n).slice(0, 300)}`;
      else for (const n of notes) line += `\n#   note: ${n}`;
    } catch (e) {
      line = `not ok - ${label}: round failed: ${String(e.message || e).split('\n').slice(0, 3).join(' | ').slice(0, 600)}`;
      failed++;
    } finally {
      rmSync(wrapper.d, { recursive: true, force: true });
    }
    const ms = Date.now() - started;
    const tm = (timing[v.host] ||= { rounds: 0, ms: 0, max: 0, maxCase: '' });
    tm.rounds++; tm.ms += ms;
    if (ms > tm.max) { tm.max = ms; tm.maxCase = `${v.name} ${c.name}`; }
    console.log(line);
  });

  if (!tasks.length && !failed) {
    console.log('not ok - at least one host round runs');
    failed++;
  }
  for (const [host, tm] of Object.entries(timing)) {
    console.log(`# time ${host}: ${tm.rounds} rounds, ${(tm.ms / 1000).toFixed(1)} s in all, ${(tm.ms / tm.rounds / 1000).toFixed(1)} s each on average, slowest ${(tm.max / 1000).toFixed(1)} s (${tm.maxCase})`);
  }
  console.log(`# total ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  if (!keep) rmSync(dir, { recursive: true, force: true });
  rmSync(wrapperRoot, { recursive: true, force: true });
  console.log(`hosts: ${passed} passed, ${failed} failed`);
  return failed ? 1 : 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().then((code) => { process.exitCode = code; }, (e) => {
    console.log(`not ok - suite runs: ${e.stack || e}`);
    console.log('hosts: 0 passed, 1 failed');
    process.exitCode = 1;
  });
}
