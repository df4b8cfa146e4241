// Image headers, parsed by hand (no image libraries): format and dimensions of PNG (IHDR), JPEG
// (the first SOFn marker) and BMP, and whether a PNG or JPEG stream is complete.

// { format: "png"|"jpeg"|"bmp", width, height, alpha? } or null when the bytes are none of these.
export function imageInfo(buf) {
  if (buf.length >= 26 && buf.readUInt32BE(0) === 0x89504e47 && buf.readUInt32BE(4) === 0x0d0a1a0a &&
      buf.toString("latin1", 12, 16) === "IHDR") {
    const colorType = buf[25]; // 4: grey + alpha, 6: RGBA (a tRNS chunk is not looked for)
    return { format: "png", width: buf.readUInt32BE(16), height: buf.readUInt32BE(20), alpha: colorType === 4 || colorType === 6 };
  }
  if (buf.length >= 4 && buf[0] === 0xff && buf[1] === 0xd8) {
    let p = 2;
    while (p + 9 < buf.length) {
      if (buf[p] !== 0xff) return null;
      const m = buf[p + 1];
      if (m === 0xff) { p++; continue; }                                  // fill byte
      if ((m >= 0xd0 && m <= 0xd7) || m === 0x01) { p += 2; continue; }    // no length
      if (m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc) { // SOF0..SOF15
        return { format: "jpeg", width: buf.readUInt16BE(p + 7), height: buf.readUInt16BE(p + 5), alpha: false };
      }
      if (m === 0xda || m === 0xd9) return null;                          // scan before any SOF
      p += 2 + buf.readUInt16BE(p + 2);
    }
    return null;
  }
  if (buf.length >= 30 && buf.toString("latin1", 0, 2) === "BM") {
    return { format: "bmp", width: buf.readInt32LE(18), height: Math.abs(buf.readInt32LE(22)), alpha: buf.readUInt16LE(28) === 32 };
  }
  return null;
}

// True when a PNG ends with its IEND chunk, or a JPEG with the EOI marker.
export function imageComplete(buf, format) {
  if (format === "png") {
    return buf.length >= 12 && buf.toString("latin1", buf.length - 8, buf.length - 4) === "IEND";
  }
  if (format === "jpeg") return buf.length >= 2 && buf[buf.length - 2] === 0xff && buf[buf.length - 1] === 0xd9;
  return true;
}
