#!/usr/bin/env node
// Writes the document fixtures of the benchmark into DIR, deterministically:
//   DIR/doc.pdf    a 40-page PDF 1.4 with real text on every page (Helvetica, ~50 lines a page),
//                  written here object by object with an exact xref table (no PDF library)
//   DIR/nb.ipynb   an nbformat 4.5 notebook: 30 code cells with stream outputs, 6 of them with a
//                  PNG plot as an `image/png` output (made with the `vips` command, base64-embedded)
//   DIR/docs.json  sizes, SHA-256, page count and each page's first line, cell and image counts
//
// Usage: node bench/gen-docs.mjs DIR
// The PDF needs nothing but node; the notebook's images need `vips` (Debian package libvips-tools).
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync, rmSync, openSync, fsyncSync, closeSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { imageInfo } from "./image-headers.mjs";
import { rng } from "./rng.mjs";

const dir = process.argv[2];
if (!dir) {
  console.error("usage: node gen-docs.mjs DIR");
  process.exit(2);
}
mkdirSync(dir, { recursive: true });

const PDF_PAGES = 40;
const LINES_PER_PAGE = 50;
const CELLS = 30;
const IMAGE_CELLS = new Set([4, 9, 14, 19, 24, 29]); // 1-based cells with a PNG output

const WORDS = ("the a of to and in is that for on with as by at from this be are it an or was which " +
  "system data model value result function memory request buffer index page section figure table " +
  "measure sample signal window reader server client process thread queue cache latency range offset " +
  "error report review method design input output format stream record field entry limit answer " +
  "document text line number block layer source target version option default network storage").split(" ");
const sha256 = (buf) => createHash("sha256").update(buf).digest("hex");
function fsync(path) {
  const fd = openSync(path, "r+");
  fsyncSync(fd); // no writeback of the fresh file while the servers are being measured
  closeSync(fd);
}

