#!/usr/bin/env node
// Writes the host suite's cases into DIR, deterministically (same bytes on every run with the same
// libvips), and DIR/cases.json describing them. Images are made with the `vips` command (Debian
// package libvips-tools), as bench/gen-images.mjs does; the PDFs are written object by object
// with an exact xref table, as bench/gen-docs.mjs does (no PDF library).
//
//   text-1k.txt       ~1 KB of numbered-line-friendly prose (ASCII plus a few é ü — € ✓)
//   text-60k.txt      ~60 KB of the same
//   text-150k.txt     ~150 KB (over the server's 100 KiB per-answer text budget: it pages)
//   text-400k.txt     ~400 KB, about 6,900 lines: read with limit 5000 and the server's cap raised
//                     to 4 MB, a host's own ceiling must still cap it
//   small.png         200×150 RGB
//   big.png           4000×3000 photo-like PNG (smooth colour fields + grain)
//   noise.png         4000×3000 RGB gaussian noise (compresses poorly, ~17 MB, under the
//                     server's 20 MiB input limit)
//   photo.jpg         6000×4000 (24 MP) photo-like JPEG, quality 90
//   doc3.pdf          born-digital PDF: 3 pages of real text
//   scan.pdf          one page holding only a DCTDecode (JPEG) image of text-like marks, no text layer
//   doc40.pdf         40 pages of real text
//   nb.ipynb          nbformat 4.5 notebook, 4 code cells, 2 of them with an image/png output
//   tone.wav          1 s, 16 kHz mono 16-bit PCM, 440 Hz sine
//   dir/              a directory with a few entries
//   (missing.txt      named in cases.json, never written)
//
// Usage: node tests/hosts/fixtures.mjs DIR
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync, rmSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rng } from '../../bench/rng.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const { imageInfo } = await import(join(HERE, '..', '..', 'bench', 'image-headers.mjs'));

// The cases, in the order the suite runs them. `subset`: part of the short list run on the
// variants that do not get every case.
export const CASES = [
  { name: 'text-1k', file: 'text-1k.txt', kind: 'text' },
  { name: 'text-60k', file: 'text-60k.txt', kind: 'text', subset: true },
  { name: 'text-150k', file: 'text-150k.txt', kind: 'text' },
  // `args`: more read arguments; `serverArgs`: more mcp-read options for this case; `hosts`: only
  // these hosts run it; `capped`: the answer must be a capped page that says where to go on.
  {
    name: 'text-5000-lines-cap-raised', file: 'text-400k.txt', kind: 'text', args: { limit: 5000 },
    serverArgs: ['--max-output-bytes', '4000000'], hosts: ['claude-code'], capped: true,
  },
  { name: 'png-small', file: 'small.png', kind: 'image' },
  { name: 'png-4000x3000', file: 'big.png', kind: 'image', subset: true },
  { name: 'png-noise-12mp', file: 'noise.png', kind: 'image' },
  { name: 'jpeg-24mp', file: 'photo.jpg', kind: 'image' },
  { name: 'pdf-3-pages', file: 'doc3.pdf', kind: 'pdf', subset: true },
  { name: 'pdf-scanned', file: 'scan.pdf', kind: 'pdf' },
  { name: 'pdf-40-pages', file: 'doc40.pdf', kind: 'pdf' },
  { name: 'notebook', file: 'nb.ipynb', kind: 'notebook' },
  { name: 'wav', file: 'tone.wav', kind: 'audio', subset: true },
  { name: 'missing', file: 'missing.txt', kind: 'error', subset: true, error: true },
  { name: 'directory', file: 'dir', kind: 'directory' },
];

const sha256 = (buf) => createHash('sha256').update(buf).digest('hex');

// Plain words only: no marker a host adds ("saved to", "truncated", "omitted", …) can come from
// the fixtures.
const WORDS = ('the a of to and in is that for on with as by at from this be are it an or was which ' +
  'system data model value result function memory request buffer index page section figure table ' +
  'measure sample signal window reader server client process thread queue cache latency range offset ' +
  'method design input format stream record field entry limit answer document text line number ' +
  'block layer source target version option default network storage').split(' ');
