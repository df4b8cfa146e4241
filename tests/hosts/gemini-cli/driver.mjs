// Host-suite driver for Gemini CLI (npm @google/gemini-cli, version pinned in package.json).
//
// runHost() runs the real Gemini CLI once, non-interactively, with `mcpRead root` as its MCP
// server named `read` (stdio, through shim.mjs which logs the JSON-RPC traffic) and its model
// API pointed at a loopback mock (mock.mjs). The mock's first answer calls our tool with
// `toolArgs`; the host's follow-up request is captured and normalised into `received`.
import { spawn } from 'node:child_process';
import { mkdtemp, mkdir, writeFile, readFile, rm } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMock } from './mock.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PKG_DIR = path.join(HERE, 'node_modules', '@google', 'gemini-cli');
const GEMINI_BIN = path.join(PKG_DIR, 'bundle', 'gemini.js');
const SHIM = path.join(HERE, 'shim.mjs');
const SERVER_NAME = 'read';
const PROMPT = 'Use the read tool to read the file I asked about, then answer in one word.';

export const HOST = 'gemini-cli';
export const PINNED_VERSION = JSON.parse(readFileSync(path.join(HERE, 'package.json'), 'utf8')).dependencies['@google/gemini-cli'];
// What Gemini CLI 0.61.0 uses when neither -m, GEMINI_MODEL nor model.name is given: the "auto"
// alias. Each prompt is then routed by a classifier call (gemini-3.5-flash-lite): score < 90 ->
// gemini-3.8-flash, >= 90 -> gemini-3.1-pro-preview-customtools. The mock's router answers 10
// (route "flash", the default) or 95 (route "pro"). runHost without `model` passes no -m.
export const DEFAULT_MODEL = 'auto';

export function hostVersion() {
  try { return JSON.parse(readFileSync(path.join(PKG_DIR, 'package.json'), 'utf8')).version; } catch { return null; }
}

function b64len(data) {
  if (typeof data !== 'string') return 0;
  return Buffer.from(data, 'base64').length;
}

function fromInline(inlineData) {
  const mimeType = inlineData?.mimeType || '';
  const data = inlineData?.data || '';
  const base = { mimeType, data, bytes: b64len(data) };
  if (mimeType.startsWith('image/')) return { type: 'image', ...base };
  if (mimeType.startsWith('audio/')) return { type: 'audio', ...base };
  if (mimeType.startsWith('video/')) return { type: 'other', value: { inlineData: { mimeType, bytes: base.bytes } } };
  return { type: 'document', ...base };
}

function fromPart(p) {
  if (typeof p?.text === 'string') return { type: 'text', text: p.text };
  if (p?.inlineData) return fromInline(p.inlineData);
  return { type: 'other', value: p };
}

