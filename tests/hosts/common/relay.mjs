// Newline-delimited JSON-RPC over stdio, shared by the hosts' logging shims, direct.mjs (its
// client and its --record relay) and the stand-in servers: a line splitter, and a relay that runs
// an MCP server as a child and passes bytes through unchanged both ways while watching the lines.
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';

/**
 * Returns a function to feed chunks (Buffers) with; it calls onLine(line) for each non-blank line,
 * without its "\n". It works on bytes (a character split between two chunks stays whole) and keeps
 * the chunks of an unfinished line in a list, so a multi-megabyte line (base64 images) costs linear
 * time.
 */
export function lineSplitter(onLine) {
  let parts = [];
  return (chunk) => {
    let start = 0;
    let i;
    while ((i = chunk.indexOf(10, start)) >= 0) {
      parts.push(chunk.subarray(start, i));
      const line = Buffer.concat(parts).toString('utf8');
      parts = [];
      start = i + 1;
      if (line.trim()) onLine(line);
    }
    if (start < chunk.length) parts.push(chunk.subarray(start));
  };
}

/**
 * Runs `command args` with stdin and stdout piped (stderr inherited) and relays this process's
 * stdin to it and its stdout back, byte for byte. c2s(line) / s2c(line) see each line of either
 * direction (before it is passed on); exit(code, signal) and error(e) are told before this process
 * exits with the child's status (1 when a signal ended it) or 127 when it could not start.
 * SIGTERM, SIGINT and SIGHUP are passed on to the child.
 */
export function relay(command, args, { c2s, s2c, exit, error } = {}) {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const fromClient = c2s ? lineSplitter(c2s) : null;
  const fromServer = s2c ? lineSplitter(s2c) : null;
  process.stdin.on('data', (d) => { fromClient?.(d); child.stdin.write(d); });
  process.stdin.on('end', () => child.stdin.end());
  process.stdin.on('error', () => {});
  process.stdout.on('error', () => {});
  child.stdin.on('error', () => {});
  child.stdout.on('data', (d) => { fromServer?.(d); process.stdout.write(d); });
  child.on('exit', (code, signal) => { exit?.(code, signal); process.exit(code ?? 1); });
  child.on('error', (e) => { error?.(e); process.exit(127); });
  for (const s of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(s, () => { try { child.kill(s); } catch { /* gone */ } });
  return child;
}

/** The JSON-RPC messages of one line (several for a batch), or null when the line is not JSON. */
export function parseLine(line) {
  let m;
  try { m = JSON.parse(line); } catch { return null; }
  return Array.isArray(m) ? m : [m];
}

// A tools/call answer as logged: each content block as its type and JSON size, structuredContent
// as a mark, so that big answers don't bloat the log.
function summarise(m) {
  if (m && m.result && Array.isArray(m.result.content)) {
    const content = m.result.content.map((b) => ({ type: b && b.type, chars: JSON.stringify(b).length }));
    const { structuredContent, ...rest } = m.result;
    return { ...m, result: { ...rest, content, ...(structuredContent !== undefined ? { structuredContent: '[present]' } : {}) } };
  }
  return m;
}

/**
 * The logging shim each host driver puts between its host and mcp-read:
 * argv = [LOGFILE, COMMAND, ...ARGS]. Relays stdio unchanged (see relay()) and appends each
 * JSON-RPC message of either direction to LOGFILE as one JSON line {t, dir: "c2s"|"s2c", msg}
 * (a batch as an array; a line that is not JSON as {unparsed: its first 300 characters}), with
 * tools/call answers summarised; then {t, dir: "exit", code, signal} or {t, dir: "error", error}.
 * The drivers read the client's clientInfo, protocol version and methods from it.
 */
export function loggingShim([logFile, command, ...args]) {
  if (!logFile || !command) {
    process.stderr.write('usage: shim.mjs LOGFILE COMMAND [ARGS...]\n');
    process.exit(2);
  }
  const log = (record) => { try { appendFileSync(logFile, JSON.stringify({ t: Date.now(), ...record }) + '\n'); } catch { /* ignore */ } };
  const logLine = (dir) => (line) => {
    let msg;
    try { msg = JSON.parse(line.trim()); } catch { msg = { unparsed: line.trim().slice(0, 300) }; }
    log({ dir, msg: Array.isArray(msg) ? msg.map(summarise) : summarise(msg) });
  };
  return relay(command, args, {
    c2s: logLine('c2s'),
    s2c: logLine('s2c'),
    exit: (code, signal) => log({ dir: 'exit', code, signal }),
    error: (e) => log({ dir: 'error', error: String(e) }),
  });
}
