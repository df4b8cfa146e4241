#!/usr/bin/env node
// The "host": a minimal Vercel AI SDK application, as its docs show one.
//   createMCPClient (@ai-sdk/mcp) over stdio -> client.tools() -> generateText({ tools,
//   stopWhen: stepCountIs(2) }) with one of the provider packages, whose baseURL points at the
//   loopback mock.
// usage: node host.mjs CONFIG.json   (written by driver.mjs)
// CONFIG: { provider, model, baseURL, prompt, server: {command, args, env?}, resultFile }
// Writes RESULT (JSON) to resultFile: tool names, the SDK's view of each step, warnings, errors.
import { readFileSync, writeFileSync } from 'node:fs';
import { generateText, stepCountIs } from 'ai';
import { createMCPClient } from '@ai-sdk/mcp';
import { StdioMCPTransport } from '@ai-sdk/mcp/mcp-stdio';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createGoogleGenerativeAI } from '@ai-sdk/google';

const cfg = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const out = { ok: false, provider: cfg.provider, model: cfg.model, warnings: [], mcpErrors: [] };
const save = () => writeFileSync(cfg.resultFile, JSON.stringify(out, null, 1));

// Collect the SDK's warnings (e.g. "unsupported tool content part") instead of printing them.
globalThis.AI_SDK_LOG_WARNINGS = (w) => { out.warnings.push(JSON.parse(JSON.stringify(w))); };

function makeModel({ provider, model, baseURL }) {
  const apiKey = 'test-key-not-real';
  switch (provider) {
    case 'anthropic':
      return createAnthropic({ baseURL: `${baseURL}/v1`, apiKey })(model);
    case 'openai-responses':
      return createOpenAI({ baseURL: `${baseURL}/v1`, apiKey }).responses(model);
    case 'openai-chat':
      return createOpenAI({ baseURL: `${baseURL}/v1`, apiKey }).chat(model);
    case 'google':
      return createGoogleGenerativeAI({ baseURL: `${baseURL}/v1beta`, apiKey })(model);
    default:
      throw new Error(`unknown provider ${provider}`);
  }
}

// Summarise a tool output for the result file without copying large base64 payloads.
function brief(v) {
  return JSON.parse(JSON.stringify(v ?? null, (k, x) => (typeof x === 'string' && x.length > 400 ? `${x.slice(0, 200)}…[${x.length} chars]` : x)));
}

let client;
try {
  client = await createMCPClient({
    transport: new StdioMCPTransport({ command: cfg.server.command, args: cfg.server.args, env: cfg.server.env }),
    onUncaughtError: (e) => out.mcpErrors.push(String(e?.message ?? e)),
  });
  out.serverInfo = client.serverInfo;
  out.protocolVersion = client.initializeResult?.protocolVersion;
  const tools = await client.tools();
  out.toolNames = Object.keys(tools);
  const result = await generateText({
    model: makeModel(cfg),
    tools,
    prompt: cfg.prompt,
    stopWhen: stepCountIs(2),
    maxRetries: 0,
  });
  out.text = result.text;
  out.steps = result.steps.map((s) => ({
    finishReason: s.finishReason,
    toolCalls: s.toolCalls.map((c) => ({ toolName: c.toolName, input: c.input })),
    toolResults: s.toolResults.map((r) => ({ toolName: r.toolName, output: brief(r.output) })),
    warnings: s.warnings,
  }));
  out.ok = true;
} catch (e) {
  out.error = String(e?.stack ?? e);
  if (e?.responseBody) out.errorResponseBody = String(e.responseBody).slice(0, 2000);
  process.exitCode = 1;
} finally {
  save();
  try { await client?.close(); } catch { /* ignore */ }
}
// Don't linger on open handles (the MCP child is closed above).
setTimeout(() => process.exit(process.exitCode ?? 0), 200).unref();
