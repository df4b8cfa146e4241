#!/usr/bin/env node
// Writes the image fixtures of the benchmark into DIR with the `vips` command (Debian package
// libvips-tools), deterministically: every pixel comes from seeded `vips gaussnoise`, and the
// encoders add no timestamps, so the same libvips version writes the same bytes on every run.
//
//   DIR/pass.png    ~3.5 MB, 1400×900 RGB noise: compresses poorly, yet its base64 (~4.7 MB)
//                   stays under the 5,242,880-character limit, so it can be sent unchanged
//   DIR/big.png     ~4.9 MB, 2000×1500 photo-like PNG (smooth colour fields + grain): within the
//                   2000 px edge but its base64 (~6.5 MB) is over the limit
//   DIR/photo.jpg   6000×4000 (24 megapixels) photo-like JPEG, quality 90, ~7.9 MB
//   DIR/scan.bmp    2000×1500 24-bit BMP (a synthetic scan: light paper, dark ink, sensor
//                   noise), 9 MB; BMP is not a format model APIs accept
//   DIR/noise.png   4000×3000 (12 megapixels) RGB gaussian noise (sigma 4), PNG, ~18 MB: the
//                   worst case for fitting an image into a byte budget (a PNG has no
//                   shrink-on-load, and noise compresses badly), yet under mcp-read's default
//                   20 MiB limit for image files (--image-max-input-bytes)
//   DIR/images.json sizes, dimensions and SHA-256 of the files above, and the limits
//
// Usage: node bench/gen-images.mjs DIR [--without-noise]
//   (--without-noise: no noise.png, which only the Claude Code image budget rows use; it takes
//   about half of the script's time)
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync, rmSync, openSync, fsyncSync, closeSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { imageInfo } from "./image-headers.mjs";

const dir = process.argv[2];
const withNoise = !process.argv.slice(3).includes("--without-noise");
if (!dir) {
  console.error("usage: node gen-images.mjs DIR [--without-noise]");
  process.exit(2);
}
mkdirSync(dir, { recursive: true });
const work = join(dir, ".images-work"); // intermediate .v files, removed at the end
rmSync(work, { recursive: true, force: true });
mkdirSync(work);

const MAX_EDGE = 2000;
const MAX_BASE64 = 5 * 1024 * 1024; // 5,242,880 characters of base64
const b64len = (n) => 4 * Math.ceil(n / 3);

let vipsCalls = 0;
function vips(...args) {
  vipsCalls++;
  execFileSync("vips", args.map(String), { stdio: ["ignore", "ignore", "inherit"] });
}
const w = (name) => join(work, name);
// An RGB float image: three bands of gaussnoise (one seed each).
function noise3(out, width, height, sigma, mean, seed) {
  for (let b = 0; b < 3; b++) vips("gaussnoise", w(`n${b}.v`), width, height, "--sigma", sigma, "--mean", mean, "--seed", seed + b);
  vips("bandjoin", `${w("n0.v")} ${w("n1.v")} ${w("n2.v")}`, out);
}
// Smooth colour fields: a coarse grid of random colours, upscaled with a cubic kernel, as uchar.
function fields(out, cols, rows, factor, seed) {
  noise3(w("f.v"), cols, rows, 45, 128, seed);
  vips("cast", w("f.v"), w("f8.v"), "uchar");
  vips("resize", w("f8.v"), out, factor, "--kernel", "cubic");
}

