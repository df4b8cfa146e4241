// Drives mcp-read with the official MCP TypeScript SDK client (@modelcontextprotocol/sdk, the
// version pinned in package.json next to this file) over stdio and over Streamable HTTP.
//
//   node conformance/sdk-client/sdk-client.mjs path/to/mcp-read
//   (or: bash conformance/sdk-client/run.sh [path/to/mcp-read], which installs the SDK first)
//
// Fixtures are written into a temporary root: a text file with a non-ASCII line, a PNG (64x48 RGB
// gradient, encoded here with node:zlib and a computed CRC32), a 3-page PDF written object by
// object with an exact xref table, and an nbformat 4 notebook (markdown cell, code cell with a
// stream output and an image/png output). For each transport the script connects (the SDK offers
// 2025-11-25), lists tools and resources, reads every fixture through the `read` tool and the
// text file through resources/read, and checks the answers block by block. Every check prints
// `ok - ...` or `not ok - ...` with the reason; the last line is `sdk-client: N passed, M failed`.
// Exit status: 0 when every check passed, 1 otherwise. Each request has a timeout and the whole
// run is cut at RUN_TIMEOUT_MS. SDK_CLIENT_KEEP=1 keeps the temporary root (its path is printed).
import { spawn } from "node:child_process";
import { accessSync, constants as fsConstants, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve, basename } from "node:path";
import { pathToFileURL } from "node:url";
import { deflateSync } from "node:zlib";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";

const REQUEST_TIMEOUT_MS = 15000; // each MCP request (the SDK's `timeout` request option)
const RUN_TIMEOUT_MS = 55000; // the whole run
const WANT_PROTOCOL = "2025-11-25";

const binArg = process.argv[2];
if (!binArg) {
  console.error("usage: node sdk-client.mjs path/to/mcp-read");
  process.exit(2);
}
const bin = resolve(binArg);
const sdkVersion = JSON.parse(
  readFileSync(new URL("./node_modules/@modelcontextprotocol/sdk/package.json", import.meta.url), "utf8"),
).version;

// ------------------------------------------------------------------ reporting
let passed = 0;
let failed = 0;
function ok(desc) {
  console.log(`ok - ${desc}`);
  passed++;
}
function notOk(desc, reason) {
  console.log(`not ok - ${desc}`);
  if (reason) for (const line of String(reason).split("\n")) console.log(`#   ${line}`);
  failed++;
}
class CheckError extends Error {}
const fail = (msg) => {
  throw new CheckError(msg);
};
const show = (v, max = 1200) => {
  let s;
  try {
    s = JSON.stringify(v, (k, x) => (typeof x === "string" && x.length > 200 ? x.slice(0, 200) + `…(${x.length} chars)` : x), 2);
  } catch {
    s = String(v);
  }
  return s.length > max ? s.slice(0, max) + "…" : s;
};
// check(desc, fn): runs fn (sync or async); a throw makes the check fail with its message.
async function check(desc, fn) {
  try {
    const v = await fn();
    ok(desc);
    return v;
  } catch (e) {
    notOk(desc, e instanceof CheckError ? e.message : `${e?.name ?? "Error"}: ${e?.message ?? e}`);
    return undefined;
  }
}
let finished = false;
function finish() {
  if (finished) return;
  finished = true;
  console.log(`sdk-client: ${passed} passed, ${failed} failed`);
  cleanup();
  process.exit(failed === 0 ? 0 : 1);
}
const children = new Set();
let root;
function cleanup() {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  if (root && !process.env.SDK_CLIENT_KEEP) rmSync(root, { recursive: true, force: true });
}
process.on("uncaughtException", (e) => {
  notOk("the run completes", e?.stack ?? String(e));
  finish();
});
process.on("unhandledRejection", (e) => {
  notOk("the run completes", e?.stack ?? String(e));
  finish();
});
for (const sig of ["SIGINT", "SIGTERM"]) {
  process.on(sig, () => {
    cleanup();
    process.exit(130);
  });
}
process.stdout.on("error", () => {
  cleanup(); // stdout closed (e.g. piped into head): stop quietly
  process.exit(1);
});
const watchdog = setTimeout(() => {
  notOk(`the whole run finishes within ${RUN_TIMEOUT_MS / 1000} s`, "cut by the watchdog");
  finish();
}, RUN_TIMEOUT_MS);

