// A loopback mock of the Gemini API (generativelanguage v1beta) good enough for Gemini CLI.
//
// - The "main" request is the one whose tools carry a functionDeclaration of the MCP server
//   named `read` (Gemini CLI names it mcp_read_<tool>). The first such request (no
//   functionResponse for our tool in its contents yet) is answered with a functionCall of that
//   tool with the test's arguments; the first one holding a functionResponse for it is captured
//   as the follow-up and answered with a short final text.
// - Every other generate call (classifier/router, next-speaker check, loop detection, summaries,
//   ...) is answered with JSON that fits the schema it asked for (or a short text), countTokens
//   with an estimate, anything else with an empty JSON object. Every request is logged.
import { bodyServer, listenLoopback, parseJson } from '../common/http.mjs';

const FINAL_TEXT = 'Done.';

function usage(promptChars) {
  const p = Math.max(1, Math.ceil(promptChars / 4));
  return { promptTokenCount: p, candidatesTokenCount: 3, totalTokenCount: p + 3 };
}

// Build a value that satisfies a (JSON or OpenAPI-style) schema, with a few known fields chosen
// so that Gemini CLI's utility calls take the quiet path.
function fill(schema, key, opts = {}) {
  if (!schema || typeof schema !== 'object') return null;
  const known = {
    next_speaker: 'user', // nothing more for the model to say: let the CLI finish
    confidence: 0, // loop detection: no loop
    unproductive_state_confidence: 0,
    // Router (model "auto"): Gemini CLI routes to Pro when the score is >= 90 (its default
    // threshold), else to Flash. Its own few-shot example scores "Simple read operation." 10.
    complexity_score: opts.route === 'pro' ? 95 : 10,
    complexity_reasoning: opts.route === 'pro' ? 'Complex task.' : 'Simple read operation.',
    model_choice: opts.route === 'pro' ? 'pro' : 'flash',
  };
  if (key in known) return known[key];
  const type = String(schema.type || (schema.properties ? 'object' : 'string')).toLowerCase();
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  switch (type) {
    case 'object': {
      const o = {};
      for (const [k, v] of Object.entries(schema.properties || {})) o[k] = fill(v, k, opts);
      return o;
    }
    case 'array': return [];
    case 'number': case 'integer': return 0;
    case 'boolean': return false;
    default: return key === 'reasoning' ? 'mock' : 'mock';
  }
}

// Gemini CLI exposes MCP tool T of server S as `mcp_S_T` (characters outside [A-Za-z0-9_.:-]
// replaced by "_", names over 63 characters shortened in the middle).
// Rough token count in the spirit of the real countTokens: text by length, media by a fixed
// per-item cost (the real API counts images by resolution, not by their byte size).
function countTokens(parts, depth = 0) {
  let n = 0;
  for (const p of parts || []) {
    if (typeof p.text === 'string') n += p.text.length / 4;
    else if (p.inlineData || p.fileData) {
      const mime = (p.inlineData || p.fileData).mimeType || '';
      n += mime.startsWith('image/') ? 1120 : mime === 'application/pdf' ? 2580 : 1000;
    } else if (p.functionResponse) {
      n += JSON.stringify(p.functionResponse.response ?? {}).length / 4;
      if (depth < 3) n += countTokens(p.functionResponse.parts, depth + 1);
    } else n += JSON.stringify(p).length / 4;
  }
  return n;
}

function findOurTool(body, serverName, toolName) {
  const want = `mcp_${serverName}_${toolName}`.replace(/[^a-zA-Z0-9_\-.:]/g, '_');
  const names = [];
  for (const t of body?.tools || []) {
    for (const fd of t.functionDeclarations || []) if (typeof fd.name === 'string') names.push(fd.name);
  }
  if (names.includes(want)) return want;
  return names.find((n) => n.startsWith(`mcp_${serverName}_`) && n.endsWith(`_${toolName}`)) || null;
}

