#pragma once
// Images made at test time with libvips' C API (the tests link libvips; the server does not), and
// helpers that decode what the image reader sent. No libvips type leaks into this header.
#include <string>
#include <string_view>
#include <vector>

namespace mcpread::test {

enum class Pattern {
  gradient,  // smooth colour ramps: compresses well, like a photo of the sky
  photo,     // gradient plus mild noise: compresses like a camera photo
  noise,     // gradient plus strong noise: compresses badly
  halves,    // left half black, right half white: shows which way an image was turned
};

struct Picture {
  int width = 64;
  int height = 48;
  int bands = 3;  // 1 grey, 2 grey+alpha, 3 RGB, 4 RGBA
  Pattern pattern = Pattern::gradient;
  int pages = 1;              // > 1: an animation of `pages` frames (GIF, WebP)
  bool opaque_alpha = false;  // an alpha channel that is 255 everywhere (as in screenshots)
};

// Encodes `picture` in the format named by `suffix`, saver options included, as libvips'
// *_save_buffer understands it: ".png", ".jpg[Q=90,interlace]", ".gif", ".webp", ".tif",
// ".heic", ".avif", ".jxl". ".bmp" and ".ico" go through ImageMagick. Empty when the encoder is
// unavailable; *why then holds libvips' reason.
std::string encode_picture(const Picture& picture, const std::string& suffix,
                           std::string* why = nullptr);
// A JPEG whose EXIF orientation tag is `orientation` (pixels stored unrotated).
std::string jpeg_with_orientation(const Picture& picture, int orientation);
// A CMYK JPEG (the picture converted with libvips' built-in CMYK profile).
std::string cmyk_jpeg(const Picture& picture);
// A 16-bit-per-sample RGB PNG.
std::string png16(const Picture& picture);
// A Windows icon holding one PNG-compressed RGBA image per size (each ≤ 256), in that order.
std::string ico_with_sizes(const std::vector<int>& sizes);
// A small valid PNG whose header is patched to claim width×height (a decompression bomb's shape).
std::string png_claiming(unsigned width, unsigned height);
// SVG text of the given natural size: a filled rectangle on a transparent background.
std::string svg_text(int width, int height);
// An OpenEXR file (scanline, uncompressed, 32-bit float R, G and B; libvips reads OpenEXR but
// cannot write it): R rises from 0 at the left to `peak` at the right (values over 1 are HDR),
// G is 0.5 and B 0.25 everywhere.
std::string exr_rgb(int width, int height, float peak);
// A Netpbm file: "P5" grey (1 band) or "P6" RGB (3 bands), 8-bit, sample i of the raster = i % 256.
std::string netpbm(int width, int height, int bands);
// `count` pseudo-random bytes (fixed seed).
std::string random_bytes(std::size_t count);

// What an encoded image decodes to (header of the first page, and the page count).
struct DecodedImage {
  bool ok = false;
  std::string error;
  std::string loader;  // e.g. "pngload_buffer"
  int width = 0;
  int height = 0;  // of one page
  int bands = 0;
  int pages = 1;
  int orientation = 1;
  bool sixteen_bit = false;
};
DecodedImage decode_image(std::string_view bytes);
// The sample values at (x, y) of the first page; empty on failure.
std::vector<double> pixel_at(std::string_view bytes, int x, int y);
std::string base64_decode(std::string_view text);

}  // namespace mcpread::test
