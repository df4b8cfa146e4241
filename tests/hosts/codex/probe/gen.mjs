// Content generators for probe/measure.mjs: PNG (gradient or random noise), WAV, tiny PDF, long text.
import { randomBytes } from 'node:crypto';
import { gradientPng, rgbPng } from '../../common/png.mjs';

export function png(w, h, kind = 'gradient') {
  if (kind !== 'noise') return gradientPng(w, h);
  const rnd = randomBytes(w * h * 3);
  return rgbPng(w, h, (x, y) => { const q = (y * w + x) * 3; return [rnd[q], rnd[q + 1], rnd[q + 2]]; });
}
export function imageInfo(b64) {
  const b = Buffer.from(b64, 'base64');
  if (b.length > 24 && b.readUInt32BE(0) === 0x89504e47) return { format: 'png', w: b.readUInt32BE(16), h: b.readUInt32BE(20) };
  if (b.length > 4 && b[0] === 0xff && b[1] === 0xd8) {
    for (let i = 2; i + 9 < b.length;) {
      if (b[i] !== 0xff) break;
      const m = b[i + 1]; const len = b.readUInt16BE(i + 2);
      if (m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc) return { format: 'jpeg', w: b.readUInt16BE(i + 7), h: b.readUInt16BE(i + 5) };
      i += 2 + len;
    }
    return { format: 'jpeg' };
  }
  if (b.slice(0, 4).toString() === 'RIFF' && b.slice(8, 12).toString() === 'WEBP') return { format: 'webp' };
  if (b.slice(0, 3).toString() === 'GIF') return { format: 'gif', w: b.readUInt16LE(6), h: b.readUInt16LE(8) };
  return { format: '?' };
}
export function bigText(n) {
  let s = ''; let i = 0;
  while (s.length < n) { s += `${String(i).padStart(6, '0')} abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRST\n`; i++; }
  return s.slice(0, n);
}
export function wav(samples = 800) {
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) data.writeInt16LE(Math.round(Math.sin(i / 5) * 8000), i * 2);
  const h = Buffer.alloc(44);
  h.write('RIFF', 0); h.writeUInt32LE(36 + data.length, 4); h.write('WAVE', 8); h.write('fmt ', 12);
  h.writeUInt32LE(16, 16); h.writeUInt16LE(1, 20); h.writeUInt16LE(1, 22); h.writeUInt32LE(8000, 24);
  h.writeUInt32LE(16000, 28); h.writeUInt16LE(2, 32); h.writeUInt16LE(16, 34); h.write('data', 36); h.writeUInt32LE(data.length, 40);
  return Buffer.concat([h, data]);
}
export const TINY_PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj 3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

