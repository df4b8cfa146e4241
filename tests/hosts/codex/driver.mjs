// Host-suite driver for OpenAI Codex CLI (npm @openai/codex, pinned in package.json).
//
// runHost() runs one round trip: `codex exec` with a scratch CODEX_HOME whose config.toml points
// the model provider at a loopback mock of the Responses API (mock.mjs) and declares mcp-read
// (wrapped in the logging shim) as the stdio MCP server "read". The mock makes the model call
// the read tool with `toolArgs`, records the follow-up request and ends the turn.
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMock } from './mock.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
export const PINNED_VERSION = JSON.parse(readFileSync(join(HERE, 'package.json'), 'utf8')).dependencies['@openai/codex'];
export const DEFAULT_MODEL = 'gpt-5.5';
// One model per tool wiring Codex 0.171.0 uses (see README.md): catalogued models without a
// tool_mode get MCP tools deferred behind `tool_search`; unknown slugs get fallback metadata and
// the tool directly (namespace "mcp__read"); code-mode models (gpt-6.1-sol is Codex's default)
// only get the JavaScript `exec` tool.
export const MODELS = { toolSearch: 'gpt-5.5', direct: 'mcp-read-test-model', codeMode: 'gpt-6.1-sol' };

const TRIPLES = {
  'linux-x64': ['@openai/codex-linux-x64', 'x86_64-unknown-linux-musl'],
  'linux-arm64': ['@openai/codex-linux-arm64', 'aarch64-unknown-linux-musl'],
  'darwin-x64': ['@openai/codex-darwin-x64', 'x86_64-apple-darwin'],
  'darwin-arm64': ['@openai/codex-darwin-arm64', 'aarch64-apple-darwin'],
};

export function codexBinary() {
  const t = TRIPLES[`${process.platform}-${process.arch}`];
  if (!t) throw new Error(`codex driver: unsupported platform ${process.platform}-${process.arch}`);
  const bin = join(HERE, 'node_modules', t[0], 'vendor', t[1], 'bin', 'codex');
  if (!existsSync(bin)) throw new Error(`codex driver: ${bin} missing; run tests/hosts/codex/install.sh`);
  return { bin, packageRoot: join(HERE, 'node_modules', '@openai', 'codex'), pathDir: join(HERE, 'node_modules', t[0], 'vendor', t[1], 'codex-path') };
}

const tomlStr = (s) => JSON.stringify(String(s)); // JSON string escapes are valid TOML basic strings

function configToml({ baseUrl, model, serverCommand, serverArgs, extraToml, toolTimeoutSec }) {
  return [
    model ? `model = ${tomlStr(model)}` : '# model: Codex default',
    'model_provider = "mock"',
    'approval_policy = "never"',
    'sandbox_mode = "read-only"',
    'check_for_update_on_startup = false',
    'model_reasoning_summary = "none"',
    '',
    '[model_providers.mock]',
    'name = "mock"',
    `base_url = ${tomlStr(baseUrl)}`,
    'wire_api = "responses"',
    'request_max_retries = 0',
    'stream_max_retries = 0',
    'stream_idle_timeout_ms = 60000',
    '',
    '[analytics]',
    'enabled = false',
    '',
    '[feedback]',
    'enabled = false',
    '',
    '[history]',
    'persistence = "none"',
    '',
    '[otel]',
    'exporter = "none"',
    'metrics_exporter = "none"',
    '',
    '[features]',
    'plugins = false',
    'apps = false',
    '',
    '[mcp_servers.read]',
    `command = ${tomlStr(serverCommand)}`,
    `args = [${serverArgs.map(tomlStr).join(', ')}]`,
    'startup_timeout_sec = 30',
    `tool_timeout_sec = ${Number(toolTimeoutSec) || 60}`,
    'default_tools_approval_mode = "approve"',
    '',
    extraToml || '',
  ].join('\n');
}