const ACCENTED = ['café', 'über', 'naïve', 'déjà vu', '— 20 €', 'façade', '✓ done'];

function sentence(r, accents) {
  const n = 6 + Math.floor(r() * 10);
  const w = [];
  for (let i = 0; i < n; i++) w.push(WORDS[Math.floor(r() * WORDS.length)]);
  if (accents && r() < 0.08) w[Math.floor(r() * n)] = ACCENTED[Math.floor(r() * ACCENTED.length)];
  w[0] = w[0][0].toUpperCase() + w[0].slice(1);
  return w.join(' ') + (r() < 0.15 ? ', ' + Math.floor(r() * 10000) + '.' : '.');
}
// Lines of prose up to `width` characters.
function proseLines(r, count, width, accents = false) {
  const lines = [];
  let cur = '';
  while (lines.length < count) {
    const s = sentence(r, accents);
    if (cur && cur.length + 1 + s.length > width) { lines.push(cur); cur = s; } else cur = cur ? cur + ' ' + s : s;
  }
  return lines;
}
function textOfSize(seed, bytes) {
  const r = rng(seed);
  const out = [];
  let n = 0;
  let para = 0;
  while (n < bytes) {
    const lines = para % 5 === 0 ? [`Part ${para / 5 + 1}. Notes on the reader, serial ${(para * 7919) % 100003}.`] : [];
    lines.push(...proseLines(r, 2 + Math.floor(r() * 5), 72, true), '');
    for (const l of lines) {
      out.push(l);
      n += Buffer.byteLength(l) + 1;
      if (n >= bytes) break;
    }
    para++;
  }
  return out.join('\n') + '\n';
}

// ------------------------------------------------------------------------ vips
let work;
const w = (name) => join(work, name);
function vips(...args) {
  execFileSync('vips', args.map(String), { stdio: ['ignore', 'ignore', 'inherit'] });
}
function noise3(out, width, height, sigma, mean, seed) {
  for (let b = 0; b < 3; b++) vips('gaussnoise', w(`n${b}.v`), width, height, '--sigma', sigma, '--mean', mean, '--seed', seed + b);
  vips('bandjoin', `${w('n0.v')} ${w('n1.v')} ${w('n2.v')}`, out);
}
// Smooth colour fields (a coarse grid of seeded colours, upscaled) plus grain, cast to uchar.
function photoLike(path, width, height, cell, grain, seed) {
  noise3(w('f.v'), Math.ceil(width / cell), Math.ceil(height / cell), 45, 128, seed);
  vips('cast', w('f.v'), w('f8.v'), 'uchar');
  vips('resize', w('f8.v'), w('fr.v'), cell, '--kernel', 'cubic');
  vips('extract_area', w('fr.v'), w('fa.v'), 0, 0, width, height);
  vips('gaussnoise', w('grain.v'), width, height, '--sigma', grain, '--mean', 0, '--seed', seed + 7);
  vips('add', w('fa.v'), w('grain.v'), w('s.v'));
  vips('cast', w('s.v'), path, 'uchar');
}
function genNoise(path) {
  noise3(w('noise.v'), 4000, 3000, 2.5, 128, 51);
  vips('cast', w('noise.v'), `${path}[strip,filter=all]`, 'uchar');
}
// A PGM (written here) of dark "words" on light paper, turned into a greyscale JPEG by vips.
function textMarksJpeg(width, height, seed) {
  const r = rng(seed);
  const px = Buffer.alloc(width * height, 245);
  const margin = Math.round(width * 0.1);
  const lineH = 22;
  for (let y = margin; y + lineH < height - margin; y += lineH) {
    if (r() < 0.12) continue; // paragraph gap
    let x = margin;
    const end = width - margin - (r() < 0.2 ? Math.floor(r() * width * 0.4) : 0);
    while (x < end) {
      const len = Math.min(end - x, 12 + Math.floor(r() * 60));
      for (let yy = y + 4; yy < y + 15; yy++) {
        for (let xx = x; xx < x + len; xx++) {
          if (r() < 0.75) px[yy * width + xx] = 30 + Math.floor(r() * 40);
        }
      }
      x += len + 8 + Math.floor(r() * 6);
    }
  }
  const pgm = Buffer.concat([Buffer.from(`P5\n${width} ${height}\n255\n`, 'latin1'), px]);
  writeFileSync(w('scan.pgm'), pgm);
  vips('copy', w('scan.pgm'), `${w('scan.jpg')}[Q=80,strip]`);
  return readFileSync(w('scan.jpg'));
}
function plotPng(seed) {
  for (let b = 0; b < 3; b++) vips('gaussnoise', w(`p${b}.v`), 16, 12, '--sigma', 50, '--mean', 150, '--seed', seed + b);
  vips('bandjoin', `${w('p0.v')} ${w('p1.v')} ${w('p2.v')}`, w('pf.v'));
  vips('cast', w('pf.v'), w('pf8.v'), 'uchar');
  vips('resize', w('pf8.v'), `${w('plot.png')}[strip,filter=all]`, 25, '--kernel', 'linear');
  return readFileSync(w('plot.png'));
}

