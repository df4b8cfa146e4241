// Host-suite driver for the Vercel AI SDK (npm `ai` + `@ai-sdk/mcp` + provider packages, versions
// pinned in package.json).
//
// runHost() runs host.mjs (a minimal AI SDK app: createMCPClient over stdio -> tools() ->
// generateText with stopWhen: stepCountIs(2)) as a child process in its own process group, with
// `mcpRead root` as the MCP server (through shim.mjs, which logs the JSON-RPC traffic), and the
// chosen provider's baseURL pointed at a loopback mock (mock.mjs). The mock's first answer calls
// our tool with `toolArgs`; the provider's follow-up request (the tool result as the model would
// see it) is captured and normalised into `received`.
import { spawn } from 'node:child_process';
import { mkdtemp, mkdir, writeFile, readFile, rm } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMock } from './mock.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const HOST_JS = path.join(HERE, 'host.mjs');
const SHIM = path.join(HERE, 'shim.mjs');
const PKG = JSON.parse(readFileSync(path.join(HERE, 'package.json'), 'utf8'));

export const HOST = 'ai-sdk';
export const PROVIDERS = ['anthropic', 'openai-responses', 'openai-chat', 'google'];
// Model ids per provider. They matter where the SDK branches on the id: for Google, Gemini 3+
// ids (and unknown gemini-* ids) put images in functionResponse.parts, while gemini-2.x ids use
// the "legacy" shape (one functionResponse per text block, images as separate inlineData parts).
export const DEFAULT_MODELS = {
  anthropic: 'claude-sonnet-4-5',
  'openai-responses': 'gpt-5.5',
  'openai-chat': 'gpt-5.5',
  google: 'gemini-3.5-flash',
};
export const PINNED = Object.fromEntries(['ai', '@ai-sdk/mcp', '@ai-sdk/anthropic', '@ai-sdk/openai', '@ai-sdk/google'].map((n) => [n, PKG.dependencies[n]]));

export function hostVersions() {
  const v = {};
  for (const n of Object.keys(PINNED)) {
    try { v[n] = JSON.parse(readFileSync(path.join(HERE, 'node_modules', n, 'package.json'), 'utf8')).version; } catch { v[n] = null; }
  }
  return v;
}

const b64bytes = (d) => (typeof d === 'string' ? Buffer.from(d, 'base64').length : 0);