// ------------------------------------------------------------------ fixtures
const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function pngChunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
// A W×H 8-bit RGB gradient: red grows left to right, green top to bottom, blue is constant.
function makePng(w, h) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: truecolour
  ihdr[10] = 0; // compression
  ihdr[11] = 0; // filter method
  ihdr[12] = 0; // no interlace
  const raw = Buffer.alloc(h * (1 + 3 * w));
  for (let y = 0; y < h; y++) {
    const row = y * (1 + 3 * w);
    raw[row] = 0; // filter: none
    for (let x = 0; x < w; x++) {
      raw[row + 1 + 3 * x] = Math.round((255 * x) / (w - 1));
      raw[row + 2 + 3 * x] = Math.round((255 * y) / (h - 1));
      raw[row + 3 + 3 * x] = 128;
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", ihdr),
    pngChunk("IDAT", deflateSync(raw)),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}
// A PDF 1.4 with one Helvetica text line per page (only [A-Za-z0-9 .] so nothing needs escaping),
// written object by object with an exact xref table, as bench/gen-docs.mjs does.
function makePdf(pageTexts) {
  const objs = [];
  objs[1] = "<< /Type /Catalog /Pages 2 0 R >>";
  objs[2] = `<< /Type /Pages /Kids [${pageTexts.map((_, i) => `${4 + 2 * i} 0 R`).join(" ")}] /Count ${pageTexts.length} >>`;
  objs[3] = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>";
  pageTexts.forEach((text, i) => {
    const body = ["BT", "/F1 14 Tf", "72 700 Td", `(${text}) Tj`, "ET"].join("\n") + "\n";
    objs[4 + 2 * i] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + 2 * i} 0 R >>`;
    objs[5 + 2 * i] = `<< /Length ${Buffer.byteLength(body, "latin1")} >>\nstream\n${body}endstream`;
  });
  let out = "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n";
  const offsets = [];
  for (let n = 1; n < objs.length; n++) {
    offsets[n] = Buffer.byteLength(out, "latin1");
    out += `${n} 0 obj\n${objs[n]}\nendobj\n`;
  }
  const xref = Buffer.byteLength(out, "latin1");
  out += `xref\n0 ${objs.length}\n0000000000 65535 f \n`;
  for (let n = 1; n < objs.length; n++) out += `${String(offsets[n]).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objs.length} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

root = realpathSync(mkdtempSync(join(tmpdir(), "mcp-read-sdk-client.")));
const TEXT_LINES = [
  "alpha: the first line of the sdk-client fixture",
  "beta: café, naïve, Ünïcödé — 日本語テキスト ✓",
  "gamma: the third line",
];
const textContent = TEXT_LINES.join("\n") + "\n";
const textPath = join(root, "notes.txt");
writeFileSync(textPath, textContent);

const png = makePng(64, 48);
const pngPath = join(root, "gradient.png");
writeFileSync(pngPath, png);

const PDF_PAGES = [
  "Quartz falcon page one 4711",
  "Emerald harbor page two 5822",
  "Copper lantern page three 6933",
];
const pdf = makePdf(PDF_PAGES);
const pdfPath = join(root, "three-pages.pdf");
writeFileSync(pdfPath, pdf);

const NB = {
  markdown: "# Gradient report\nThis notebook shows a small colour gradient.",
  code: 'print("stream output from cell two")\nshow_gradient(64, 48)',
  stream: "stream output from cell two\n",
};
const notebook = {
  cells: [
    { cell_type: "markdown", id: "md-1", metadata: {}, source: NB.markdown.split(/(?<=\n)/) },
    {
      cell_type: "code",
      execution_count: 1,
      id: "code-2",
      metadata: {},
      source: NB.code.split(/(?<=\n)/),
      outputs: [
        { name: "stdout", output_type: "stream", text: [NB.stream] },
        {
          output_type: "display_data",
          metadata: {},
          data: { "image/png": png.toString("base64"), "text/plain": ["<Figure size 64x48 with 1 Axes>"] },
        },
      ],
    },
  ],
  metadata: {
    kernelspec: { display_name: "Python 3", language: "python", name: "python3" },
    language_info: { name: "python", version: "3.11.2" },
  },
  nbformat: 4,
  nbformat_minor: 5,
};
const nbPath = join(root, "report.ipynb");
writeFileSync(nbPath, JSON.stringify(notebook, null, 1) + "\n");

const missingPath = join(root, "no-such-file-7f3a.txt");

// ------------------------------------------------------------------ result helpers
const PNG_SIG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const blocks = (r) => (Array.isArray(r?.content) ? r.content : fail(`the result has no content array: ${show(r)}`));
const textOf = (r) =>
  blocks(r)
    .filter((b) => b.type === "text")
    .map((b) => b.text)
    .join("\n");
function notError(r) {
  if (r?.isError) fail(`isError is true: ${show(r)}`);
}
function decodePng(b, what) {
  if (b?.type !== "image") fail(`${what} is not an image block: ${show(b)}`);
  if (b.mimeType !== "image/png") fail(`${what}: mimeType is ${JSON.stringify(b.mimeType)}, not "image/png"`);
  if (typeof b.data !== "string" || b.data.length === 0) fail(`${what}: no base64 data`);
  const bytes = Buffer.from(b.data, "base64");
  if (!bytes.subarray(0, 8).equals(PNG_SIG)) fail(`${what}: the data does not start with the PNG signature (${bytes.subarray(0, 8).toString("hex")})`);
  return bytes;
}

// ------------------------------------------------------------------ the checks of one transport
async function exercise(label, client) {
  const call = (args, extra = {}) =>
    client.callTool({ name: "read", arguments: args }, undefined, { timeout: REQUEST_TIMEOUT_MS, ...extra });

  await check(`${label}: the server calls itself "mcp-read"`, () => {
    const v = client.getServerVersion();
    if (v?.name !== "mcp-read") fail(`serverInfo: ${show(v)}`);
  });

  await check(`${label}: tools/list includes read and read_image`, async () => {
    const r = await client.listTools(undefined, { timeout: REQUEST_TIMEOUT_MS });
    const names = (r.tools ?? []).map((t) => t.name);
    for (const n of ["read", "read_image"]) if (!names.includes(n)) fail(`${n} is missing; tools: ${names.join(", ")}`);
  });

  await check(`${label}: read on the text file gives cat -n lines with the non-ASCII line intact`, async () => {
    const r = await call({ file_path: textPath });
    notError(r);
    const b = blocks(r)[0];
    if (b?.type !== "text") fail(`content[0] is not a text block: ${show(r)}`);
    TEXT_LINES.forEach((line, i) => {
      const want = `${String(i + 1).padStart(6)}\t${line}`;
      if (!b.text.split("\n").includes(want)) fail(`no line ${JSON.stringify(want)} in ${JSON.stringify(b.text.slice(0, 600))}`);
    });
  });

  await check(`${label}: read on the PNG gives a text block, then the image byte for byte`, async () => {
    const r = await call({ file_path: pngPath });
    notError(r);
    const c = blocks(r);
    if (c[0]?.type !== "text") fail(`content[0] is not a text block: ${show(r)}`);
    const bytes = decodePng(c[1], "content[1]");
    if (!bytes.equals(png)) fail(`the image sent (${bytes.length} bytes) differs from the file (${png.length} bytes)`);
  });

  await check(`${label}: read on the PDF gives each page's text under its marker and the PDF as a resource`, async () => {
    const r = await call({ file_path: pdfPath });
    notError(r);
    const text = textOf(r);
    let at = 0;
    PDF_PAGES.forEach((pageText, i) => {
      const marker = `Page ${i + 1} of ${PDF_PAGES.length}`;
      const m = text.indexOf(marker, at);
      if (m < 0) fail(`no marker ${JSON.stringify(marker)} (in order) in ${JSON.stringify(text.slice(0, 800))}`);
      const next = i + 1 < PDF_PAGES.length ? text.indexOf(`Page ${i + 2} of ${PDF_PAGES.length}`, m) : text.length;
      const section = text.slice(m, next < 0 ? text.length : next);
      if (!section.includes(pageText)) fail(`page ${i + 1}'s text ${JSON.stringify(pageText)} is not under its marker: ${JSON.stringify(section.slice(0, 400))}`);
      at = m + marker.length;
    });
    const res = blocks(r).filter((b) => b.type === "resource");
    if (res.length !== 1) fail(`expected one resource block, got ${res.length}: ${show(r)}`);
    const rr = res[0].resource ?? {};
    if (rr.mimeType !== "application/pdf") fail(`resource mimeType is ${JSON.stringify(rr.mimeType)}: ${show(res[0])}`);
    if (typeof rr.blob !== "string") fail(`the resource has no blob: ${show(res[0])}`);
    const head = Buffer.from(rr.blob, "base64").subarray(0, 5).toString("latin1");
    if (head !== "%PDF-") fail(`the blob starts with ${JSON.stringify(head)}, not %PDF-`);
  });

  let progress = [];
  await check(`${label}: read on the PDF with file_type "image" gives one PNG image block per page`, async () => {
    const r = await call({ file_path: pdfPath, file_type: "image" }, { onprogress: (p) => progress.push(p) });
    notError(r);
    const images = blocks(r).filter((b) => b.type === "image");
    if (images.length !== PDF_PAGES.length) fail(`${images.length} image blocks for ${PDF_PAGES.length} pages: ${show(r)}`);
    images.forEach((b, i) => decodePng(b, `image ${i + 1}`));
  });
  await check(`${label}: the PDF file_type "image" call reports progress`, () => {
    if (progress.length === 0) fail("onprogress was never called");
    for (const p of progress) if (typeof p.progress !== "number") fail(`progress without a number: ${show(p)}`);
  });

  await check(`${label}: read on the notebook gives its cells, the stream output and the image output`, async () => {
    const r = await call({ file_path: nbPath });
    notError(r);
    const text = textOf(r);
    const wants = [...NB.markdown.split("\n"), ...NB.code.split("\n"), NB.stream.trim()];
    for (const w of wants) if (!text.includes(w)) fail(`the text lacks ${JSON.stringify(w)}: ${JSON.stringify(text.slice(0, 1000))}`);
    if (text.includes(png.toString("base64").slice(0, 40))) fail("the text contains the image's base64");
    const images = blocks(r).filter((b) => b.type === "image");
    if (images.length !== 1) fail(`expected one image block, got ${images.length}: ${show(r)}`);
    const bytes = decodePng(images[0], "the notebook image");
    if (!bytes.equals(png)) fail(`the image sent (${bytes.length} bytes) differs from the output's PNG (${png.length} bytes)`);
  });

  await check(`${label}: read on a missing file is an error that names the file`, async () => {
    const r = await call({ file_path: missingPath });
    if (r?.isError !== true) fail(`isError is not true: ${show(r)}`);
    const text = textOf(r);
    if (!text.includes(basename(missingPath))) fail(`the message does not mention ${basename(missingPath)}: ${JSON.stringify(text)}`);
  });

  const uri = pathToFileURL(textPath).href;
  await check(`${label}: resources/list lists the text file as ${uri}`, async () => {
    const uris = [];
    let cursor;
    for (let page = 0; page < 50; page++) {
      const r = await client.listResources(cursor ? { cursor } : undefined, { timeout: REQUEST_TIMEOUT_MS });
      uris.push(...(r.resources ?? []).map((x) => x.uri));
      cursor = r.nextCursor;
      if (!cursor) break;
    }
    if (!uris.includes(uri)) fail(`not listed; resources: ${uris.join(", ")}`);
  });
  await check(`${label}: resources/templates/list offers file:///{+path}`, async () => {
    const r = await client.listResourceTemplates(undefined, { timeout: REQUEST_TIMEOUT_MS });
    const t = (r.resourceTemplates ?? []).map((x) => x.uriTemplate);
    if (!t.includes("file:///{+path}")) fail(`templates: ${show(t)}`);
  });
  await check(`${label}: resources/read of the text file gives its text unchanged`, async () => {
    const r = await client.readResource({ uri }, { timeout: REQUEST_TIMEOUT_MS });
    const c = r.contents?.[0];
    if (typeof c?.text !== "string") fail(`contents[0] has no text: ${show(r)}`);
    if (c.text !== textContent) fail(`got ${JSON.stringify(c.text)}, want ${JSON.stringify(textContent)}`);
    if (c.uri !== uri) fail(`contents[0].uri is ${JSON.stringify(c.uri)}, not ${JSON.stringify(uri)}`);
  });
}

// connect(label, transport): connects, checking the negotiated protocol version. The client calls
// transport.setProtocolVersion with the version of the initialize result (HTTP transports send it
// as a header); the stdio transport has none, so one that only records it is added.
async function connect(label, transport) {
  let negotiated;
  const orig = transport.setProtocolVersion?.bind(transport);
  transport.setProtocolVersion = (v) => {
    negotiated = v;
    orig?.(v);
  };
  const client = new Client({ name: "mcp-read-sdk-client", version: "1.0.0" }, { capabilities: {} });
  const connected = await check(`${label}: connects (initialize + initialized)`, async () => {
    await client.connect(transport, { timeout: REQUEST_TIMEOUT_MS });
    return true;
  });
  if (!connected) return undefined;
  await check(`${label}: negotiates protocol ${WANT_PROTOCOL}`, () => {
    if (LATEST_PROTOCOL_VERSION !== WANT_PROTOCOL) fail(`the SDK offers ${LATEST_PROTOCOL_VERSION}, not ${WANT_PROTOCOL}`);
    if (negotiated !== WANT_PROTOCOL) fail(`the server answered ${JSON.stringify(negotiated)}`);
  });
  return client;
}

function tail(s, n = 20) {
  return s.trimEnd().split("\n").slice(-n).join("\n");
}

async function overStdio() {
  const label = "stdio";
  const transport = new StdioClientTransport({ command: bin, args: [root], stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (d) => (stderr += d));
  const client = await connect(label, transport);
  if (client) {
    await exercise(label, client);
    await client.close();
  } else {
    await transport.close().catch(() => {});
  }
  if (failed > 0 && stderr) console.log(`# stdio server stderr (last lines):\n${tail(stderr).replace(/^/gm, "#   ")}`);
}

async function overHttp() {
  const label = "http";
  const server = spawn(bin, ["--transport", "http", "--port", "0", root], { stdio: ["ignore", "ignore", "pipe"] });
  children.add(server);
  let stderr = "";
  const exited = new Promise((res) => server.on("exit", (code, signal) => res({ code, signal })));
  const port = await new Promise((res) => {
    const timer = setTimeout(() => res(undefined), 10000);
    server.stderr.on("data", (d) => {
      stderr += d;
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(stderr);
      if (m) {
        clearTimeout(timer);
        res(Number(m[1]));
      }
    });
    server.on("exit", () => res(undefined));
  });
  const announced = await check(`${label}: mcp-read --transport http --port 0 announces its port`, () => {
    if (!port) {
      const how = server.exitCode !== null || server.signalCode !== null
        ? `it exited (code ${server.exitCode}, signal ${server.signalCode})` : "none within 10 s";
      fail(`no "listening on" line: ${how}; stderr:\n${tail(stderr)}`);
    }
    return true;
  });
  if (!announced) return;
  const failedBefore = failed;
  const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`));
  const client = await connect(`${label} (Streamable HTTP)`, transport);
  if (client) {
    await exercise(`${label} (Streamable HTTP)`, client);
    await check(`${label}: DELETE ends the session`, () => transport.terminateSession());
    await client.close();
  }
  server.kill("SIGTERM");
  await check(`${label}: the server exits with status 0 on SIGTERM`, async () => {
    const r = await Promise.race([exited, new Promise((res) => setTimeout(() => res(undefined), 10000))]);
    if (!r) fail("still running 10 s after SIGTERM");
    if (r.code !== 0) fail(`exit code ${r.code}, signal ${r.signal}; stderr:\n${tail(stderr)}`);
  });
  if (failed > failedBefore) console.log(`# http server stderr (last lines):\n${tail(stderr).replace(/^/gm, "#   ")}`);
}

const t0 = Date.now();
console.log(`# @modelcontextprotocol/sdk ${sdkVersion}, server ${bin}, root ${root}`);
try {
  const runnable = await check(`server binary ${bin} exists and is executable`, () => {
    accessSync(bin, fsConstants.X_OK);
    return true;
  });
  if (!runnable) finish();
  await overStdio();
  await overHttp();
} catch (e) {
  notOk("the run completes", e?.stack ?? String(e));
}
clearTimeout(watchdog);
console.log(`# ${((Date.now() - t0) / 1000).toFixed(1)} s`);
finish();
