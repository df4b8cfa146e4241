// A loopback mock of the Anthropic Messages API, just enough for Claude Code.
//
// - POST /v1/messages (stream or not). The "main conversation" request is the one whose `tools`
//   offer the MCP read tool (mcp__read__read), or, when Claude Code defers MCP tools, the
//   ToolSearch tool while the conversation has not yet used it. The mock answers it with a call of
//   the read tool (after a ToolSearch call when the tool is deferred), and when the follow-up holds
//   the matching tool_result it records that request and answers a short final text.
// - Any other /v1/messages request (title generation, quota checks, …) gets a short text reply.
// - POST /v1/messages/count_tokens gets a rough count.
// - Anything else: a 404 in the API's error format.
// Every request is kept in `requests` (method, url, body) for debugging.
import { bodyServer, listenLoopback, parseJson } from '../common/http.mjs';
import { imageDims } from '../common/png.mjs';

const MODEL_FALLBACK = 'claude-sonnet-4-5';

function sse(res, events) {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'request-id': 'req_mock',
  });
  for (const [event, data] of events) {
    res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }
  res.end();
}

// Build the SSE event list of one assistant message from its content blocks.
function messageEvents(message) {
  const { content, ...head } = message;
  const events = [['message_start', { type: 'message_start', message: { ...head, content: [], stop_reason: null, stop_sequence: null, usage: { ...message.usage, output_tokens: 1 } } }]];
  content.forEach((block, index) => {
    if (block.type === 'text') {
      events.push(['content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } }]);
      events.push(['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text } }]);
    } else if (block.type === 'tool_use') {
      events.push(['content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } }]);
      events.push(['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } }]);
    }
    events.push(['content_block_stop', { type: 'content_block_stop', index }]);
  });
  events.push(['message_delta', { type: 'message_delta', delta: { stop_reason: message.stop_reason, stop_sequence: null }, usage: { output_tokens: message.usage.output_tokens } }]);
  events.push(['message_stop', { type: 'message_stop' }]);
  return events;
}

let counter = 0;
function makeMessage(model, content, stopReason) {
  counter += 1;
  return {
    id: `msg_mock_${process.pid}_${counter}`,
    type: 'message',
    role: 'assistant',
    model: model || MODEL_FALLBACK,
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
  };
}

// Pixel size of a PNG, JPEG, GIF or WebP given as base64, or null.
function imageSize(b64) {
  let d;
  try { d = Buffer.from(b64.slice(0, 200000), 'base64'); } catch { return null; }
  const pngOrJpeg = imageDims(d);
  if (pngOrJpeg) return pngOrJpeg;
  if (d.length > 10 && d.toString('latin1', 0, 3) === 'GIF') return [d.readUInt16LE(6), d.readUInt16LE(8)];
  if (d.length > 30 && d.toString('latin1', 0, 4) === 'RIFF' && d.toString('latin1', 8, 12) === 'WEBP') {
    const kind = d.toString('latin1', 12, 16);
    if (kind === 'VP8X') return [1 + d.readUIntLE(24, 3), 1 + d.readUIntLE(27, 3)];
    if (kind === 'VP8L') { const b = d.readUInt32LE(21); return [1 + (b & 0x3fff), 1 + ((b >> 14) & 0x3fff)]; }
    if (kind === 'VP8 ') return [d.readUInt16LE(26) & 0x3fff, d.readUInt16LE(28) & 0x3fff];
  }
  return null;
}

// A deterministic stand-in for the API's token count. Claude Code asks for one before passing a
// large MCP result (its own estimate: characters / 4, 1,600 per image, over 12,500) and cuts or
// replaces the result when the count exceeds MAX_MCP_OUTPUT_TOKENS (25,000). This one counts
// about 4 ASCII characters per token, one token per other character, an image as one token per
// 28x28 patch (ceil(w/28)*ceil(h/28); 1,600 when its size can't be read), a document as 1,600.
export function estimateTokens(body) {
  let ascii = 0;
  let other = 0;
  let media = 0;
  const walk = (v, key) => {
    if (typeof v === 'string') {
      if (key === 'data') return; // base64 of an image or document: counted as media
      for (const ch of v) { if (ch.codePointAt(0) < 128) ascii += 1; else other += 1; }
    } else if (Array.isArray(v)) v.forEach((x) => walk(x));
    else if (v && typeof v === 'object') {
      if ((v.type === 'image' || v.type === 'document') && v.source) {
        const size = v.type === 'image' && v.source.type === 'base64' ? imageSize(v.source.data || '') : null;
        media += size ? Math.ceil(size[0] / 28) * Math.ceil(size[1] / 28) : 1600;
      }
      for (const [k, x] of Object.entries(v)) walk(x, k);
    }
  };
  walk(body.messages);
  walk(body.system);
  walk(body.tools);
  return ascii / 4 + other + media;
}

function toolResults(body) {
  const out = [];
  for (const m of body.messages || []) {
    if (m.role !== 'user' || !Array.isArray(m.content)) continue;
    for (const b of m.content) if (b && b.type === 'tool_result') out.push(b);
  }
  return out;
}

/**
 * Start the mock. `toolArgs` are the arguments of the read call it makes.
 * Returns { port, url, state, close() } where state = { requests, mainRequests, followUp,
 * toolName, toolUseId, searched, errors }.
 */
export async function startMock({ toolArgs, toolPrefix = 'mcp__read__', onRequest, countTokens } = {}) {
  const state = { requests: [], mainRequests: [], followUp: null, toolName: null, toolUseId: null, searched: false, errors: [] };
  const readToolId = `toolu_mock_read_${process.pid}`;
  const searchToolId = `toolu_mock_search_${process.pid}`;

  const server = bodyServer((req, res, raw) => {
    const body = parseJson(raw.toString('utf8'), 500);
    const entry = { method: req.method, url: req.url, headers: { 'user-agent': req.headers['user-agent'], 'anthropic-beta': req.headers['anthropic-beta'] }, body };
    state.requests.push(entry);
    if (onRequest) { try { onRequest(entry); } catch {} }
    try {
      route(req, res, body);
    } catch (e) {
      state.errors.push(String(e && e.stack || e));
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: String(e) } }));
    }
  });

  function reply(res, body, message) {
    if (body && body.stream) sse(res, messageEvents(message));
    else {
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': 'req_mock' });
      res.end(JSON.stringify(message));
    }
  }

  function route(req, res, body) {
    const path = (req.url || '').split('?')[0];
    if (req.method === 'POST' && path === '/v1/messages/count_tokens') {
      const n = Math.max(1, Math.round((countTokens || estimateTokens)(body || {})));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ input_tokens: n }));
      return;
    }
    if (req.method === 'POST' && path === '/v1/messages') {
      const tools = Array.isArray(body && body.tools) ? body.tools : [];
      const names = tools.map((t) => t && t.name).filter(Boolean);
      const readName = names.find((n) => n.startsWith(toolPrefix) && /read$/.test(n)) || names.find((n) => n.startsWith(toolPrefix));
      const hasSearch = names.includes('ToolSearch');
      const results = toolResults(body);
      const ours = results.find((r) => r.tool_use_id === readToolId);
      const searchDone = results.some((r) => r.tool_use_id === searchToolId);
      const model = body && body.model;
      const isMain = readName || (hasSearch && !ours);
      if (!isMain && !ours) {
        // Side request: title generation, quota check, etc.
        reply(res, body, makeMessage(model, [{ type: 'text', text: 'Read a file' }], 'end_turn'));
        return;
      }
      state.mainRequests.push(body);
      if (ours) {
        state.followUp = body;
        reply(res, body, makeMessage(model, [{ type: 'text', text: 'Done.' }], 'end_turn'));
        return;
      }
      if (readName && (!hasSearch || searchDone || !tools.find((t) => t.name === readName && t.defer_loading))) {
        state.toolName = readName;
        state.toolUseId = readToolId;
        reply(res, body, makeMessage(model, [{ type: 'tool_use', id: readToolId, name: readName, input: toolArgs || {} }], 'tool_use'));
        return;
      }
      if (hasSearch && !searchDone) {
        // MCP tools are deferred: load ours through ToolSearch first.
        state.searched = true;
        reply(res, body, makeMessage(model, [{ type: 'tool_use', id: searchToolId, name: 'ToolSearch', input: { query: `select:${toolPrefix}read`, max_results: 5 } }], 'tool_use'));
        return;
      }
      // ToolSearch was used but the read tool is still not offered: call it by its expected name.
      state.toolName = `${toolPrefix}read`;
      state.toolUseId = readToolId;
      reply(res, body, makeMessage(model, [{ type: 'tool_use', id: readToolId, name: state.toolName, input: toolArgs || {} }], 'tool_use'));
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: `mock: no route for ${req.method} ${path}` } }));
  }

  return { ...await listenLoopback(server), state };
}