// Normalise a function_call_output / custom_tool_call_output `output` to `received` parts.
export function normaliseOutput(output) {
  if (typeof output === 'string') return [{ type: 'text', text: output }];
  if (output && typeof output === 'object' && !Array.isArray(output)) {
    if (Array.isArray(output.content)) return normaliseOutput(output.content);
    if (typeof output.text === 'string') return [{ type: 'text', text: output.text }];
    return [{ type: 'other', value: output }];
  }
  if (!Array.isArray(output)) return [{ type: 'other', value: output }];
  return output.map((p) => {
    if (!p || typeof p !== 'object') return { type: 'other', value: p };
    if ((p.type === 'input_text' || p.type === 'output_text' || p.type === 'text') && typeof p.text === 'string') return { type: 'text', text: p.text };
    if (p.type === 'input_image' && typeof p.image_url === 'string') {
      const m = /^data:([^;,]+)?(;base64)?,(.*)$/s.exec(p.image_url);
      if (m && m[2]) {
        const data = m[3];
        const part = { type: 'image', mimeType: m[1] || '', data, bytes: Buffer.from(data, 'base64').length };
        if (p.detail !== undefined) part.detail = p.detail;
        return part;
      }
      return { type: 'other', value: p };
    }
    if (p.type === 'input_file') {
      const src = p.file_data || '';
      const m = /^data:([^;,]+)?(;base64)?,(.*)$/s.exec(src);
      if (m && m[2]) return { type: 'document', mimeType: m[1] || '', data: m[3], bytes: Buffer.from(m[3], 'base64').length, filename: p.filename };
      return { type: 'other', value: p };
    }
    if (p.type === 'input_audio' && p.input_audio) {
      const data = p.input_audio.data || '';
      return { type: 'audio', mimeType: p.input_audio.format ? `audio/${p.input_audio.format}` : '', data, bytes: Buffer.from(data, 'base64').length };
    }
    return { type: 'other', value: p };
  });
}

function parseShimLog(file) {
  const out = { messages: [], clientInfo: null };
  if (!existsSync(file)) return out;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try { out.messages.push(JSON.parse(line)); } catch { /* ignore */ }
  }
  const init = out.messages.find((r) => r.dir === 'c2s' && r.msg && r.msg.method === 'initialize');
  const initResp = init && out.messages.find((r) => r.dir === 's2c' && r.msg && r.msg.id === init.msg.id);
  const methods = out.messages.filter((r) => r.dir === 'c2s' && r.msg && r.msg.method).map((r) => r.msg.method);
  if (init) {
    const p = init.msg.params || {};
    out.clientInfo = {
      name: p.clientInfo?.name ?? null,
      version: p.clientInfo?.version ?? null,
      title: p.clientInfo?.title,
      protocolVersion: p.protocolVersion ?? null,
      negotiatedProtocolVersion: initResp?.msg?.result?.protocolVersion ?? null,
      capabilities: p.capabilities,
      serverDiscover: methods.includes('server/discover'),
      methods,
    };
  } else if (methods.length) {
    out.clientInfo = { name: null, version: null, protocolVersion: null, serverDiscover: methods.includes('server/discover'), methods };
  }
  out.toolsCall = out.messages.find((r) => r.dir === 's2c' && r.msg && r.msg.result && Array.isArray(r.msg.result.content));
  return out;
}

/**
 * @param {object} o
 * @param {string} o.mcpRead     path of the mcp-read binary
 * @param {string} o.root        ROOTDIR given to mcp-read
 * @param {object} o.toolArgs    arguments of the read call the mock model makes
 * @param {number} [o.timeoutMs]
 * @param {object} [o.env]       extra environment for codex (and, through it, the MCP server)
 * @param {string|null} [o.model] model slug Codex is told to use (default gpt-5.5; null: Codex's
 *                               own default, gpt-6.1-sol): a catalogued one ("gpt-5.5": MCP tools
 *                               behind tool_search; "gpt-6.1-sol", "gpt-6-sol", ...: JavaScript code
 *                               mode) or any unknown name (fallback metadata: tool offered directly).
 *                               See MODELS.
 * @param {'forward'|'json'|string|Function} [o.codeMode] script the mock model runs in code mode:
 *                               'forward' (default) hands each block to text()/image()/audio() and
 *                               adds "[isError: true]" when set; 'json' prints the raw
 *                               CallToolResult; a string is used verbatim; a function gets
 *                               (jsToolName, toolArgs) and returns the script
 * @param {string[]} [o.serverCommand] run this MCP server instead of [mcpRead, root]
 * @param {string} [o.extraToml] appended to config.toml (after the tables: put tables here)
 * @param {string} [o.topToml]   top-level config.toml keys, put before the first table, e.g.
 *                               'tool_output_token_limit = 50000'
 * @param {number} [o.toolTimeoutSec] Codex's tool_timeout_sec for the server (default 60)
 * @param {string} [o.prompt]
 * @param {boolean} [o.keepScratch]
 */
