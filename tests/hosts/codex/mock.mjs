// Loopback mock of the OpenAI Responses API (POST /v1/responses, stream:true, SSE) for Codex CLI.
//
// Conversation it plays, whatever tool wiring Codex chose for the model:
//   direct      our tool is in `tools` (a `namespace` "mcp__read" holding function "read"):
//               1st reply = function_call {namespace, name, arguments: toolArgs}
//   tool_search our tool is deferred behind the client-executed `tool_search` tool:
//               1st reply = tool_search_call {query}; Codex answers with a tool_search_output
//               listing the tool; 2nd reply = function_call of the tool it listed (a search
//               that does not list it, run before Codex listed its MCP tools, is made again)
//   code_mode   the model only gets the freeform `exec` tool (JavaScript run by Codex, MCP tools
//               reachable as `tools.mcp__read__read(...)`): 1st reply = custom_tool_call "exec"
//               whose script calls our tool and forwards its blocks with text()/image()/audio()
// The request that carries the output of our call (function_call_output / custom_tool_call_output)
// is recorded as the follow-up and answered with a short final message, so `codex exec` exits.
// Every request is kept in `requests` (parsed) for debugging.
import { bodyServer, listenLoopback, parseJson } from '../common/http.mjs';

const USAGE = {
  input_tokens: 10, input_tokens_details: { cached_tokens: 0 },
  output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15,
};

export const READ_CALL_ID = 'call_read_1';
export const SEARCH_CALL_ID = 'call_search_1';

// Code-mode scripts: what "the model" writes in `exec`. `forward` hands each MCP block to the
// helper meant for it (what a well-behaved model does); `json` prints the raw CallToolResult.
export const CODE_MODE_SCRIPTS = {
  forward: (jsName, args) => [
    `const r = await tools.${jsName}(${JSON.stringify(args)});`,
    `if (typeof r === 'string') { text(r); } else {`,
    `  for (const b of (r && r.content) || []) {`,
    `    if (b.type === 'text') text(b.text);`,
    `    else if (b.type === 'image') image(b);`,
    `    else if (b.type === 'audio') audio(b);`,
    `    else text(JSON.stringify(b));`,
    `  }`,
    `  if (r && r.isError) text('[isError: true]');`,
    `}`,
  ].join('\n'),
  json: (jsName, args) => `const r = await tools.${jsName}(${JSON.stringify(args)});\ntext(JSON.stringify(r));`,
};

function sse(res, events) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  for (const e of events) res.write(`event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`);
  res.end();
}

function itemEvents(respId, items) {
  const ev = [{ type: 'response.created', response: { id: respId, status: 'in_progress', output: [] } }];
  items.forEach((item, i) => {
    ev.push({ type: 'response.output_item.added', output_index: i, item: { ...item, status: 'in_progress' } });
    ev.push({ type: 'response.output_item.done', output_index: i, item: { ...item, status: 'completed' } });
  });
  ev.push({ type: 'response.completed', response: { id: respId, status: 'completed', output: items, usage: USAGE } });
  return ev;
}

const message = (id, text) => ({ type: 'message', role: 'assistant', id, content: [{ type: 'output_text', text, annotations: [] }] });

// Walk a tools array (top-level `tools`, an `additional_tools` item's tools, or a
// tool_search_output's tools) and find our MCP tool: {namespace, name} or null.
export function findReadTool(tools, server = 'read', tool = 'read') {
  const flat = `mcp__${server}__${tool}`;
  const walk = (list, ns) => {
    for (const t of list || []) {
      if (!t || typeof t !== 'object') continue;
      if (t.type === 'namespace' && Array.isArray(t.tools)) {
        const hit = walk(t.tools, t.name);
        if (hit) return hit;
      } else if (t.type === 'function') {
        if (t.name === flat) return { namespace: ns, name: t.name };
        if (ns && ns.replace(/_+$/, '') === `mcp__${server}` && t.name === tool) return { namespace: ns, name: t.name };
      }
    }
    return null;
  };
  return walk(tools, undefined);
}

// Codex's qualified name: namespace "mcp__read" + function "read" -> "mcp__read__read".
function qualified(hit) {
  if (!hit.namespace) return hit.name;
  return hit.namespace.endsWith('__') ? `${hit.namespace}${hit.name}` : `${hit.namespace}__${hit.name}`;
}

function hasCodeModeExec(body) {
  const lists = [body.tools || []];
  for (const it of body.input || []) if (it && it.type === 'additional_tools') lists.push(it.tools || []);
  const walk = (list) => (list || []).some((t) => t && ((t.type === 'custom' && t.name === 'exec') || (t.type === 'namespace' && walk(t.tools))));
  return lists.some(walk);
}

function allTools(body) {
  const out = [...(body.tools || [])];
  for (const it of body.input || []) if (it && it.type === 'additional_tools') out.push(...(it.tools || []));
  return out;
}