function hasOurFunctionResponse(body, toolName) {
  for (const c of body?.contents || []) {
    for (const p of c.parts || []) {
      if (p.functionResponse && p.functionResponse.name === toolName) return true;
    }
  }
  return false;
}

function modelOf(url) {
  const m = /\/models\/([^:/?]+)/.exec(url);
  return m ? decodeURIComponent(m[1]) : null;
}

export async function startMock({ toolArgs, serverName = 'read', toolName = 'read', route = 'flash', onLog } = {}) {
  const state = {
    log: [], // every request: {method, url, model, kind, bytes}
    toolName: null,
    toolCallSent: false,
    mainModel: null,
    followUp: null, // parsed body of the follow-up request
    followUpModel: null,
    followUpResolve: null,
    errors: [],
  };
  const followUpPromise = new Promise((r) => { state.followUpResolve = r; });

  function sendGenerate(res, url, response) {
    const stream = url.includes(':streamGenerateContent');
    if (stream) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
      res.end(`data: ${JSON.stringify(response)}\r\n\r\n`);
    } else {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(response));
    }
  }

  const server = bodyServer((req, res, raw) => {
    const body = parseJson(raw.toString('utf8'));
    const url = req.url || '';
    const model = modelOf(url);
    const entry = { method: req.method, url, model, bytes: raw.length, kind: 'other' };
    state.log.push(entry);
    try {
      if (req.method === 'POST' && /:(stream)?[gG]enerateContent/.test(url)) {
        const ourTool = findOurTool(body, serverName, toolName);
        const modelVersion = model || 'mock';
        if (ourTool) {
          state.toolName = ourTool;
          if (hasOurFunctionResponse(body, ourTool)) {
            entry.kind = 'followup';
            if (!state.followUp) {
              state.followUp = body;
              state.followUpModel = model;
              state.followUpResolve(body);
            }
            sendGenerate(res, url, {
              candidates: [{ content: { role: 'model', parts: [{ text: FINAL_TEXT }] }, finishReason: 'STOP', index: 0 }],
              usageMetadata: usage(raw.length), modelVersion,
            });
            return;
          }
          if (!state.toolCallSent) {
            entry.kind = 'main-first';
            state.toolCallSent = true;
            state.mainModel = model;
            sendGenerate(res, url, {
              candidates: [{
                content: { role: 'model', parts: [{ functionCall: { name: ourTool, args: toolArgs || {} } }] },
                finishReason: 'STOP', index: 0,
              }],
              usageMetadata: usage(raw.length), modelVersion,
            });
            return;
          }
          entry.kind = 'main-again';
        } else {
          entry.kind = 'utility';
        }
        const gc = body?.generationConfig || {};
        const schema = gc.responseJsonSchema || gc.responseSchema;
        let text = FINAL_TEXT;
        if (schema) text = JSON.stringify(fill(schema, '', { route }));
        else if (gc.responseMimeType === 'application/json') text = '{}';
        entry.answer = text.slice(0, 200);
        sendGenerate(res, url, {
          candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }],
          usageMetadata: usage(raw.length), modelVersion,
        });
        return;
      }
      if (req.method === 'POST' && url.includes(':countTokens')) {
        entry.kind = 'countTokens';
        res.writeHead(200, { 'content-type': 'application/json' });
        const parts = (body?.contents || []).flatMap((c) => c.parts || []);
        res.end(JSON.stringify({ totalTokens: Math.max(1, Math.ceil(countTokens(parts))) }));
        return;
      }
      if (req.method === 'POST' && url.includes(':embedContent')) {
        entry.kind = 'embed';
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ embedding: { values: [0] } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    } catch (e) {
      state.errors.push(String(e?.stack || e));
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 500, message: String(e), status: 'INTERNAL' } }));
    } finally {
      if (onLog) onLog(entry, body);
    }
  });
  return { ...await listenLoopback(server), state, followUp: followUpPromise };
}