// -------------------------------------------------------------- pass.png: noise, ~3.5 MB
function genPass(path) {
  noise3(w("pass.v"), 1400, 900, 30, 128, 11);
  vips("cast", w("pass.v"), `${path}[strip,filter=all]`, "uchar");
}
// -------------------------------------------------------------- big.png: photo-like, ~4.9 MB
function genBig(path) {
  fields(w("big-f.v"), 40, 30, 50, 21); // 2000×1500
  vips("gaussnoise", w("grain.v"), 2000, 1500, "--sigma", 4.5, "--mean", 0, "--seed", 24);
  vips("add", w("big-f.v"), w("grain.v"), w("big-s.v"));
  vips("cast", w("big-s.v"), `${path}[strip,filter=all]`, "uchar");
}
// -------------------------------------------------------------- photo.jpg: 6000×4000
function genPhoto(path) {
  fields(w("photo-f.v"), 60, 40, 100, 31); // 6000×4000
  vips("gaussnoise", w("grain.v"), 6000, 4000, "--sigma", 6, "--mean", 0, "--seed", 34); // luminance grain
  vips("add", w("photo-f.v"), w("grain.v"), w("photo-s.v"));
  vips("cast", w("photo-s.v"), `${path}[Q=90,strip]`, "uchar");
}
// -------------------------------------------------------------- noise.png: 4000×3000 noise
function genNoise(path) {
  noise3(w("noise.v"), 4000, 3000, 4, 128, 51); // sigma 4: ~4 bits of entropy per sample
  vips("cast", w("noise.v"), `${path}[strip]`, "uchar");
}
// -------------------------------------------------------------- scan.bmp: 2000×1500, 24-bit
// libvips has no BMP writer of its own (only through ImageMagick), so it writes raw RGB and the
// BMP (the classic BITMAPINFOHEADER, BI_RGB, bottom-up rows) is assembled here.
function genScan(path) {
  const W = 2000, H = 1500;
  vips("gaussnoise", w("ink.v"), 200, 150, "--sigma", 30, "--mean", 128, "--seed", 41);
  vips("relational_const", w("ink.v"), w("ink2.v"), "less", 165); // 255 paper, 0 ink (~8%)
  vips("resize", w("ink2.v"), w("ink3.v"), 10, "--kernel", "nearest");
  vips("linear", w("ink3.v"), w("paper.v"), "0.83 0.82 0.80", "30 32 36"); // tinted paper and ink
  vips("gaussnoise", w("grain.v"), W, H, "--sigma", 3, "--mean", 0, "--seed", 42);
  vips("add", w("paper.v"), w("grain.v"), w("scan-s.v"));
  vips("cast", w("scan-s.v"), w("scan8.v"), "uchar");
  vips("rawsave", w("scan8.v"), w("scan.raw"));
  const rgb = readFileSync(w("scan.raw"));
  if (rgb.length !== W * H * 3) throw new Error(`scan: raw size ${rgb.length}, expected ${W * H * 3}`);
  const stride = (W * 3 + 3) & ~3;
  const out = Buffer.alloc(54 + stride * H);
  out.write("BM", 0, "latin1");
  out.writeUInt32LE(out.length, 2);
  out.writeUInt32LE(54, 10);        // pixel data offset
  out.writeUInt32LE(40, 14);        // BITMAPINFOHEADER
  out.writeInt32LE(W, 18);
  out.writeInt32LE(H, 22);          // positive: bottom-up
  out.writeUInt16LE(1, 26);         // planes
  out.writeUInt16LE(24, 28);        // bits per pixel
  out.writeUInt32LE(0, 30);         // BI_RGB
  out.writeUInt32LE(stride * H, 34);
  out.writeInt32LE(11811, 38);      // 300 dpi
  out.writeInt32LE(11811, 42);
  for (let y = 0; y < H; y++) {
    const src = (H - 1 - y) * W * 3;
    const dst = 54 + y * stride;
    for (let x = 0; x < W; x++) {
      const s = src + x * 3, d = dst + x * 3;
      out[d] = rgb[s + 2]; out[d + 1] = rgb[s + 1]; out[d + 2] = rgb[s]; // BGR
    }
  }
  writeFileSync(path, out);
}

function fsync(path) {
  const fd = openSync(path, "r+");
  fsyncSync(fd); // no writeback of the fresh file while the servers are being measured
  closeSync(fd);
}

const t0 = Date.now();
const specs = [
  { key: "pass", file: "pass.png", mime: "image/png", gen: genPass, width: 1400, height: 900 },
  { key: "big", file: "big.png", mime: "image/png", gen: genBig, width: 2000, height: 1500 },
  { key: "photo", file: "photo.jpg", mime: "image/jpeg", gen: genPhoto, width: 6000, height: 4000 },
  { key: "scan", file: "scan.bmp", mime: "image/bmp", gen: genScan, width: 2000, height: 1500 },
  { key: "noise", file: "noise.png", mime: "image/png", gen: genNoise, width: 4000, height: 3000 },
].filter((s) => withNoise || s.key !== "noise");
const manifest = { maxEdge: MAX_EDGE, maxBase64: MAX_BASE64, vips: "", images: {} };
try {
  manifest.vips = execFileSync("vips", ["--version"], { encoding: "utf8" }).trim();
  for (const s of specs) {
    const path = join(dir, s.file);
    s.gen(path);
    fsync(path);
    const buf = readFileSync(path);
    const info = imageInfo(buf);
    if (!info || info.width !== s.width || info.height !== s.height) {
      throw new Error(`${s.file}: expected ${s.width}×${s.height}, header says ${JSON.stringify(info)}`);
    }
    manifest.images[s.key] = {
      path, file: s.file, mime: s.mime, format: info.format, bytes: buf.length, base64: b64len(buf.length),
      width: info.width, height: info.height, sha256: createHash("sha256").update(buf).digest("hex"),
    };
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

// The fixtures must sit on the intended side of the limits.
const I = manifest.images;
const checks = [
  [I.pass.base64 <= MAX_BASE64 && Math.max(I.pass.width, I.pass.height) <= MAX_EDGE, "pass.png must be within both limits"],
  [I.pass.bytes >= 3_000_000, "pass.png must be large (>= 3 MB)"],
  [I.big.base64 > MAX_BASE64 && Math.max(I.big.width, I.big.height) <= MAX_EDGE, "big.png must be over the base64 limit only"],
  [Math.max(I.photo.width, I.photo.height) > MAX_EDGE, "photo.jpg must be over the edge limit"],
  [!I.noise || (I.noise.bytes >= 15_000_000 && I.noise.bytes < 20 * 1024 * 1024), "noise.png must be large (>= 15 MB) yet under mcp-read's default 20 MiB input limit"],
];
for (const [ok, what] of checks) if (!ok) throw new Error(`image fixtures: ${what} (${JSON.stringify(I)})`);
writeFileSync(join(dir, "images.json"), JSON.stringify(manifest, null, 2) + "\n");

const mb = (n) => (n / 1e6).toFixed(2) + " MB";
console.log(`fixtures: ${specs.map((s) => `${s.file} ${I[s.key].width}×${I[s.key].height} ${mb(I[s.key].bytes)}`).join("; ")} ` +
  `(${manifest.vips}, ${vipsCalls} vips calls, ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