export async function startMock({ toolArgs, codeMode = 'forward', finalText = 'Done.', server = 'read', tool = 'read', onRequest } = {}) {
  const requests = [];
  const state = { family: null, toolName: null, namespace: null, followUp: null, outputItem: null, searchOutput: null, firstRequest: null, searches: 0 };
  let resolveFollowUp;
  const followUpPromise = new Promise((r) => { resolveFollowUp = r; });
  let n = 0;

  function plan(body) {
    const input = Array.isArray(body.input) ? body.input : [];
    const out = input.find((it) => it && (it.type === 'function_call_output' || it.type === 'custom_tool_call_output') && it.call_id === READ_CALL_ID);
    if (out) {
      if (!state.followUp) {
        state.followUp = body;
        state.outputItem = out;
        resolveFollowUp(body);
      }
      return { kind: 'final', items: [message(`msg_${n}`, finalText)] };
    }
    const searchId = state.searches > 1 ? `${SEARCH_CALL_ID}_${state.searches}` : SEARCH_CALL_ID;
    const search = input.find((it) => it && it.type === 'tool_search_output' && it.call_id === searchId);
    if (search) {
      state.searchOutput = search;
      const hit = findReadTool(search.tools) || findReadTool(allTools(body));
      // On a loaded machine Codex may run the search before its MCP servers' tools are listed:
      // search again, as a model would, a few times.
      if (!hit && state.searches < 4) return searchCall();
      if (!hit) return { kind: 'final', items: [message(`msg_${n}`, 'tool_search did not return the read tool')] };
      state.namespace = hit.namespace ?? null;
      state.toolName = qualified(hit);
      return { kind: 'call', items: [fnCall(hit)] };
    }
    if (state.family) {
      // Anything else once our call has been made (side requests): just answer.
      return { kind: 'other', items: [message(`msg_${n}`, finalText)] };
    }
    state.firstRequest = body;
    const direct = findReadTool(body.tools || []);
    if (direct) {
      state.family = 'direct';
      state.namespace = direct.namespace ?? null;
      state.toolName = qualified(direct);
      return { kind: 'call', items: [fnCall(direct)] };
    }
    if (hasCodeModeExec(body)) {
      state.family = 'code_mode';
      const jsName = `mcp__${server}__${tool}`.replace(/[^A-Za-z0-9_$]/g, '_');
      state.toolName = jsName;
      state.namespace = null;
      const script = typeof codeMode === 'function' ? codeMode(jsName, toolArgs)
        : (CODE_MODE_SCRIPTS[codeMode] || (() => codeMode))(jsName, toolArgs);
      state.script = script;
      return { kind: 'call', items: [{ type: 'custom_tool_call', id: 'ctc_1', call_id: READ_CALL_ID, name: 'exec', input: script }] };
    }
    if ((body.tools || []).some((t) => t && t.type === 'tool_search')) {
      state.family = 'tool_search';
      return searchCall();
    }
    state.family = 'none';
    return { kind: 'final', items: [message(`msg_${n}`, 'the read tool was not offered')] };
  }

  function searchCall() {
    state.searches += 1;
    const callId = state.searches > 1 ? `${SEARCH_CALL_ID}_${state.searches}` : SEARCH_CALL_ID;
    return { kind: 'search', items: [{ type: 'tool_search_call', id: `tsc_${state.searches}`, call_id: callId, execution: 'client', arguments: { query: `${server} ${tool} file`, limit: 8 } }] };
  }

  function fnCall(hit) {
    const item = { type: 'function_call', id: 'fc_1', call_id: READ_CALL_ID, name: hit.name, arguments: JSON.stringify(toolArgs ?? {}) };
    if (hit.namespace) item.namespace = hit.namespace;
    return item;
  }

  const srv = bodyServer((req, res, raw) => {
    n += 1;
    const body = parseJson(raw.toString('utf8'), 2000);
    const rec = { n, method: req.method, url: req.url, headers: req.headers, body };
    requests.push(rec);
    if (onRequest) { try { onRequest(rec); } catch { /* ignore */ } }
    if (req.method === 'POST' && /\/responses$/.test(req.url.split('?')[0]) && body && typeof body === 'object') {
      const p = plan(body);
      rec.reply = p.kind;
      sse(res, itemEvents(`resp_${n}`, p.items));
      return;
    }
    if (req.method === 'GET' && /\/models$/.test(req.url.split('?')[0])) {
      rec.reply = 'models';
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [], models: [] }));
      return;
    }
    rec.reply = '404';
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: 'not mocked', type: 'invalid_request_error' } }));
  });
  const { port, url, close } = await listenLoopback(srv);
  return { port, baseUrl: `${url}/v1`, requests, state, followUp: followUpPromise, close };
}
