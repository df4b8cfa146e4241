// Tiny PNG writer (node:zlib only) for the smoke tests, the stand-in servers and the measurements:
// 8-bit RGB PNGs from a pixel function or from ready scanlines, plus a few fixed patterns.
import zlib from 'node:zlib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
export function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** One PNG chunk: length, type, data, CRC. */
export function pngChunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/**
 * An 8-bit RGB PNG of w x h from its scanlines `raw` ((w * 3 + 1) * h bytes, each row a filter byte
 * then RGB triples), deflated at zlib `level` (default zlib's own, 6).
 */
export function encodePng(w, h, raw, { level } = {}) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', zlib.deflateSync(raw, level === undefined ? {} : { level })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** An RGB PNG of w x h whose pixel (x, y) is pixel(x, y) = [r, g, b], called row by row. */
export function rgbPng(w, h, pixel, opts) {
  const stride = w * 3 + 1;
  const raw = Buffer.alloc(stride * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const [r, g, b] = pixel(x, y);
      const o = y * stride + 1 + x * 3;
      raw[o] = r; raw[o + 1] = g; raw[o + 2] = b;
    }
  }
  return encodePng(w, h, raw, opts);
}

/** Red rising left to right, green top to bottom, blue 128. */
export const gradientPng = (w, h) => rgbPng(w, h, (x, y) => [(x * 255 / w) | 0, (y * 255 / h) | 0, 128]);

/** Red repeating every 64 pixels across, green every 51.2 down, blue 128. */
export const tilePng = (w, h) => rgbPng(w, h, (x, y) => [(x * 4) & 255, (y * 5) & 255, 128]);

/**
 * An RGB PNG of w x h, deflated at level 9: byte i of row y is (i * 7 + y * 3) & 0xff, except a
 * `noise` fraction (0..1) of random bytes (xorshift from `seed`; less compressible).
 */
export function makePng(w, h, { noise = 0, seed = 1 } = {}) {
  let s = seed >>> 0 || 1;
  const rnd = () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s & 0xff; };
  const raw = Buffer.alloc((w * 3 + 1) * h);
  for (let y = 0; y < h; y++) {
    const row = y * (w * 3 + 1);
    for (let x = 0; x < w * 3; x++) {
      raw[row + 1 + x] = noise && rnd() / 255 < noise ? rnd() : (x * 7 + y * 3) & 0xff;
    }
  }
  return encodePng(w, h, raw, { level: 9 });
}

/** The same PNG grown to exactly `total` bytes with a tEXt chunk. */
export function padPng(png, total) {
  const need = total - png.length - 12;
  if (need < 9) throw new Error(`padPng: ${total} is too small for a ${png.length}-byte PNG`);
  const data = Buffer.alloc(need, 0x61);
  Buffer.from('Comment\0', 'latin1').copy(data);
  const iend = png.length - 12;
  return Buffer.concat([png.subarray(0, iend), pngChunk('tEXt', data), png.subarray(iend)]);
}

/** [width, height] of a PNG or JPEG, or null. */
export function imageDims(buf) {
  if (buf.length > 24 && buf.readUInt32BE(0) === 0x89504e47) return [buf.readUInt32BE(16), buf.readUInt32BE(20)];
  if (buf.length > 4 && buf[0] === 0xff && buf[1] === 0xd8) {
    for (let i = 2; i + 9 < buf.length;) {
      if (buf[i] !== 0xff) { i += 1; continue; }
      const m = buf[i + 1];
      if (m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc) return [buf.readUInt16BE(i + 7), buf.readUInt16BE(i + 5)];
      i += 2 + buf.readUInt16BE(i + 2);
    }
  }
  return null;
}
