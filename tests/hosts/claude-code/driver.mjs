// Host-suite driver: Claude Code (npm @anthropic-ai/claude-code, pinned in package.json) run
// non-interactively against a loopback mock of the Anthropic Messages API, with mcp-read (behind a
// logging shim) as its stdio MCP server named "read". See README.md beside this file.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMock } from './mock.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const HOST = 'claude-code';
export const HOST_VERSION = JSON.parse(fs.readFileSync(path.join(here, 'package.json'), 'utf8')).dependencies['@anthropic-ai/claude-code'];
const PROMPT = 'Read the file with the read tool.';

function claudeBinary() {
  const candidates = [
    path.join(here, 'node_modules', '@anthropic-ai', 'claude-code-linux-x64', 'claude'),
    path.join(here, 'node_modules', '@anthropic-ai', 'claude-code', 'bin', 'claude.exe'),
  ];
  for (const c of candidates) {
    try { fs.accessSync(c, fs.constants.X_OK); return c; } catch {}
  }
  throw new Error(`claude-code driver: Claude Code is not installed in ${here}/node_modules (run ${here}/install.sh)`);
}

// The parent's environment without anything that would steer Claude Code elsewhere
// (a real API key, another base URL, the environment of a Claude Code session we run inside, …).
function baseEnv() {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(ANTHROPIC_|CLAUDE|MCP_|OTEL_|AWS_|GOOGLE_|VERTEX|HTTPS?_PROXY|NO_PROXY|ALL_PROXY|NODE_OPTIONS|XDG_)/i.test(k)) continue;
    env[k] = v;
  }
  return env;
}

function decodedLength(b64) {
  try { return Buffer.from(b64 || '', 'base64').length; } catch { return null; }
}

function normaliseBlock(b) {
  if (b == null) return { type: 'other', value: b };
  if (typeof b === 'string') return { type: 'text', text: b };
  if (b.type === 'text') return { type: 'text', text: b.text };
  if ((b.type === 'image' || b.type === 'document') && b.source) {
    const s = b.source;
    if (s.type === 'base64') return { type: b.type, mimeType: s.media_type, data: s.data, bytes: decodedLength(s.data) };
    if (s.type === 'text') return { type: b.type, mimeType: s.media_type || 'text/plain', data: Buffer.from(s.data || '').toString('base64'), bytes: Buffer.byteLength(s.data || '') };
    return { type: 'other', value: b };
  }
  return { type: 'other', value: b };
}

function normaliseContent(content) {
  if (content == null) return [];
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  if (Array.isArray(content)) return content.map(normaliseBlock);
  return [{ type: 'other', value: content }];
}

function readLog(file) {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => { try { return JSON.parse(l); } catch { return null; } }).filter(Boolean);
  } catch { return []; }
}

// clientInfo and protocol version from the shim's log: the `initialize` request (2025-xx
// protocols) or the per-request `_meta` of stateless 2026-07-28 requests (server/discover, …).
function clientInfoFrom(log) {
  const sent = log.filter((e) => e.dir === 'c2s').map((e) => e.msg).flat().filter((m) => m && m.method);
  const out = { name: null, version: null, protocolVersion: null, discover: sent.some((m) => m.method === 'server/discover'), methods: [...new Set(sent.map((m) => m.method))] };
  const init = sent.find((m) => m.method === 'initialize');
  if (init && init.params) {
    out.name = init.params.clientInfo?.name ?? null;
    out.version = init.params.clientInfo?.version ?? null;
    out.protocolVersion = init.params.protocolVersion ?? null;
    out.capabilities = init.params.capabilities;
  }
  const call = sent.find((m) => m.method === 'tools/call') || sent.find((m) => m.params && m.params._meta && m.params._meta['io.modelcontextprotocol/protocolVersion']);
  const meta = call && call.params && call.params._meta;
  if (meta && meta['io.modelcontextprotocol/protocolVersion']) {
    const ci = meta['io.modelcontextprotocol/clientInfo'] || {};
    out.name = out.name ?? ci.name ?? null;
    out.version = out.version ?? ci.version ?? null;
    out.protocolVersion = meta['io.modelcontextprotocol/protocolVersion'];
    out.capabilities = out.capabilities ?? meta['io.modelcontextprotocol/clientCapabilities'];
  }
  return out;
}

/**
 * Run Claude Code once: the mock model calls the read tool with `toolArgs`, and the follow-up
 * request (which holds the tool result as the model sees it) is captured.
 * `env` adds to / overrides the host's environment (e.g. { ENABLE_TOOL_SEARCH: 'false' }).
 * Extra options: `prompt`, `keepScratch` (leave the scratch dir for debugging; its path is in notes),
 * `countTokens` (body => number: the mock's answer to /v1/messages/count_tokens; default estimateTokens),
 * `cwd` (Claude Code's working directory, which it declares as its only root; default: an empty
 * scratch dir). The result's `mcpLog` is the shim's record of the JSON-RPC traffic ({t, dir, msg}).
 */
