#!/usr/bin/env node
// Writes the benchmark fixtures into DIR, deterministically (same bytes on every run):
//   DIR/source.cpp  ~300 KB of C++-like source, ~8,000 lines
//   DIR/app.log     ~170 MB of short log lines, ~4.6 million lines
//   DIR/manifest.json  sizes, line counts and the exact text of the lines the benchmark checks
//
// Usage: node bench/gen-fixtures.mjs DIR
//
// Lines are kept short on purpose: every 2,000-line window the benchmark reads, once numbered
// (`%6d\t` + line), stays under 96 KiB, so a server that caps one answer at 100 KiB still
// returns all 2,000 lines and both servers send the same amount of text.
import { mkdirSync, openSync, writeSync, closeSync, fsyncSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { rng } from "./rng.mjs";

const dir = process.argv[2];
if (!dir) {
  console.error("usage: node gen-fixtures.mjs DIR");
  process.exit(2);
}
mkdirSync(dir, { recursive: true });

const SOURCE_TARGET_BYTES = 300 * 1024;
const LOG_TARGET_BYTES = 170 * 1024 * 1024;
const WINDOW = 2000;
const DEEP_OFFSET = 1_000_000;
const NUMBERED_BUDGET = 96 * 1024;

// Streams lines to a file through a 4 MiB buffer and remembers the lines the benchmark checks.
class LineWriter {
  constructor(path, keep) {
    this.fd = openSync(path, "w");
    this.buf = Buffer.allocUnsafe(4 << 20);
    this.pos = 0;
    this.count = 0;
    this.bytes = 0;
    this.keep = keep; // Set of 1-based line numbers to remember
    this.kept = {};
    this.head = []; // first WINDOW lines
    this.ring = new Array(WINDOW); // last WINDOW lines
  }
  line(s) {
    this.count++;
    if (this.keep.has(this.count)) this.kept[this.count] = s;
    if (this.count <= WINDOW) this.head.push(s);
    this.ring[this.count % WINDOW] = s;
    if (this.pos + s.length + 1 > this.buf.length) this.flush();
    this.pos += this.buf.latin1Write(s, this.pos); // fixtures are ASCII only
    this.buf[this.pos++] = 10;
    this.bytes += s.length + 1;
  }
  get tail() {
    const out = [];
    const n = Math.min(this.count, WINDOW);
    for (let i = this.count - n + 1; i <= this.count; i++) out.push(this.ring[i % WINDOW]);
    return out;
  }
  flush() {
    let off = 0;
    while (off < this.pos) off += writeSync(this.fd, this.buf, off, this.pos - off);
    this.pos = 0;
  }
  close() {
    this.flush();
    fsyncSync(this.fd); // no writeback of the fresh file while the servers are being measured
    closeSync(this.fd);
  }
}

// ---------------------------------------------------------------- source.cpp
function genSource(path) {
  const r = rng(0x5eed1);
  const pick = (arr) => arr[Math.floor(r() * arr.length)];
  const nouns = ["buffer", "index", "entry", "range", "token", "reader", "window", "offset", "limit",
    "cursor", "chunk", "span", "count", "state", "root", "path", "line", "table", "cache", "frame"];
  const verbs = ["read", "scan", "find", "load", "split", "parse", "count", "check", "open", "seek",
    "emit", "merge", "trim", "fill", "reset", "build"];
  const types = ["std::size_t", "int", "bool", "std::string", "std::string_view", "std::uint64_t",
    "double", "char"];
  const w = new LineWriter(path, new Set([1, WINDOW]));
  w.line("// source.cpp: generated benchmark fixture (deterministic), not compiled.");
  w.line("#include <cstddef>");
  w.line("#include <string>");
  w.line("#include <vector>");
  w.line("");
  w.line("namespace fixture {");
  let fn = 0;
  while (w.bytes < SOURCE_TARGET_BYTES - 200) {
    fn++;
    const name = `${pick(verbs)}_${pick(nouns)}_${fn}`;
    const a = pick(nouns), b = pick(nouns);
    w.line("");
    w.line(`// ${name}: ${pick(verbs)}s the ${a} of a ${b}.`);
    w.line(`${pick(types)} ${name}(const ${pick(types)}& ${a}, int ${b}) {`);
    const body = 4 + Math.floor(r() * 9);
    for (let i = 0; i < body; i++) {
      const x = pick(nouns), y = pick(nouns), k = Math.floor(r() * 100);
      switch (Math.floor(r() * 7)) {
        case 0: w.line(`  const auto ${x}_${i} = ${y}.size() + static_cast<std::size_t>(${k});`); break;
        case 1: w.line(`  if (${x}.empty() || ${y}_count > ${k}) {`); w.line(`    return ${y}_fallback(${x});`); w.line("  }"); break;
        case 2: w.line(`  for (std::size_t i = 0; i < ${x}.size(); ++i) {`); w.line(`    ${y}_total += ${x}[i] * ${k};`); w.line("  }"); break;
        case 3: w.line(`  // ${pick(verbs)} the ${x} before the ${y} is used again`); break;
        case 4: w.line(`  ${x}_state.${pick(verbs)}(${y}, ${k}, /*strict=*/true);`); break;
        case 5: w.line(`  std::vector<${pick(types)}> ${x}_list = ${pick(verbs)}_all(${y});`); break;
        default: w.line(`  ${x} = ${pick(verbs)}_${y}(${x}, ${k});`); break;
      }
    }
    w.line(`  return ${a};`);
    w.line("}");
  }
  w.line("");
  w.line("}  // namespace fixture");
  w.close();
  return w;
}

// ---------------------------------------------------------------- app.log
function genLog(path) {
  const r = rng(0x10601);
  const levels = ["I", "I", "I", "I", "D", "D", "W", "E"];
  const paths = ["/", "/api/items", "/api/user", "/login", "/static/app.js", "/health", "/api/cart"];
  const verbsHttp = ["GET", "GET", "GET", "POST", "PUT"];
  const codes = [200, 200, 200, 200, 304, 404, 500];
  const keep = new Set([1, WINDOW, DEEP_OFFSET, DEEP_OFFSET + WINDOW - 1]);
  const w = new LineWriter(path, keep);
  let ms = 0; // strictly increasing timestamps make every line unique
  const two = (n) => (n < 10 ? "0" + n : "" + n);
  const three = (n) => (n < 10 ? "00" + n : n < 100 ? "0" + n : "" + n);
  while (w.bytes < LOG_TARGET_BYTES) {
    ms += 1 + Math.floor(r() * 2);
    const h = Math.floor(ms / 3600000), m = Math.floor(ms / 60000) % 60;
    const s = Math.floor(ms / 1000) % 60, f = ms % 1000;
    const ts = `${two(h)}:${two(m)}:${two(s)}.${three(f)}`;
    const lvl = levels[Math.floor(r() * levels.length)];
    let msg;
    const kind = Math.floor(r() * 5);
    if (kind < 3) {
      msg = `${verbsHttp[Math.floor(r() * verbsHttp.length)]} ${paths[Math.floor(r() * paths.length)]} ` +
        `${codes[Math.floor(r() * codes.length)]} ${1 + Math.floor(r() * 90)}ms`;
    } else if (kind === 3) {
      msg = `db q${Math.floor(r() * 40)} ${Math.floor(r() * 500)} rows`;
    } else {
      msg = `gc ${Math.floor(r() * 64)}MB`;
    }
    w.line(`${ts} ${lvl} ${msg}`);
  }
  w.close();
  if (w.count < DEEP_OFFSET + WINDOW) throw new Error(`log too short: ${w.count} lines`);
  return w;
}

function numberedBytes(lines, first) {
  let n = 0;
  lines.forEach((l, i) => { n += String(first + i).padStart(6).length + 1 + Buffer.byteLength(l) + 1; });
  return n;
}

const t0 = Date.now();
const src = genSource(join(dir, "source.cpp"));
const log = genLog(join(dir, "app.log"));
const logTail = log.tail;

const manifest = {
  window: WINDOW,
  deepOffset: DEEP_OFFSET,
  source: {
    path: join(dir, "source.cpp"),
    bytes: src.bytes,
    lines: src.count,
    first: src.kept[1],
    last: src.kept[WINDOW], // line WINDOW
  },
  log: {
    path: join(dir, "app.log"),
    bytes: log.bytes,
    lines: log.count,
    first: log.kept[1],
    headLast: log.kept[WINDOW],
    deepFirst: log.kept[DEEP_OFFSET],
    deepLast: log.kept[DEEP_OFFSET + WINDOW - 1],
    tailFirst: logTail[0], // line (lines - WINDOW + 1)
    tailSecond: logTail[1],
    tailLast: logTail[WINDOW - 1],
  },
};
if (src.count < WINDOW) throw new Error(`source too short: ${src.count} lines`);
writeFileSync(join(dir, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n");

// Self-check of the window sizes (see the note at the top).
const worst = Math.max(numberedBytes(src.head, 1), numberedBytes(log.head, 1),
  numberedBytes(logTail, log.count - WINDOW + 1));
if (worst > NUMBERED_BUDGET) throw new Error(`a numbered 2000-line window is ${worst} bytes (> ${NUMBERED_BUDGET})`);

console.log(`fixtures: source.cpp ${(src.bytes / 1024).toFixed(0)} KiB, ${src.count} lines; ` +
  `app.log ${(log.bytes / 1048576).toFixed(0)} MiB, ${log.count} lines (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