function media(mimeType, data) {
  const base = { mimeType, data, bytes: b64bytes(data) };
  if (/^image\//i.test(mimeType)) return { type: 'image', ...base };
  if (/^audio\//i.test(mimeType)) return { type: 'audio', ...base };
  return { type: 'document', ...base };
}

function fromDataUrl(url) {
  const m = /^data:([^;,]*)(?:;[^,]*)?;base64,(.*)$/s.exec(url || '');
  return m ? { mimeType: m[1], data: m[2] } : null;
}

// ---- per-API extraction of the tool result from the captured follow-up request -------------

function extractAnthropic(body, notes) {
  const msgs = body.messages || [];
  for (let i = msgs.length - 1; i >= 0; i--) {
    const m = msgs[i];
    if (!Array.isArray(m.content)) continue;
    const idx = m.content.findIndex((c) => c?.type === 'tool_result');
    if (idx < 0) continue;
    const tr = m.content[idx];
    const received = [];
    const blocks = typeof tr.content === 'string' ? [{ type: 'text', text: tr.content }] : (tr.content || []);
    for (const c of blocks) {
      if (c.type === 'text') received.push({ type: 'text', text: c.text });
      else if ((c.type === 'image' || c.type === 'document') && c.source?.type === 'base64') {
        const item = media(c.source.media_type, c.source.data);
        received.push(c.type === 'document' && item.type === 'image' ? { ...item, type: 'document' } : item);
      } else received.push({ type: 'other', value: c });
    }
    const rest = m.content.filter((_, j) => j !== idx);
    if (rest.length) {
      notes.push(`the tool_result's user message holds ${rest.length} other block(s); appended to received`);
      for (const c of rest) received.push(c.type === 'text' ? { type: 'text', text: c.text } : { type: 'other', value: c });
    }
    return { received, isError: tr.is_error === true };
  }
  return null;
}

function extractResponses(body, notes) {
  const items = Array.isArray(body.input) ? body.input : [];
  const out = items.find((i) => i?.type === 'function_call_output');
  if (!out) return null;
  const received = [];
  if (typeof out.output === 'string') received.push({ type: 'text', text: out.output });
  else for (const c of out.output || []) {
    if (c.type === 'input_text') received.push({ type: 'text', text: c.text });
    else if (c.type === 'input_image' && fromDataUrl(c.image_url)) {
      const d = fromDataUrl(c.image_url);
      received.push({ ...media(d.mimeType, d.data), type: 'image', ...(c.detail ? { detail: c.detail } : {}) });
    } else if (c.type === 'input_file' && fromDataUrl(c.file_data)) {
      const d = fromDataUrl(c.file_data);
      const item = media(d.mimeType, d.data);
      received.push({ ...item, type: item.type === 'audio' ? 'audio' : 'document', filename: c.filename });
    } else received.push({ type: 'other', value: c });
  }
  if (out.status) notes.push(`function_call_output.status = ${out.status}`);
  return { received, isError: null };
}

function extractChat(body, notes) {
  const msg = (body.messages || []).find((m) => m?.role === 'tool');
  if (!msg) return null;
  const received = [];
  if (typeof msg.content === 'string') received.push({ type: 'text', text: msg.content });
  else for (const c of msg.content || []) {
    if (c.type === 'text') received.push({ type: 'text', text: c.text });
    else if (c.type === 'image_url' && fromDataUrl(c.image_url?.url)) {
      const d = fromDataUrl(c.image_url.url);
      received.push(media(d.mimeType, d.data));
    } else received.push({ type: 'other', value: c });
  }
  if (typeof msg.content === 'string' && msg.content.startsWith('[{"type":')) {
    notes.push('OpenAI chat: the tool message content is JSON.stringify of the AI SDK content parts (text is JSON-escaped inside it)');
  }
  return { received, isError: null };
}

function extractGoogle(body, notes, toolName) {
  const contents = body.contents || [];
  // The tool result is the content right after the model turn holding our functionCall.
  let idx = -1;
  for (let i = contents.length - 1; i >= 0; i--) {
    if (contents[i].role === 'model' && (contents[i].parts || []).some((p) => p.functionCall)) { idx = i + 1; break; }
  }
  if (idx < 0) {
    for (let i = contents.length - 1; i >= 0; i--) {
      if ((contents[i].parts || []).some((p) => p.functionResponse)) { idx = i; break; }
    }
  }
  if (idx < 0 || idx >= contents.length) return null;
  const parts = contents[idx].parts || [];
  const received = [];
  let isError = false;
  for (const p of parts) {
    if (p.functionResponse) {
      const fr = p.functionResponse;
      const resp = fr.response && typeof fr.response === 'object' ? fr.response : {};
      for (const [k, v] of Object.entries(resp)) {
        if (k === 'name') continue; // the SDK repeats the tool name here
        if (k === 'error') isError = true;
        if ((k === 'content' || k === 'error') && typeof v === 'string') received.push({ type: 'text', text: v });
        else received.push({ type: 'other', value: { [k]: v } });
      }
      for (const fp of fr.parts || []) {
        if (fp.inlineData) received.push(media(fp.inlineData.mimeType, fp.inlineData.data));
        else received.push({ type: 'other', value: fp });
      }
    } else if (typeof p.text === 'string') received.push({ type: 'text', text: p.text });
    else if (p.inlineData) received.push(media(p.inlineData.mimeType, p.inlineData.data));
    else received.push({ type: 'other', value: p });
  }
  const n = parts.filter((p) => p.functionResponse).length;
  if (n === 0) notes.push(`Gemini: the tool result has no functionResponse part (${parts.length} plain part(s) in the user turn)`);
  if (n > 1) notes.push(`Gemini: the tool result was split into ${n} functionResponse parts (one per text block)`);
  if (parts.some((p) => p.functionResponse?.parts)) notes.push('Gemini: images/files sit in functionResponse.parts, after the joined text');
  return { received, isError };
}

export function extractReceived(api, body, toolName) {
  const notes = [];
  const fn = { anthropic: extractAnthropic, 'openai-responses': extractResponses, 'openai-chat': extractChat, google: extractGoogle }[api];
  const r = fn ? fn(body || {}, notes, toolName) : null;
  if (!r) return { received: [], isError: null, notes: [`no tool result found in the ${api} follow-up`] };
  return { ...r, notes };
}

// ---- MCP traffic (shim log) -----------------------------------------------------------------

function parseShimLog(text) {
  const recs = text.split('\n').filter(Boolean).map((l) => { try { return JSON.parse(l); } catch { return null; } }).filter(Boolean);
  const c2s = recs.filter((r) => r.dir === 'c2s').map((r) => r.msg);
  const methods = c2s.map((m) => m?.method).filter(Boolean);
  const info = { name: null, version: null, protocolVersion: null, methods, sentDiscover: methods.includes('server/discover'), sentInitialize: methods.includes('initialize') };
  const init = c2s.find((m) => m?.method === 'initialize');
  const modern = c2s.find((m) => m?.params?._meta?.['io.modelcontextprotocol/clientInfo']);
  if (modern) {
    const meta = modern.params._meta;
    Object.assign(info, meta['io.modelcontextprotocol/clientInfo']);
    info.protocolVersion = meta['io.modelcontextprotocol/protocolVersion'] ?? null;
    info.clientCapabilities = meta['io.modelcontextprotocol/clientCapabilities'];
  }
  if (init?.params) {
    // initialize only happens when discovery failed: its values describe the session actually used.
    Object.assign(info, init.params.clientInfo || {});
    info.protocolVersion = init.params.protocolVersion ?? info.protocolVersion;
    info.clientCapabilities = init.params.capabilities;
  }
  const call = c2s.find((m) => m?.method === 'tools/call');
  const callId = call?.id;
  const reply = recs.find((r) => r.dir === 's2c' && r.msg && r.msg.id === callId && callId !== undefined);
  return { info, serverCalled: !!call, callResultSummary: reply?.msg?.result ?? reply?.msg?.error ?? null, records: recs.length };
}

// ---- runHost --------------------------------------------------------------------------------

/**
 * Run the AI SDK host once.
 * @param {object} o
 * @param {string} o.mcpRead  path of the mcp-read binary
 * @param {string} o.root     ROOTDIR given to mcp-read
 * @param {object} o.toolArgs arguments of the read call the mock makes
 * @param {number} [o.timeoutMs=120000]
 * @param {object} [o.env]    extra environment for the host process; also given to the MCP
 *                            server (the SDK's stdio transport passes only HOME, LOGNAME, PATH,
 *                            SHELL, TERM, USER plus this)
 * @param {string} [o.provider='anthropic']  anthropic | openai-responses | openai-chat | google
 * @param {string} [o.model]  model id (see DEFAULT_MODELS)
 * @param {string[]} [o.serverCommand]  run this instead of [mcpRead, root] (e.g. a fake server)
 * @param {string} [o.prompt]
 * @param {boolean} [o.keepScratch]
 */
export async function runHost({
  mcpRead, root, toolArgs, timeoutMs = 120000, env = {},
  provider = 'anthropic', model, serverCommand, prompt, keepScratch = false,
} = {}) {
  if (!PROVIDERS.includes(provider)) throw new Error(`ai-sdk driver: unknown provider ${provider} (one of ${PROVIDERS.join(', ')})`);
  const cmd = serverCommand ?? [mcpRead, root];
  if (!cmd[0]) throw new Error('ai-sdk driver: mcpRead (or serverCommand) is required');
  if (!existsSync(path.join(HERE, 'node_modules', 'ai', 'package.json'))) {
    throw new Error(`ai-sdk driver: the AI SDK is not installed in ${HERE}/node_modules (run ${HERE}/install.sh)`);
  }
  model = model ?? DEFAULT_MODELS[provider];
  const started = Date.now();
  const scratch = await mkdtemp(path.join(tmpdir(), 'host-ai-sdk-'));
  const home = path.join(scratch, 'home');
  for (const d of ['home', 'home/.config', 'home/.cache', 'home/.local/share', 'home/.local/state', 'tmp', 'work']) await mkdir(path.join(scratch, d), { recursive: true });
  const shimLog = path.join(scratch, 'mcp-traffic.jsonl');
  const resultFile = path.join(scratch, 'host-result.json');
  const configFile = path.join(scratch, 'host-config.json');
  const mock = await startMock({ toolArgs });
  let child;
  try {
    await writeFile(configFile, JSON.stringify({
      provider, model, baseURL: mock.url, resultFile,
      prompt: prompt ?? 'Read the file with the read tool, then answer in one word.',
      server: { command: process.execPath, args: [SHIM, shimLog, ...cmd], env: Object.keys(env).length ? { ...env } : undefined },
    }));
    const childEnv = {
      PATH: process.env.PATH || '/usr/local/bin:/usr/bin:/bin',
      LANG: process.env.LANG || 'C.UTF-8',
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, '.config'),
      XDG_CACHE_HOME: path.join(home, '.cache'),
      XDG_DATA_HOME: path.join(home, '.local/share'),
      XDG_STATE_HOME: path.join(home, '.local/state'),
      TMPDIR: path.join(scratch, 'tmp'),
      CI: 'true',
      NO_COLOR: '1',
      ...env,
    };
    let stdout = '';
    let stderr = '';
    child = spawn(process.execPath, [HOST_JS, configFile], {
      cwd: path.join(scratch, 'work'), env: childEnv, detached: true, stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (d) => { stdout += d; if (stdout.length > 200000) stdout = stdout.slice(-100000); });
    child.stderr.on('data', (d) => { stderr += d; if (stderr.length > 200000) stderr = stderr.slice(-100000); });
    const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    const spawnError = new Promise((_, reject) => child.on('error', reject));
    let timer;
    const timedOut = new Promise((resolve) => { timer = setTimeout(() => resolve('timeout'), timeoutMs); });
    const first = await Promise.race([exited, timedOut, spawnError]);
    clearTimeout(timer);
    killGroup(child.pid);
    const shimText = existsSync(shimLog) ? await readFile(shimLog, 'utf8') : '';
    const shim = parseShimLog(shimText);
    if (first === 'timeout') {
      throw new Error(`ai-sdk driver: host (${provider}) did not finish within ${timeoutMs} ms (killed). Mock saw ${mock.requests.length} request(s) [${mock.requests.map((r) => `${r.path}→${r.answer}`).join(', ')}], follow-up ${mock.captured ? 'captured' : 'not captured'}; MCP methods: ${shim.info.methods.join(',') || 'none'}.\nstderr tail:\n${stderr.slice(-3000)}`);
    }
    let hostResult = null;
    try { hostResult = JSON.parse(await readFile(resultFile, 'utf8')); } catch { /* host died early */ }
    if (!mock.captured) {
      throw new Error(`ai-sdk driver: no follow-up request carried the tool result (host exit ${first.code}${first.signal ? ' ' + first.signal : ''}, provider ${provider}, model ${model}; mock requests: [${mock.requests.map((r) => `${r.path}→${r.answer}`).join(', ')}]; MCP methods: ${shim.info.methods.join(',') || 'none'}; host error: ${hostResult?.error ?? 'n/a'}${hostResult?.errorResponseBody ? ' body: ' + hostResult.errorResponseBody : ''}).\nstderr tail:\n${stderr.slice(-3000)}`);
    }
    const { received, isError, notes } = extractReceived(mock.captured.api, mock.captured.body, mock.toolName);
    if (first.code !== 0) notes.push(`host exited with code ${first.code}${first.signal ? ' ' + first.signal : ''}: ${hostResult?.error?.split('\n')[0] ?? ''}`);
    if (!shim.serverCalled) notes.push('the MCP server never received tools/call');
    const warnings = new Set();
    for (const w of hostResult?.warnings || []) for (const x of (w.warnings ?? [w])) warnings.add(JSON.stringify(x));
    for (const s of hostResult?.steps || []) for (const x of s.warnings || []) warnings.add(JSON.stringify(x));
    for (const w of warnings) notes.push(`AI SDK warning: ${w}`);
    for (const e of hostResult?.mcpErrors || []) notes.push(`MCP client error: ${e}`);
    return {
      received,
      isError,
      raw: mock.captured.body,
      toolName: mock.toolName,
      clientInfo: shim.info,
      notes,
      provider,
      model,
      api: mock.captured.api,
      serverCalled: shim.serverCalled,
      serverResult: shim.callResultSummary,
      hostResult,
      hostVersions: hostVersions(),
      modelRequests: mock.requests.map(({ body, ...r }) => r),
      exitCode: first.code,
      stderr: stderr.slice(-20000),
      elapsedMs: Date.now() - started,
    };
  } finally {
    if (child?.pid) killGroup(child.pid);
    await mock.close();
    if (!keepScratch) await rm(scratch, { recursive: true, force: true });
  }
}

function killGroup(pid) {
  try { process.kill(-pid, 'SIGKILL'); } catch { /* already gone */ }
}