// -------------------------------------------------------------- doc.pdf
// Each page: a heading line ("Section k. ..."), then prose lines of up to ~95 characters, in
// Helvetica 10 pt with 14 pt leading on a US Letter page. Only [a-z0-9 .,] are used, so no
// string needs escaping.
function genPdf(path) {
  const r = rng(0x9df1);
  const sentence = () => {
    const n = 6 + Math.floor(r() * 10);
    const w = [];
    for (let i = 0; i < n; i++) w.push(WORDS[Math.floor(r() * WORDS.length)]);
    w[0] = w[0][0].toUpperCase() + w[0].slice(1);
    return w.join(" ") + (r() < 0.15 ? ", " + Math.floor(r() * 10000) + "." : ".");
  };
  const pages = [];
  for (let p = 1; p <= PDF_PAGES; p++) {
    const lines = [`Section ${p}. Benchmark document page ${p} of ${PDF_PAGES}, serial ${(p * 7919) % 100003}.`];
    let cur = "";
    while (lines.length < LINES_PER_PAGE) {
      const s = sentence();
      if (cur && cur.length + 1 + s.length > 95) { lines.push(cur); cur = s; } else cur = cur ? cur + " " + s : s;
    }
    pages.push(lines);
  }
  // Objects: 1 catalog, 2 pages, 3 font, 4 info, then per page i (0-based): 5+2i page, 6+2i content.
  const objs = [];
  const kids = pages.map((_, i) => `${5 + 2 * i} 0 R`).join(" ");
  objs[1] = "<< /Type /Catalog /Pages 2 0 R >>";
  objs[2] = `<< /Type /Pages /Kids [${kids}] /Count ${pages.length} >>`;
  objs[3] = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>";
  objs[4] = "<< /Title (mcp-read benchmark document) /Producer (gen-docs.mjs) >>";
  pages.forEach((lines, i) => {
    const body = ["BT", "/F1 10 Tf", "14 TL", "54 750 Td", ...lines.map((l) => `(${l}) Tj T*`), "ET"].join("\n") + "\n";
    objs[5 + 2 * i] = `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${6 + 2 * i} 0 R >>`;
    objs[6 + 2 * i] = `<< /Length ${Buffer.byteLength(body, "latin1")} >>\nstream\n${body}endstream`;
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
  out += `trailer\n<< /Size ${objs.length} /Root 1 0 R /Info 4 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  const buf = Buffer.from(out, "latin1");
  writeFileSync(path, buf);
  return { pages: pages.length, firstLines: pages.map((l) => l[0]), lastLines: pages.map((l) => l[l.length - 1]), bytes: buf.length, sha256: sha256(buf) };
}

// -------------------------------------------------------------- nb.ipynb
// Six "plots": smooth colour fields (a coarse grid of seeded random colours, upscaled with a linear
// kernel), 800×600 PNG, 0.3 MB each; within the model limits, so sent unchanged.
const work = join(dir, ".docs-work");
let vipsCalls = 0;
function vips(...args) {
  vipsCalls++;
  execFileSync("vips", args.map(String), { stdio: ["ignore", "ignore", "inherit"] });
}
function plotPng(seed) {
  const w = (n) => join(work, n);
  for (let b = 0; b < 3; b++) vips("gaussnoise", w(`n${b}.v`), 32, 24, "--sigma", 50, "--mean", 150, "--seed", seed + b);
  vips("bandjoin", `${w("n0.v")} ${w("n1.v")} ${w("n2.v")}`, w("f.v"));
  vips("cast", w("f.v"), w("f8.v"), "uchar");
  vips("resize", w("f8.v"), `${w("plot.png")}[strip,filter=all]`, 25, "--kernel", "linear");
  return readFileSync(w("plot.png"));
}
function genNotebook(path) {
  const r = rng(0x4e42);
  const cells = [];
  const images = [];
  for (let c = 1; c <= CELLS; c++) {
    const src = [
      `# step ${c}: load, transform and summarise batch ${c}\n`,
      `batch = load_batch(${c}, size=${256 + c * 8})\n`,
      `stats = summarise(batch, window=${10 + (c % 7)})\n`,
      ...Array.from({ length: 3 + (c % 5) }, (_, i) => `values_${i} = [round(x * ${(1 + i * 0.25).toFixed(2)}, 3) for x in stats.column(${i})]\n`),
      `print(f"batch ${c}: {len(batch)} rows")\n`,
      IMAGE_CELLS.has(c) ? `plot(stats, title="batch ${c}")` : `stats.head(${8 + (c % 4)})`,
    ];
    const out = [`batch ${c}: ${256 + c * 8} rows\n`];
    for (let i = 0; i < 12; i++) {
      out.push(`  row ${String(i).padStart(2)}  ` + Array.from({ length: 6 }, () => (r() * 1000).toFixed(3).padStart(9)).join(" ") + "\n");
    }
    const outputs = [{ name: "stdout", output_type: "stream", text: out }];
    if (IMAGE_CELLS.has(c)) {
      const png = plotPng(1000 + c * 10);
      const info = imageInfo(png);
      images.push({ cell: c, bytes: png.length, width: info.width, height: info.height, sha256: sha256(png) });
      const b64 = png.toString("base64");
      const lines = b64.match(/.{1,76}/g).map((l) => l + "\n"); // nbformat often wraps base64
      outputs.push({
        data: { "image/png": lines, "text/plain": [`<Figure size 800x600 with 1 Axes>`] },
        metadata: {},
        output_type: "display_data",
      });
    }
    cells.push({
      cell_type: "code", execution_count: c, id: `cell-${String(c).padStart(3, "0")}`,
      metadata: {}, outputs, source: src,
    });
  }
  const nb = {
    cells,
    metadata: {
      kernelspec: { display_name: "Python 3", language: "python", name: "python3" },
      language_info: { name: "python", version: "3.11.2" },
    },
    nbformat: 4,
    nbformat_minor: 5,
  };
  const buf = Buffer.from(JSON.stringify(nb, null, 1) + "\n");
  writeFileSync(path, buf);
  return { cells: CELLS, images, bytes: buf.length, sha256: sha256(buf) };
}

const t0 = Date.now();
rmSync(work, { recursive: true, force: true });
mkdirSync(work);
const manifest = {};
try {
  const pdfPath = join(dir, "doc.pdf");
  manifest.pdf = { path: pdfPath, file: "doc.pdf", ...genPdf(pdfPath) };
  fsync(pdfPath);
  const nbPath = join(dir, "nb.ipynb");
  manifest.notebook = { path: nbPath, file: "nb.ipynb", vips: execFileSync("vips", ["--version"], { encoding: "utf8" }).trim(), ...genNotebook(nbPath) };
  fsync(nbPath);
} finally {
  rmSync(work, { recursive: true, force: true });
}
writeFileSync(join(dir, "docs.json"), JSON.stringify(manifest, null, 2) + "\n");
const kb = (n) => (n / 1024).toFixed(0) + " KiB";
console.log(`fixtures: doc.pdf ${manifest.pdf.pages} pages ${kb(manifest.pdf.bytes)}; nb.ipynb ${CELLS} cells, ` +
  `${manifest.notebook.images.length} PNG outputs, ${kb(manifest.notebook.bytes)} ` +
  `(${vipsCalls} vips calls, ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
