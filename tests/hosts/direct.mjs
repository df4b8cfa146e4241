#!/usr/bin/env node
// A minimal stdio MCP client for the host suite: spawns mcp-read, calls `read` once while
// presenting itself the way a given host does (clientInfo, protocol version, capabilities), and
// returns the CallToolResult exactly as mcp-read sent it: "what mcp-read sent to that host".
//
// Protocol versions before 2026-07-28 go through initialize + notifications/initialized; for
// 2026-07-28 (as Claude Code and the AI SDK speak it) every request is stateless: its
// params._meta carries io.modelcontextprotocol/protocolVersion, …/clientInfo and
// …/clientCapabilities. Requests from the server (roots/list, ping, elicitation) are answered:
// roots/list with the read root, elicitation declined.
//
//   node tests/hosts/direct.mjs MCPREAD ROOT '{"file_path":"/abs/file"}' \
//        [--client NAME/VERSION] [--protocol VERSION] [--capabilities JSON]
// prints {result | error, protocolVersion, elapsedMs} as JSON.
//   node tests/hosts/direct.mjs --record LOGFILE -- MCPREAD [ARGS...]   (see record() below)
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { pathToFileURL, fileURLToPath } from 'node:url';
import path from 'node:path';
import { lineSplitter, parseLine, relay } from './common/relay.mjs';

export const STATELESS_VERSION = '2026-07-28';
const META = 'io.modelcontextprotocol/';

/**
 * @param {object} o
 * @param {string} o.mcpRead
 * @param {string} o.root
 * @param {object} o.args              arguments of the read call
 * @param {{name:string, version:string, title?:string}} o.clientInfo
 * @param {string} [o.protocolVersion] default 2025-06-18
 * @param {object} [o.capabilities]    client capabilities announced (default {})
 * @param {string[]} [o.serverArgs]    extra mcp-read options, before the root
 * @param {string} [o.tool]            default "read"
 * @param {number} [o.timeoutMs]
 * @returns {Promise<{result?:object, error?:object, protocolVersion:string, negotiated?:string, elapsedMs:number, stderr:string}>}
 */
export async function callRead({ mcpRead, root, args, clientInfo, protocolVersion = '2025-06-18', capabilities = {}, serverArgs = [], tool = 'read', timeoutMs = 60000 }) {
  const t0 = Date.now();
  const child = spawn(mcpRead, [...serverArgs, root], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, MCP_READ_LOG_LEVEL: process.env.MCP_READ_LOG_LEVEL || 'warn' } });
  let stderr = '';
  child.stderr.on('data', (d) => { if (stderr.length < 100000) stderr += d; });
  child.stdin.on('error', () => {});
  const pending = new Map();
  let nextId = 1;
  let exited = null;
  const exitP = new Promise((resolve) => child.on('close', (code, signal) => { exited = { code, signal }; resolve(); }));
  const send = (m) => child.stdin.write(JSON.stringify(m) + '\n');
  const rootUri = pathToFileURL(path.resolve(root)).href;
  const onMessage = (m) => {
    if (m.method && m.id !== undefined) { // a request from the server
      if (m.method === 'roots/list') send({ jsonrpc: '2.0', id: m.id, result: { roots: [{ uri: rootUri, name: path.basename(root) }] } });
      else if (m.method === 'ping') send({ jsonrpc: '2.0', id: m.id, result: {} });
      else if (m.method === 'elicitation/create') send({ jsonrpc: '2.0', id: m.id, result: { action: 'decline' } });
      else send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: `direct.mjs: ${m.method} not supported` } });
      return;
    }
    if (m.id !== undefined && pending.has(m.id)) { pending.get(m.id)(m); pending.delete(m.id); }
  };
  child.stdout.on('data', lineSplitter((line) => { for (const x of parseLine(line) || []) onMessage(x); }));
  const request = (method, params) => new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, resolve);
    send({ jsonrpc: '2.0', id, method, params });
    exitP.then(() => { if (pending.has(id)) reject(new Error(`mcp-read exited (${JSON.stringify(exited)}) before answering ${method}; stderr: ${stderr.slice(-1000)}`)); });
  });
  let timer;
  const timeout = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`direct.mjs: no answer within ${timeoutMs} ms`)), timeoutMs); });
  try {
    const work = (async () => {
      const stateless = protocolVersion >= STATELESS_VERSION;
      let negotiated = protocolVersion;
      let callParams = { name: tool, arguments: args };
      if (stateless) {
        callParams._meta = {
          [`${META}protocolVersion`]: protocolVersion,
          [`${META}clientInfo`]: clientInfo,
          [`${META}clientCapabilities`]: capabilities || {},
        };
      } else {
        const init = await request('initialize', { protocolVersion, capabilities: capabilities || {}, clientInfo });
        if (init.error) return { error: init.error, protocolVersion, stage: 'initialize' };
        negotiated = init.result.protocolVersion;
        send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      }
      const r = await request('tools/call', callParams);
      return r.error ? { error: r.error, protocolVersion, negotiated } : { result: r.result, protocolVersion, negotiated };
    })();
    const out = await Promise.race([work, timeout]);
    return { ...out, elapsedMs: Date.now() - t0, stderr };
  } finally {
    clearTimeout(timer);
    try { child.stdin.end(); } catch {}
    const t = setTimeout(() => { try { child.kill('SIGKILL'); } catch {} }, 2000);
    await exitP;
    clearTimeout(t);
  }
}