export async function runHost({ mcpRead, root, toolArgs, timeoutMs = 120000, env = {}, prompt = PROMPT, keepScratch = false, countTokens, cwd }) {
  if (!mcpRead || !root) throw new Error('claude-code driver: mcpRead and root are required');
  const bin = claudeBinary();
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'host-claude-code-'));
  const home = path.join(scratch, 'home');
  const work = path.join(scratch, 'work');
  const tmp = path.join(scratch, 'tmp');
  for (const d of [home, work, tmp]) fs.mkdirSync(d, { recursive: true });
  const logFile = path.join(scratch, 'mcp.log');
  const mcpConfig = path.join(scratch, 'mcp.json');
  fs.writeFileSync(mcpConfig, JSON.stringify({
    mcpServers: {
      read: { type: 'stdio', command: process.execPath, args: [path.join(here, 'shim.mjs'), logFile, path.resolve(mcpRead), path.resolve(root)] },
    },
  }, null, 2));

  const notes = [];
  let child;
  let mock = null;
  try {
    mock = await startMock({ toolArgs, countTokens });
    const hostEnv = {
      ...baseEnv(),
      HOME: home,
      USERPROFILE: home,
      XDG_CONFIG_HOME: path.join(home, '.config'),
      XDG_CACHE_HOME: path.join(home, '.cache'),
      XDG_DATA_HOME: path.join(home, '.local', 'share'),
      XDG_STATE_HOME: path.join(home, '.local', 'state'),
      TMPDIR: tmp,
      CLAUDE_CONFIG_DIR: path.join(home, '.claude'),
      CI: 'true',
      NO_COLOR: '1',
      ANTHROPIC_BASE_URL: mock.url,
      ANTHROPIC_API_KEY: 'sk-ant-mock-not-a-key',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_ERROR_REPORTING: '1',
      ...env,
    };
    const args = ['-p', prompt, '--mcp-config', mcpConfig, '--strict-mcp-config', '--allowedTools', 'mcp__read__read', '--output-format', 'json'];
    const t0 = Date.now();
    child = spawn(bin, args, { cwd: cwd ? path.resolve(cwd) : work, env: hostEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { if (stdout.length < 1e6) stdout += d; });
    child.stderr.on('data', (d) => { if (stderr.length < 1e6) stderr += d; });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try { process.kill(-child.pid, 'SIGKILL'); } catch {}
    }, timeoutMs);
    const { code, signal } = await new Promise((resolve) => {
      child.on('error', (e) => { stderr += `\nspawn error: ${e}`; resolve({ code: null, signal: null }); });
      child.on('close', (c, s) => resolve({ code: c, signal: s }));
    });
    clearTimeout(timer);
    try { process.kill(-child.pid, 'SIGKILL'); } catch {} // stray MCP servers of the group
    const elapsedMs = Date.now() - t0;
    const tail = (s) => s.slice(-2000);
    if (timedOut) {
      throw new Error(`claude-code driver: Claude Code did not finish within ${timeoutMs} ms (killed). ` +
        `model requests: ${mock.state.requests.length}, follow-up captured: ${!!mock.state.followUp}\nstderr: ${tail(stderr)}\nstdout: ${tail(stdout)}`);
    }
    const followUp = mock.state.followUp;
    if (!followUp) {
      throw new Error(`claude-code driver: no follow-up request with the read tool's result (exit ${code}${signal ? ' ' + signal : ''}, ` +
        `${mock.state.requests.length} model requests, tools offered: ${JSON.stringify((mock.state.mainRequests[0] || {}).tools?.map((t) => t.name) ?? null)})\n` +
        `stderr: ${tail(stderr)}\nstdout: ${tail(stdout)}${mock.state.errors.length ? '\nmock errors: ' + mock.state.errors.join('\n') : ''}`);
    }
    if (code !== 0) notes.push(`claude exited with ${code}${signal ? ' ' + signal : ''}: ${tail(stderr || stdout)}`);
    if (mock.state.errors.length) notes.push(`mock errors: ${mock.state.errors.join('; ')}`);
    if (mock.state.searched) notes.push('MCP tools were deferred: the mock loaded the read tool through ToolSearch (select:mcp__read__read) before calling it');

    // The tool_result for our call, and anything else the host put in the same user turn.
    let result = null;
    let siblings = [];
    for (const m of followUp.messages || []) {
      if (m.role !== 'user' || !Array.isArray(m.content)) continue;
      const i = m.content.findIndex((b) => b && b.type === 'tool_result' && b.tool_use_id === mock.state.toolUseId);
      if (i >= 0) { result = m.content[i]; siblings = m.content.filter((_, j) => j !== i); }
    }
    const received = normaliseContent(result && result.content);
    if (siblings.length) {
      // Claude Code can add blocks next to the tool_result (e.g. system reminders); they reach the
      // model right after the result, so they are part of what it gets for this call.
      for (const b of siblings) received.push(normaliseBlock(b));
      notes.push(`${siblings.length} block(s) beside the tool_result in the same user message were appended to received: ${siblings.map((b) => b && b.type).join(', ')}`);
    }
    const log = readLog(logFile);
    const clientInfo = clientInfoFrom(log);
    if (!log.length) notes.push('the MCP logging shim recorded nothing');
    else if (!clientInfo.methods.includes('tools/call')) notes.push('mcp-read never received tools/call: the tool result was made by Claude Code itself');
    const sideRequests = mock.state.requests.filter((r) => !mock.state.mainRequests.includes(r.body));
    if (sideRequests.length) notes.push(`other model requests: ${sideRequests.map((r) => `${r.method} ${r.url}`).join(', ')}`);
    if (keepScratch) notes.push(`scratch kept at ${scratch}`);

    return {
      received,
      isError: result ? result.is_error === true : null,
      raw: followUp,
      toolName: mock.state.toolName,
      clientInfo,
      serverCalled: clientInfo.methods.includes('tools/call'),
      notes,
      elapsedMs,
      hostVersion: HOST_VERSION,
      stdout,
      stderr,
      modelRequests: mock.state.requests,
      mcpLog: log,
    };
  } finally {
    if (child && child.exitCode === null) { try { process.kill(-child.pid, 'SIGKILL'); } catch {} }
    if (mock) await mock.close();
    if (!keepScratch) fs.rmSync(scratch, { recursive: true, force: true });
  }
}
