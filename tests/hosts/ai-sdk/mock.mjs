// Loopback mock of the four model APIs the AI SDK providers talk to (non-streaming; generateText
// never asks for a stream):
//   POST /v1/messages                         Anthropic Messages API
//   POST /v1/responses                        OpenAI Responses API
//   POST /v1/chat/completions                 OpenAI Chat Completions API
//   POST /v1beta/models/{model}:generateContent   Google Gemini API
// A request that carries no tool result gets a call of our tool (name taken from the request's
// tool list) with `toolArgs`; the first request carrying a tool result is recorded as the
// follow-up and answered with a short final text. Every request is logged in `requests`.
import { bodyServer, listenLoopback, parseJson } from '../common/http.mjs';

const FINAL_TEXT = 'Done.';

export function pickToolName(names) {
  if (names.includes('read')) return 'read';
  return names.find((n) => /(^|[^a-z])read$/i.test(n)) ?? names[0] ?? null;
}

// Per API: tool names offered, whether the request holds a tool result, the two replies.
const apis = {
  anthropic: {
    toolNames: (b) => (b.tools || []).map((t) => t.name).filter(Boolean),
    hasToolResult: (b) => (b.messages || []).some((m) => Array.isArray(m.content) && m.content.some((c) => c?.type === 'tool_result')),
    toolCall: (b, name, args) => ({
      id: 'msg_mock_1', type: 'message', role: 'assistant', model: b.model,
      content: [{ type: 'tool_use', id: 'toolu_mock_1', name, input: args }],
      stop_reason: 'tool_use', stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 5 },
    }),
    final: (b) => ({
      id: 'msg_mock_2', type: 'message', role: 'assistant', model: b.model,
      content: [{ type: 'text', text: FINAL_TEXT }],
      stop_reason: 'end_turn', stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 2 },
    }),
  },
  'openai-responses': {
    toolNames: (b) => (b.tools || []).map((t) => t.name ?? t.function?.name).filter(Boolean),
    hasToolResult: (b) => Array.isArray(b.input) && b.input.some((i) => i?.type === 'function_call_output'),
    toolCall: (b, name, args) => ({
      id: 'resp_mock_1', object: 'response', created_at: 1763900000, status: 'completed', model: b.model,
      output: [{ type: 'function_call', id: 'fc_mock_1', call_id: 'call_mock_1', name, arguments: JSON.stringify(args), status: 'completed' }],
      usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } },
    }),
    final: (b) => ({
      id: 'resp_mock_2', object: 'response', created_at: 1763900001, status: 'completed', model: b.model,
      output: [{ type: 'message', id: 'msg_mock_2', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: FINAL_TEXT, annotations: [] }] }],
      usage: { input_tokens: 10, output_tokens: 2, total_tokens: 12, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } },
    }),
  },
  'openai-chat': {
    toolNames: (b) => (b.tools || []).map((t) => t.function?.name ?? t.name).filter(Boolean),
    hasToolResult: (b) => (b.messages || []).some((m) => m?.role === 'tool'),
    toolCall: (b, name, args) => ({
      id: 'chatcmpl-mock-1', object: 'chat.completion', created: 1763900000, model: b.model,
      choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_mock_1', type: 'function', function: { name, arguments: JSON.stringify(args) } }] } }],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    }),
    final: (b) => ({
      id: 'chatcmpl-mock-2', object: 'chat.completion', created: 1763900001, model: b.model,
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: FINAL_TEXT } }],
      usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
    }),
  },
  google: {
    toolNames: (b) => (b.tools || []).flatMap((t) => (t.functionDeclarations || []).map((f) => f.name)).filter(Boolean),
    hasToolResult: (b) => (b.contents || []).some((c) => (c.parts || []).some((p) => p?.functionResponse)),
    toolCall: (b, name, args, model) => ({
      candidates: [{ index: 0, finishReason: 'STOP', content: { role: 'model', parts: [{ functionCall: { id: 'call_mock_1', name, args }, thoughtSignature: 'bW9jay10aG91Z2h0LXNpZ25hdHVyZQ==' }] } }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
      modelVersion: model, responseId: 'resp_mock_1',
    }),
    final: (b, model) => ({
      candidates: [{ index: 0, finishReason: 'STOP', content: { role: 'model', parts: [{ text: FINAL_TEXT }] } }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 2, totalTokenCount: 12 },
      modelVersion: model, responseId: 'resp_mock_2',
    }),
  },
};

function route(method, url) {
  if (method !== 'POST') return null;
  const p = url.split('?')[0];
  if (p === '/v1/messages') return { api: 'anthropic' };
  if (p === '/v1/responses') return { api: 'openai-responses' };
  if (p === '/v1/chat/completions') return { api: 'openai-chat' };
  const m = /^\/v1beta\/models\/([^/:]+):(generateContent|streamGenerateContent)$/.exec(p);
  if (m) return { api: 'google', model: decodeURIComponent(m[1]), stream: m[2] === 'streamGenerateContent' };
  return null;
}

/**
 * Start the mock on 127.0.0.1 (port 0). Returns
 * { url, port, requests, followUp: Promise<{api, path, body}>, close() }.
 */
export async function startMock({ toolArgs }) {
  const requests = [];
  let resolveFollowUp;
  const followUp = new Promise((r) => { resolveFollowUp = r; });
  let captured = null;
  let toolName = null;
  let toolCallSent = false;

  const server = bodyServer((req, res, raw) => {
    const text = raw.toString('utf8');
    const body = parseJson(text);
    const r = route(req.method, req.url);
    const entry = { t: Date.now(), method: req.method, path: req.url, api: r?.api ?? null, bytes: text.length, body };
    requests.push(entry);
    const send = (status, obj) => {
      const data = JSON.stringify(obj);
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) });
      res.end(data);
    };
    if (!r || !body) {
      entry.answer = 'not-found';
      return send(404, { error: { message: `mock: no route for ${req.method} ${req.url}` } });
    }
    if (r.stream || body.stream === true) {
      entry.answer = 'stream-refused';
      return send(400, { error: { message: 'mock: streaming not implemented (generateText does not stream)' } });
    }
    const api = apis[r.api];
    // The follow-up is the first request after our tool call (some shapes, e.g. Gemini 2.x's
    // "legacy" one for a file-only or empty result, carry no functionResponse at all).
    if (toolCallSent || api.hasToolResult(body)) {
      entry.answer = 'final';
      entry.hasToolResult = api.hasToolResult(body);
      if (!captured) { captured = { api: r.api, path: req.url, body }; resolveFollowUp(captured); }
      return send(200, api.final(body, r.model));
    }
    const names = api.toolNames(body);
    toolName = pickToolName(names);
    entry.toolNames = names;
    if (!toolName) {
      entry.answer = 'final-no-tools';
      return send(200, api.final(body, r.model));
    }
    entry.answer = 'tool-call';
    toolCallSent = true;
    return send(200, api.toolCall(body, toolName, toolArgs, r.model));
  });
  return {
    ...await listenLoopback(server),
    requests,
    followUp,
    get toolName() { return toolName; },
    get captured() { return captured; },
  };
}