// ------------------------------------------------------------------------ recorder
// `node direct.mjs --record LOGFILE -- COMMAND [ARGS...]` runs COMMAND (mcp-read) as a transparent
// stdio relay and appends one JSON line per answer to a tools/call to LOGFILE:
// {id, isError, error, blocks: [{type, sha256}]} where sha256 is that of JSON.stringify(block).
// The suite puts it between a host and mcp-read to check that the host got the answer direct.mjs
// got.
export const blockDigest = (b) => ({ type: b && b.type, sha256: createHash('sha256').update(JSON.stringify(b)).digest('hex') });

function record(logFile, command, args) {
  const calls = new Set();
  const log = (rec) => { try { appendFileSync(logFile, JSON.stringify(rec) + '\n'); } catch {} };
  const each = (line, fn) => { for (const x of parseLine(line) || []) if (x && typeof x === 'object') fn(x); };
  relay(command, args, {
    c2s: (line) => each(line, (m) => { if (m.method === 'tools/call' && m.id !== undefined) calls.add(JSON.stringify(m.id)); }),
    s2c: (line) => each(line, (m) => {
      if (m.id === undefined || !calls.has(JSON.stringify(m.id))) return;
      if (m.error) log({ id: m.id, error: m.error });
      else log({ id: m.id, isError: m.result?.isError === true, blocks: (m.result?.content || []).map(blockDigest) });
    }),
    error: (e) => process.stderr.write(`direct.mjs --record: ${e}\n`),
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1] && process.argv[2] === '--record') {
  const [, , , logFile, sep, command, ...args] = process.argv;
  if (!logFile || sep !== '--' || !command) { console.error('usage: node direct.mjs --record LOGFILE -- COMMAND [ARGS...]'); process.exit(2); }
  record(logFile, command, args);
} else if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const a = process.argv.slice(2);
  const opt = (name, dflt) => { const i = a.indexOf(name); if (i < 0) return dflt; const v = a[i + 1]; a.splice(i, 2); return v; };
  const client = opt('--client', 'mcp-read-host-suite/1.0');
  const protocolVersion = opt('--protocol', '2025-06-18');
  const capabilities = JSON.parse(opt('--capabilities', '{}'));
  const [mcpRead, root, argsJson] = a;
  if (!mcpRead || !root || !argsJson) {
    console.error("usage: node direct.mjs MCPREAD ROOT '{\"file_path\":\"...\"}' [--client NAME/VERSION] [--protocol VERSION] [--capabilities JSON]");
    process.exit(2);
  }
  const [name, version = '0'] = client.split('/');
  const r = await callRead({ mcpRead: path.resolve(mcpRead), root, args: JSON.parse(argsJson), clientInfo: { name, version }, protocolVersion, capabilities });
  delete r.stderr;
  process.exitCode = r.error ? 1 : 0;
  process.stdout.write(JSON.stringify(r, null, 1) + '\n'); // no process.exit: a big answer must be flushed
}