// ------------------------------------------------------------------------ PDF
// objs: array of Buffers or strings (index = object number, 1-based); a stream object is
// { dict, data: Buffer }.
function writePdf(path, objs, rootRef = 1, infoRef = null) {
  const chunks = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let pos = chunks[0].length;
  const offsets = [];
  for (let n = 1; n < objs.length; n++) {
    offsets[n] = pos;
    const o = objs[n];
    const parts = typeof o === 'string'
      ? [Buffer.from(`${n} 0 obj\n${o}\nendobj\n`, 'latin1')]
      : [Buffer.from(`${n} 0 obj\n${o.dict.replace(/>>\s*$/, '')} /Length ${o.data.length} >>\nstream\n`, 'latin1'), o.data, Buffer.from('\nendstream\nendobj\n', 'latin1')];
    for (const p of parts) { chunks.push(p); pos += p.length; }
  }
  let tail = `xref\n0 ${objs.length}\n0000000000 65535 f \n`;
  for (let n = 1; n < objs.length; n++) tail += `${String(offsets[n]).padStart(10, '0')} 00000 n \n`;
  tail += `trailer\n<< /Size ${objs.length} /Root ${rootRef} 0 R${infoRef ? ` /Info ${infoRef} 0 R` : ''} >>\nstartxref\n${pos}\n%%EOF\n`;
  chunks.push(Buffer.from(tail, 'latin1'));
  const buf = Buffer.concat(chunks);
  writeFileSync(path, buf);
  return buf;
}
// Text pages: Helvetica 10 pt, 14 pt leading, US Letter. Lines use only [A-Za-z0-9 .,].
function textPdf(path, pageCount, linesPerPage, seed, title) {
  const r = rng(seed);
  const pages = [];
  for (let p = 1; p <= pageCount; p++) {
    pages.push([`Section ${p}. ${title} page ${p} of ${pageCount}, serial ${(p * 7919) % 100003}.`, ...proseLines(r, linesPerPage - 1, 95)]);
  }
  const objs = [];
  objs[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objs[2] = `<< /Type /Pages /Kids [${pages.map((_, i) => `${5 + 2 * i} 0 R`).join(' ')}] /Count ${pages.length} >>`;
  objs[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  objs[4] = `<< /Title (${title}) /Producer (tests/hosts/fixtures.mjs) >>`;
  pages.forEach((lines, i) => {
    const body = ['BT', '/F1 10 Tf', '14 TL', '54 750 Td', ...lines.map((l) => `(${l}) Tj T*`), 'ET'].join('\n');
    objs[5 + 2 * i] = `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${6 + 2 * i} 0 R >>`;
    objs[6 + 2 * i] = { dict: '<< >>', data: Buffer.from(body, 'latin1') };
  });
  const buf = writePdf(path, objs, 1, 4);
  return { pages: pageCount, firstLines: pages.map((l) => l[0]), bytes: buf.length, sha256: sha256(buf) };
}
// One page that is only an image (a "scan"): no font, no text operators.
function scanPdf(path) {
  const W = 1275, H = 1650; // US Letter at 150 dpi
  const jpeg = textMarksJpeg(W, H, 0x5ca9);
  const info = imageInfo(jpeg);
  if (!info || info.width !== W || info.height !== H) throw new Error(`scan.jpg: ${JSON.stringify(info)}`);
  const objs = [];
  objs[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objs[2] = '<< /Type /Pages /Kids [3 0 R] /Count 1 >>';
  objs[3] = '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im1 4 0 R >> >> /Contents 5 0 R >>';
  objs[4] = { dict: `<< /Type /XObject /Subtype /Image /Width ${W} /Height ${H} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /DCTDecode >>`, data: jpeg };
  objs[5] = { dict: '<< >>', data: Buffer.from('q 612 0 0 792 0 0 cm /Im1 Do Q', 'latin1') };
  const buf = writePdf(path, objs);
  return { pages: 1, jpegBytes: jpeg.length, bytes: buf.length, sha256: sha256(buf) };
}

// ------------------------------------------------------------------------ notebook, WAV
function notebook(path) {
  const r = rng(0x4e42);
  const cells = [];
  const images = [];
  for (let c = 1; c <= 4; c++) {
    const outputs = [{ name: 'stdout', output_type: 'stream', text: [`batch ${c}: ${256 + c * 8} rows\n`, ...Array.from({ length: 4 }, (_, i) => `  row ${i}  ${(r() * 1000).toFixed(3)}\n`)] }];
    if (c === 2 || c === 4) {
      const png = plotPng(1000 + c * 10);
      const info = imageInfo(png);
      images.push({ cell: c, bytes: png.length, width: info.width, height: info.height, sha256: sha256(png) });
      outputs.push({
        data: { 'image/png': png.toString('base64').match(/.{1,76}/g).map((l) => l + '\n'), 'text/plain': ['<Figure size 400x300 with 1 Axes>'] },
        metadata: {}, output_type: 'display_data',
      });
    }
    cells.push({ cell_type: 'markdown', id: `md-${c}`, metadata: {}, source: [`## Step ${c}\n`, `Load batch ${c} and plot it.`] });
    cells.push({
      cell_type: 'code', execution_count: c, id: `cell-${c}`, metadata: {}, outputs,
      source: [`batch = load_batch(${c})\n`, `print(f"batch ${c}: {len(batch)} rows")\n`, c % 2 === 0 ? `plot(batch, title="batch ${c}")` : 'batch.head(4)'],
    });
  }
  const nb = { cells, metadata: { kernelspec: { display_name: 'Python 3', language: 'python', name: 'python3' }, language_info: { name: 'python', version: '3.11.2' } }, nbformat: 4, nbformat_minor: 5 };
  const buf = Buffer.from(JSON.stringify(nb, null, 1) + '\n');
  writeFileSync(path, buf);
  return { cells: cells.length, images, bytes: buf.length, sha256: sha256(buf) };
}
function wav(path, rate = 16000, seconds = 1, freq = 440) {
  const n = rate * seconds;
  const buf = Buffer.alloc(44 + n * 2);
  buf.write('RIFF', 0, 'latin1'); buf.writeUInt32LE(36 + n * 2, 4); buf.write('WAVE', 8, 'latin1');
  buf.write('fmt ', 12, 'latin1'); buf.writeUInt32LE(16, 16); buf.writeUInt16LE(1, 20); buf.writeUInt16LE(1, 22);
  buf.writeUInt32LE(rate, 24); buf.writeUInt32LE(rate * 2, 28); buf.writeUInt16LE(2, 32); buf.writeUInt16LE(16, 34);
  buf.write('data', 36, 'latin1'); buf.writeUInt32LE(n * 2, 40);
  for (let i = 0; i < n; i++) buf.writeInt16LE(Math.round(12000 * Math.sin((2 * Math.PI * freq * i) / rate)), 44 + i * 2);
  writeFileSync(path, buf);
  return { bytes: buf.length, sha256: sha256(buf) };
}

// ------------------------------------------------------------------------ main
export function writeFixtures(dir) {
  mkdirSync(dir, { recursive: true });
  work = join(dir, '.work');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work);
  const t0 = Date.now();
  const meta = {};
  try {
    meta.vips = execFileSync('vips', ['--version'], { encoding: 'utf8' }).trim();
    writeFileSync(join(dir, 'text-1k.txt'), textOfSize(0x1001, 1024));
    writeFileSync(join(dir, 'text-60k.txt'), textOfSize(0x6001, 60 * 1024));
    writeFileSync(join(dir, 'text-150k.txt'), textOfSize(0x15001, 150 * 1024));
    writeFileSync(join(dir, 'text-400k.txt'), textOfSize(0x40001, 400 * 1024));
    for (let b = 0; b < 3; b++) vips('gaussnoise', w(`s${b}.v`), 20, 15, '--sigma', 50, '--mean', 140, '--seed', 61 + b);
    vips('bandjoin', `${w('s0.v')} ${w('s1.v')} ${w('s2.v')}`, w('sf.v'));
    vips('cast', w('sf.v'), w('sf8.v'), 'uchar');
    vips('resize', w('sf8.v'), `${join(dir, 'small.png')}[strip,filter=all]`, 10, '--kernel', 'linear');
    photoLike(`${join(dir, 'big.png')}[strip,filter=all]`, 4000, 3000, 100, 3, 21);
    genNoise(join(dir, 'noise.png'));
    photoLike(`${join(dir, 'photo.jpg')}[Q=90,strip]`, 6000, 4000, 100, 6, 31);
    meta.doc3 = textPdf(join(dir, 'doc3.pdf'), 3, 40, 0x3d0c, 'Host suite report');
    meta.scan = scanPdf(join(dir, 'scan.pdf'));
    meta.doc40 = textPdf(join(dir, 'doc40.pdf'), 40, 50, 0x9df1, 'Host suite long document');
    meta.notebook = notebook(join(dir, 'nb.ipynb'));
    meta.wav = wav(join(dir, 'tone.wav'));
    mkdirSync(join(dir, 'dir', 'sub'), { recursive: true });
    writeFileSync(join(dir, 'dir', 'a.txt'), 'alpha\n');
    writeFileSync(join(dir, 'dir', 'b.md'), '# beta\n');
    writeFileSync(join(dir, 'dir', 'sub', 'c.txt'), 'gamma\n');
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const expect = { 'small.png': [200, 150], 'big.png': [4000, 3000], 'noise.png': [4000, 3000], 'photo.jpg': [6000, 4000] };
  const cases = CASES.map((c) => {
    const path = join(dir, c.file);
    const out = { ...c, path };
    if (c.kind !== 'error') {
      const st = statSync(path);
      out.bytes = st.isDirectory() ? null : st.size;
    }
    if (expect[c.file]) {
      const buf = readFileSync(path);
      const info = imageInfo(buf);
      if (!info || info.width !== expect[c.file][0] || info.height !== expect[c.file][1]) throw new Error(`${c.file}: header says ${JSON.stringify(info)}`);
      Object.assign(out, { width: info.width, height: info.height, sha256: sha256(buf) });
    }
    return out;
  });
  const noise = cases.find((c) => c.file === 'noise.png');
  if (noise.bytes >= 20 * 1024 * 1024) throw new Error(`noise.png is ${noise.bytes} bytes: over mcp-read's 20 MiB image input limit`);
  const manifest = { dir, ...meta, cases, seconds: (Date.now() - t0) / 1000 };
  writeFileSync(join(dir, 'cases.json'), JSON.stringify(manifest, null, 2) + '\n');
  return manifest;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const dir = process.argv[2];
  if (!dir) { console.error('usage: node tests/hosts/fixtures.mjs DIR'); process.exit(2); }
  const m = writeFixtures(dir);
  const kb = (n) => (n == null ? 'dir' : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1048576).toFixed(1)} MiB`);
  console.log(`fixtures (${m.vips}, ${m.seconds.toFixed(1)} s): ` + m.cases.map((c) => `${c.file} ${c.kind === 'error' ? '(missing)' : kb(c.bytes)}`).join(', '));
}