// Normalise what the model got for our tool call, in the order it sees it.
export function extractReceived(body, toolName) {
  const notes = [];
  const contents = Array.isArray(body?.contents) ? body.contents : [];
  let idx = -1;
  for (let i = contents.length - 1; i >= 0; i--) {
    if ((contents[i].parts || []).some((p) => p.functionResponse && p.functionResponse.name === toolName)) { idx = i; break; }
  }
  if (idx < 0) return { received: [], isError: null, notes: ['no functionResponse for our tool in the follow-up'] };
  const received = [];
  let isError = false;
  const content = contents[idx];
  for (const p of content.parts || []) {
    if (p.functionResponse && p.functionResponse.name === toolName) {
      const fr = p.functionResponse;
      const resp = fr.response && typeof fr.response === 'object' ? fr.response : {};
      for (const [k, v] of Object.entries(resp)) {
        if (k === 'output' && typeof v === 'string') received.push({ type: 'text', text: v });
        else if (k === 'error') {
          isError = true;
          received.push(typeof v === 'string' ? { type: 'text', text: v } : { type: 'other', value: { error: v } });
        } else received.push({ type: 'other', value: { [k]: v } });
      }
      if (Object.keys(resp).length === 0) notes.push('functionResponse.response is empty ({}): the model got no output for the call');
      if (Array.isArray(fr.parts)) {
        notes.push(`functionResponse.parts holds ${fr.parts.length} part(s) (multimodal function response)`);
        for (const q of fr.parts) received.push(fromPart(q));
      }
    } else if (p.functionResponse) {
      notes.push(`another functionResponse (${p.functionResponse.name}) in the same turn`);
    } else {
      received.push(fromPart(p));
    }
  }
  // Parts the host may have put in separate user turns right after the tool result.
  for (let j = idx + 1; j < contents.length; j++) {
    const c = contents[j];
    if (c.role !== 'user') break;
    notes.push(`user turn after the tool result with ${(c.parts || []).length} part(s) (included in received)`);
    for (const p of c.parts || []) received.push(fromPart(p));
  }
  const announced = received.filter((x) => x.type === 'text')
    .reduce((n, x) => n + (x.text.match(/\[Tool '[^']*' provided the following (image|embedded resource) /g) || []).length, 0);
  const binaries = received.filter((x) => x.type === 'image' || x.type === 'document').length;
  if (announced > binaries) {
    notes.push(`${announced - binaries} image/resource part(s) announced in the text are not in the request (Gemini CLI puts them in functionResponse.parts for gemini-3-* model names and they are lost)`);
  }
  return { received, isError, notes };
}

function cleanEnv(extra) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(GEMINI_|GOOGLE_|GCLOUD_|CLOUDSDK_|OTEL_|VERTEX)/i.test(k)) continue;
    if (/^(HTTPS?_PROXY|ALL_PROXY|NO_PROXY)$/i.test(k)) continue;
    if (/^(XDG_|npm_)/i.test(k)) continue;
    env[k] = v;
  }
  return { ...env, ...extra };
}

function parseShimLog(text) {
  const msgs = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try { msgs.push(JSON.parse(line)); } catch {}
  }
  const c2s = msgs.filter((m) => m.dir === 'c2s').flatMap((m) => (Array.isArray(m.msg) ? m.msg : [m.msg]));
  const s2c = msgs.filter((m) => m.dir === 's2c').flatMap((m) => (Array.isArray(m.msg) ? m.msg : [m.msg]));
  const init = c2s.find((m) => m?.method === 'initialize');
  const initResp = init ? s2c.find((m) => m?.id === init.id && m.result) : null;
  const discover = c2s.find((m) => m?.method === 'server/discover');
  const stateless = c2s.find((m) => m?.params?._meta?.['io.modelcontextprotocol/protocolVersion']);
  const client = init?.params?.clientInfo || discover?.params?.clientInfo
    || stateless?.params?._meta?.['io.modelcontextprotocol/clientInfo'] || null;
  return {
    name: client?.name ?? null,
    version: client?.version ?? null,
    protocolVersion: init?.params?.protocolVersion
      ?? stateless?.params?._meta?.['io.modelcontextprotocol/protocolVersion'] ?? null,
    negotiatedProtocolVersion: initResp?.result?.protocolVersion ?? null,
    capabilities: init?.params?.capabilities ?? null,
    sentServerDiscover: !!discover,
    methods: c2s.map((m) => m?.method).filter(Boolean),
  };
}

/**
 * @param {object} o
 * @param {string} o.mcpRead   path of the MCP server binary (run as `mcpRead root`)
 * @param {string} o.root      directory the server may read
 * @param {object} o.toolArgs  arguments of the read call the mock model makes
 * @param {number} [o.timeoutMs]
 * @param {object} [o.env]     extra environment for the host (the server inherits it, minus the
 *                             names Gemini CLI redacts for MCP servers: *KEY*, *TOKEN*, ...)
 * @param {object} [o.serverEnv] environment set for the server only (mcpServers.read.env)
 * @param {'flash'|'pro'} [o.route] where the mock's router answer sends an unpinned model
 * @param {string} [o.tool]    server tool the mock model calls (default "read")
 * @param {string} [o.model]   model passed with -m (default: none, i.e. the CLI's "auto" routing)
 * @param {string[]} [o.serverArgs] extra arguments for the server, before root
 * @param {object} [o.settings] extra settings merged (shallowly per top-level key) into settings.json
 * @param {boolean} [o.keepScratch] leave the scratch dir in place (its path is in notes)
 */