export async function runHost({ mcpRead, root, toolArgs, timeoutMs = 120000, env = {}, model = DEFAULT_MODEL, codeMode = 'forward',
  serverCommand, extraToml = '', topToml = '', prompt, keepScratch = false, toolTimeoutSec = 60 } = {}) {
  const { bin, packageRoot, pathDir } = codexBinary();
  const scratch = mkdtempSync(join(tmpdir(), 'mcp-read-codex-'));
  const home = join(scratch, 'home');
  const codexHome = join(home, '.codex');
  const work = join(scratch, 'work');
  const tmp = join(scratch, 'tmp');
  for (const d of [codexHome, work, tmp, join(home, '.config'), join(home, '.cache'), join(home, '.local', 'share'), join(home, '.local', 'state')]) mkdirSync(d, { recursive: true });
  const shimLog = join(scratch, 'mcp-shim.jsonl');
  // Codex starts the server from its own scratch folder: a relative path must not reach it.
  const cmd = serverCommand || [mcpRead && resolvePath(mcpRead), root && resolvePath(root)];
  if (!cmd[0]) throw new Error('runHost: mcpRead (or serverCommand) is required');

  const mock = await startMock({ toolArgs, codeMode });
  const notes = [];
  let child;
  let stdout = '';
  let stderr = '';
  try {
    let toml = configToml({ baseUrl: mock.baseUrl, model, serverCommand: process.execPath, serverArgs: [join(HERE, 'shim.mjs'), shimLog, ...cmd], extraToml, toolTimeoutSec });
    if (topToml) toml = `${topToml}\n${toml}`;
    writeFileSync(join(codexHome, 'config.toml'), toml);

    const childEnv = {
      PATH: `${pathDir}:${process.env.PATH || '/usr/local/bin:/usr/bin:/bin'}`,
      HOME: home,
      CODEX_HOME: codexHome,
      XDG_CONFIG_HOME: join(home, '.config'),
      XDG_CACHE_HOME: join(home, '.cache'),
      XDG_DATA_HOME: join(home, '.local', 'share'),
      XDG_STATE_HOME: join(home, '.local', 'state'),
      TMPDIR: tmp,
      LANG: process.env.LANG || 'C.UTF-8',
      TERM: 'dumb',
      NO_COLOR: '1',
      CI: 'true',
      RUST_LOG: process.env.CODEX_DRIVER_RUST_LOG || 'warn',
      CODEX_MANAGED_PACKAGE_ROOT: packageRoot,
      CODEX_MANAGED_BY_NPM: '1',
      ...env,
    };
    const args = ['exec', '--skip-git-repo-check', '--ephemeral', '--color', 'never', '--json', '-C', work,
      prompt || `Use the read tool to read ${toolArgs && toolArgs.file_path ? toolArgs.file_path : 'the file'} and summarise it.`];

    child = spawn(bin, args, { cwd: work, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    child.stdout.on('data', (d) => { stdout += d; if (stdout.length > 4e6) stdout = stdout.slice(-2e6); });
    child.stderr.on('data', (d) => { stderr += d; if (stderr.length > 4e6) stderr = stderr.slice(-2e6); });
    const exited = new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
    let timer;
    const timedOut = new Promise((resolve) => { timer = setTimeout(() => resolve('timeout'), timeoutMs); });
    const killGroup = (sig) => { try { process.kill(-child.pid, sig); } catch { /* gone */ } };

    const first = await Promise.race([exited, timedOut]);
    if (first === 'timeout') {
      killGroup('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
      killGroup('SIGKILL');
      clearTimeout(timer);
      throw new Error(`codex driver: codex exec did not finish within ${timeoutMs} ms (mock saw ${mock.requests.length} request(s), family=${mock.state.family}, follow-up ${mock.state.followUp ? 'captured' : 'not captured'}).\nstderr tail:\n${stderr.slice(-3000)}`);
    }
    clearTimeout(timer);
    killGroup('SIGKILL'); // stray children (MCP server) if any

    const shim = parseShimLog(shimLog);
    if (!mock.state.followUp) {
      throw new Error(`codex driver: no follow-up request carried the read tool's output (codex exit ${first.code}${first.signal ? ' ' + first.signal : ''}, family=${mock.state.family}, ${mock.requests.length} model request(s) answered ${mock.requests.map((r) => r.reply).join(',')}, ${mock.state.searches} search(es), MCP methods: ${(shim.clientInfo?.methods || []).join(',') || 'none'}).\nstderr tail:\n${stderr.slice(-3000)}\nstdout tail:\n${stdout.slice(-2000)}`);
    }
    if (first.code !== 0) notes.push(`codex exec exited with ${first.code}${first.signal ? ' ' + first.signal : ''}`);

    const item = mock.state.outputItem;
    const received = normaliseOutput(item.output);
    if (mock.state.family === 'code_mode') notes.push(`the model only has the JavaScript "exec" tool; our tool is reachable inside it as tools.${mock.state.toolName}(...)`);
    else if (mock.state.namespace) notes.push(`offered to the model as function "${mock.state.toolName.slice(mock.state.namespace.replace(/_+$/, '').length + 2)}" in namespace "${mock.state.namespace}" (qualified ${mock.state.toolName})`);
    notes.push(`model ${model || '(Codex default)'}: tool wiring "${mock.state.family}"` + (mock.state.family === 'tool_search' ? ' (mock answered a tool_search_call first; the tool came back in tool_search_output)' : '')
      + (mock.state.family === 'code_mode' ? ` (mock ran JS in exec; received = what that script passed to text()/image()/audio(); script mode ${typeof codeMode === 'string' && codeMode.length < 20 ? codeMode : 'custom'})` : ''));
    notes.push(`result item type ${item.type}; output is ${typeof item.output === 'string' ? 'a string' : Array.isArray(item.output) ? `an array of ${item.output.length} content item(s)` : typeof item.output}`);
    const extraKeys = Object.keys(item).filter((k) => !['type', 'call_id', 'output', 'id'].includes(k));
    if (extraKeys.length) notes.push(`output item has extra keys: ${extraKeys.join(', ')}`);
    for (const p of received) if (p.type === 'image' && p.detail !== undefined) { notes.push(`input_image detail=${JSON.stringify(p.detail)}`); break; }
    const later = mock.requests.filter((r) => r.reply === 'other' || r.reply === '404');
    if (later.length) notes.push(`mock also got ${later.length} other request(s): ${later.map((r) => `${r.method} ${r.url}`).join(', ')}`);
    if (shim.toolsCall?.msg?.result) {
      const r = shim.toolsCall.msg.result;
      notes.push(`server answered tools/call with [${r.content.map((b) => `${b.type}:${b.chars}`).join(', ')}]${r.isError ? ' isError' : ''}${r.structuredContent ? ' +structuredContent' : ''}`);
    }

    return {
      received,
      // The Responses API has no error flag on function_call_output / custom_tool_call_output.
      isError: null,
      raw: mock.state.followUp,
      toolName: mock.state.toolName,
      toolNamespace: mock.state.namespace,
      clientInfo: shim.clientInfo,
      notes,
      family: mock.state.family,
      model,
      hostVersion: PINNED_VERSION,
      outputItem: item,
      searchOutput: mock.state.searchOutput,
      script: mock.state.script,
      requests: mock.requests.map((r) => ({ n: r.n, method: r.method, url: r.url, reply: r.reply })),
      events: stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => { try { return JSON.parse(l); } catch { return null; } }).filter(Boolean),
      mcpLog: shim.messages,
      stderr,
      stdout,
    };
  } finally {
    if (child && child.exitCode === null && child.signalCode === null) { try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ } }
    await mock.close();
    if (!keepScratch) rmSync(scratch, { recursive: true, force: true });
    else notes.push(`scratch kept at ${scratch}`);
  }
}
