// One Kreuzberg extraction in this process, for bench/kreuzberg.py: one process per file, so that
// the process's peak RSS is that file's.
//
// Usage: node bench/kreuzberg-extract.mjs BINDING.node FILE
// Prints one JSON object: the content, the extraction's own time, and the process's RSS after
// loading the binding and its peak (VmHWM) right after the extraction.
//
// The native binding is called directly: @kreuzberg/node's JS wrapper (4.10.2) builds the config
// it passes on field by field and leaves out `disableOcr`, so through it OCR could not be turned
// off (mcp-read runs with --ocr off beside it).
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";

const [binding, file] = process.argv.slice(2);

function status(field) {
  const m = readFileSync("/proc/self/status", "utf8").match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"));
  return m ? Number(m[1]) : null;
}

const out = {};
try {
  const kreuzberg = createRequire(import.meta.url)(binding);
  out.rss_loaded_kib = status("VmRSS");
  const t0 = performance.now();
  // useCache false: every run extracts (Kreuzberg would otherwise answer a second run of the same
  // file from its on-disk cache).
  const result = kreuzberg.extractFileSync(file, null, { useCache: false, disableOcr: true });
  out.ms = performance.now() - t0;
  out.hwm_kib = status("VmHWM");
  out.mime = result.mimeType;
  out.content = result.content;
  out.warnings = (result.processingWarnings || []).map((w) => (typeof w === "string" ? w : JSON.stringify(w)));
} catch (error) {
  out.hwm_kib = status("VmHWM");
  out.error = String(error && error.message ? error.message : error).slice(0, 500);
}
process.stdout.write(JSON.stringify(out));