export async function runHost({ mcpRead, root, toolArgs, timeoutMs = 120000, env = {}, model, serverArgs = [], settings = {}, keepScratch = false, route = 'flash', tool = 'read', serverEnv } = {}) {
  if (!existsSync(GEMINI_BIN)) throw new Error(`Gemini CLI not installed at ${GEMINI_BIN}: run tests/hosts/gemini-cli/install.sh`);
  if (!mcpRead) throw new Error('runHost: mcpRead is required');
  if (mcpRead.includes('/')) mcpRead = path.resolve(mcpRead); // the server runs with cwd = scratch
  root = path.resolve(root);
  const scratch = await mkdtemp(path.join(tmpdir(), 'host-gemini-'));
  const home = path.join(scratch, 'home');
  const work = path.join(scratch, 'work');
  const tmp = path.join(scratch, 'tmp');
  const shimLog = path.join(scratch, 'mcp.jsonl');
  const notes = [];
  let mock = null;
  let child = null;
  try {
    await mkdir(path.join(home, '.gemini'), { recursive: true });
    await mkdir(work, { recursive: true });
    await mkdir(tmp, { recursive: true });
    for (const d of ['.config', '.cache', '.local/share', '.local/state']) await mkdir(path.join(home, d), { recursive: true });

    const mcpServer = {
      command: process.execPath,
      args: [SHIM, shimLog, mcpRead, ...serverArgs, root],
      cwd: work,
      trust: true,
      timeout: Math.max(10000, timeoutMs),
    };
    if (serverEnv) mcpServer.env = { ...serverEnv };
    const cfg = {
      security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
      general: {
        enableAutoUpdate: false,
        enableAutoUpdateNotification: false,
        checkpointing: { enabled: false },
        sessionRetention: { enabled: false },
      },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      ide: { enabled: false, hasSeenNudge: true },
      advanced: { autoConfigureMemory: false },
      ui: { hideBanner: true, hideTips: true },
      context: { fileFiltering: { enableFileWatcher: false } },
      mcpServers: { [SERVER_NAME]: mcpServer },
    };
    for (const [k, v] of Object.entries(settings)) {
      cfg[k] = v && typeof v === 'object' && !Array.isArray(v) && cfg[k] ? { ...cfg[k], ...v } : v;
    }
    await writeFile(path.join(home, '.gemini', 'settings.json'), JSON.stringify(cfg, null, 2));

    mock = await startMock({ toolArgs, serverName: SERVER_NAME, toolName: tool, route });

    const args = [GEMINI_BIN, '-p', PROMPT, '--approval-mode', 'yolo', '--include-directories', root];
    if (model) args.push('-m', model);
    const childEnv = cleanEnv({
      HOME: home,
      USERPROFILE: home,
      GEMINI_CLI_HOME: home,
      XDG_CONFIG_HOME: path.join(home, '.config'),
      XDG_CACHE_HOME: path.join(home, '.cache'),
      XDG_DATA_HOME: path.join(home, '.local/share'),
      XDG_STATE_HOME: path.join(home, '.local/state'),
      TMPDIR: tmp,
      GEMINI_API_KEY: 'dummy',
      GOOGLE_GEMINI_BASE_URL: mock.url,
      GEMINI_CLI_NO_RELAUNCH: 'true',
      GEMINI_TELEMETRY_ENABLED: 'false',
      NO_PROXY: '127.0.0.1,localhost',
      NO_COLOR: '1',
      CI: 'true',
      TERM: 'dumb',
      ...env,
    });

    const started = Date.now();
    let stdout = '';
    let stderr = '';
    child = spawn(process.execPath, args, { cwd: work, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    child.stdout.on('data', (d) => { if (stdout.length < 1e6) stdout += d; });
    child.stderr.on('data', (d) => { if (stderr.length < 1e6) stderr += d; });
    const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    let timer;
    const timedOut = new Promise((resolve) => { timer = setTimeout(() => resolve('timeout'), timeoutMs); });
    const first = await Promise.race([exited, timedOut]);
    clearTimeout(timer);
    const killGroup = (sig) => { try { process.kill(-child.pid, sig); } catch {} };
    if (first === 'timeout') {
      killGroup('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
      killGroup('SIGKILL');
      throw new Error(`gemini-cli did not finish within ${timeoutMs} ms (follow-up captured: ${!!mock.state.followUp}; requests: ${mock.state.log.map((e) => e.kind + ' ' + e.url).join(', ')}); stderr tail: ${stderr.slice(-2000)}`);
    }
    killGroup('SIGKILL'); // leftovers (the MCP server) if the CLI did not reap them
    const { code, signal } = first;
    const elapsedMs = Date.now() - started;

    let shimText = '';
    try { shimText = await readFile(shimLog, 'utf8'); } catch {}
    const clientInfo = parseShimLog(shimText);

    if (!mock.state.followUp) {
      if (!mock.state.toolName) {
        throw new Error(`gemini-cli (exit code ${code}) never offered the model a tool of MCP server '${SERVER_NAME}' named '${tool}' (server failed to start or to list tools?); MCP traffic: ${shimText.slice(-1500)}; stderr: ${stderr.slice(-2000)}`);
      }
      throw new Error(`gemini-cli exited (code ${code}, signal ${signal}) without sending the follow-up request; toolName=${mock.state.toolName}; requests: ${mock.state.log.map((e) => e.kind + ' ' + e.url).join(', ')}; stdout: ${stdout.slice(-1500)}; stderr: ${stderr.slice(-3000)}`);
    }
    const toolName = mock.state.toolName;
    const ex = extractReceived(mock.state.followUp, toolName);
    notes.push(...ex.notes);
    if (code !== 0) notes.push(`gemini-cli exit code ${code}${signal ? ' signal ' + signal : ''}`);
    const kinds = mock.state.log.map((e) => `${e.kind}${e.model ? '(' + e.model + ')' : ''}`);
    notes.push(`model requests: ${kinds.join(', ')}`);
    notes.push(`main model: ${mock.state.mainModel}; follow-up model: ${mock.state.followUpModel}`);
    if (mock.state.errors.length) notes.push(`mock errors: ${mock.state.errors.join(' | ')}`);
    const benign = /Basic terminal detected|256-color support|YOLO mode is enabled|Ripgrep is not available|^Loaded cached credentials/;
    const warn = stderr.split('\n').filter((l) => l.trim() && !/^\s*at /.test(l) && !benign.test(l)).slice(0, 20);
    if (warn.length) notes.push(`stderr: ${warn.join(' / ').slice(0, 2000)}`);
    if (keepScratch) notes.push(`scratch kept at ${scratch}`);
    return {
      received: ex.received,
      isError: ex.isError,
      raw: mock.state.followUp,
      toolName,
      clientInfo,
      notes,
      model: mock.state.followUpModel,
      hostVersion: hostVersion(),
      exitCode: code,
      elapsedMs,
      stdout,
      stderr,
      requests: mock.state.log,
    };
  } finally {
    if (child && child.exitCode === null) { try { process.kill(-child.pid, 'SIGKILL'); } catch {} }
    if (mock) await mock.close();
    if (!keepScratch) await rm(scratch, { recursive: true, force: true }).catch(() => {});
  }
}
