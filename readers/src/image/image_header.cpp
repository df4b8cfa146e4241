#include "image_header.hpp"

#include "image_checks.hpp"
#include "mcpread/readers/base64.hpp"

#include <algorithm>
#include <cstdint>

namespace mcpread::readers::image_header {
namespace {

std::uint32_t be32(std::string_view b, std::size_t at) {
  const auto* u = reinterpret_cast<const unsigned char*>(b.data() + at);
  return std::uint32_t{u[0]} << 24 | std::uint32_t{u[1]} << 16 | std::uint32_t{u[2]} << 8 | u[3];
}

unsigned be16(std::string_view b, std::size_t at) {
  const auto* u = reinterpret_cast<const unsigned char*>(b.data() + at);
  return unsigned{u[0]} << 8 | u[1];
}

unsigned byte(std::string_view b, std::size_t at) { return static_cast<unsigned char>(b[at]); }

// The EXIF orientation in a TIFF structure (the body of a JPEG's Exif segment after "Exif\0\0"):
// 1 when IFD0 has no orientation tag, 0 when the structure cannot be read.
unsigned exif_orientation(std::string_view t) {
  if (t.size() < 8) return 0;
  const bool little = t.starts_with(std::string_view("II*\0", 4));
  if (!little && !t.starts_with(std::string_view("MM\0*", 4))) return 0;
  const auto u16 = [&](std::size_t at) {
    return little ? byte(t, at) | byte(t, at + 1) << 8 : be16(t, at);
  };
  const auto u32 = [&](std::size_t at) {
    return little ? std::uint32_t{u16(at)} | std::uint32_t{u16(at + 2)} << 16 : be32(t, at);
  };
  const std::uint32_t ifd = u32(4);
  if (ifd < 8 || std::uint64_t{ifd} + 2 > t.size()) return 0;
  const unsigned entries = u16(ifd);
  if (std::uint64_t{ifd} + 2 + 12ull * entries > t.size()) return 0;
  for (unsigned i = 0; i < entries; ++i) {
    const std::size_t e = ifd + 2 + 12 * std::size_t{i};
    if (u16(e) != 0x0112) continue;
    if (u16(e + 2) != 3 || u32(e + 4) != 1) return 0;  // SHORT, one value
    return u16(e + 8);
  }
  return 1;
}

std::optional<Plain> png(std::string_view b) {
  // Signature, then IHDR first with its 13 bytes (PNG 1.2, 5.2 and 11.2.2).
  if (b.size() < 8 + 25 || b.substr(12, 4) != "IHDR" || be32(b, 8) != 13) return std::nullopt;
  const std::uint32_t w = be32(b, 16), h = be32(b, 20);
  const unsigned depth = byte(b, 24), colour = byte(b, 25);
  if (w == 0 || h == 0 || w > 0x7FFFFFFF || h > 0x7FFFFFFF || depth != 8 ||
      !(colour == 0 || colour == 2 || colour == 3 || colour == 4 || colour == 6) || byte(b, 26) != 0 ||
      byte(b, 27) != 0 || byte(b, 28) > 1)
    return std::nullopt;
  // An eXIf chunk may carry an orientation, which libvips reads and applies.
  for (std::size_t at = 8; at + 8 <= b.size();) {
    if (b.substr(at + 4, 4) == "eXIf") return std::nullopt;
    const std::uint64_t next = at + std::uint64_t{be32(b, at)} + 12;
    if (next > b.size()) break;  // the chunk check (image_checks) says what is wrong
    at = static_cast<std::size_t>(next);
  }
  return Plain{"PNG", w, h};
}

// A DQT or DHT segment's tables fill it exactly (ITU T.81, B.2.4.1 and B.2.4.2).
bool tables_well_formed(unsigned marker, std::string_view s) {
  std::size_t at = 0;
  while (at < s.size()) {
    const unsigned kind = byte(s, at) >> 4, id = byte(s, at) & 0x0F;
    if (marker == 0xDB) {  // quantisation: 64 values of 8 or 16 bits
      if (kind > 1 || id > 3) return false;
      at += 1 + (kind == 0 ? 64 : 128);
    } else {  // Huffman: 16 counts, then that many symbols
      if (kind > 1 || id > 3 || at + 17 > s.size()) return false;
      std::size_t symbols = 0;
      for (std::size_t i = 1; i <= 16; ++i) symbols += byte(s, at + i);
      if (symbols == 0 || symbols > 256) return false;
      at += 17 + symbols;
    }
  }
  return at == s.size();
}

std::optional<Plain> jpeg(std::string_view b) {
  std::optional<Plain> frame;
  std::size_t at = 2;  // after SOI
  while (at + 4 <= b.size()) {
    if (byte(b, at) != 0xFF) return std::nullopt;
    const unsigned marker = byte(b, at + 1);
    if (marker == 0xFF) {  // fill byte
      ++at;
      continue;
    }
    if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) return std::nullopt;  // not before a scan
    const unsigned length = be16(b, at + 2);
    if (length < 2 || at + 2 + length > b.size()) return std::nullopt;
    const std::string_view body = b.substr(at + 4, length - 2);
    // An orientation other than 1 is applied by libvips (pixels turned before sending).
    if (marker == 0xE1 && body.starts_with(std::string_view("Exif\0\0", 6)) && exif_orientation(body.substr(6)) != 1)
      return std::nullopt;
    if ((marker == 0xDB || marker == 0xC4) && !tables_well_formed(marker, body)) return std::nullopt;
    if (marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC) {
      // Baseline, extended and progressive Huffman coding only; lossless, hierarchical and
      // arithmetic-coded files are left to libvips, as are CMYK and 12-bit samples.
      if (frame || !(marker == 0xC0 || marker == 0xC1 || marker == 0xC2) || body.size() < 6) return std::nullopt;
      const unsigned precision = byte(body, 0), h = be16(body, 1), w = be16(body, 3), n = byte(body, 5);
      if (precision != 8 || h == 0 || w == 0 || !(n == 1 || n == 3) || body.size() != 6 + 3 * std::size_t{n})
        return std::nullopt;
      frame = Plain{"JPEG", w, h};
    }
    if (marker == 0xDA) return frame;  // the first scan: the header is complete
    at += 2 + length;
  }
  return std::nullopt;
}

}  // namespace

std::optional<Plain> plain_header(std::string_view bytes) {
  if (bytes.starts_with("\x89PNG\r\n\x1A\n")) return png(bytes);
  if (bytes.starts_with("\xFF\xD8\xFF")) return jpeg(bytes);
  return std::nullopt;
}

std::optional<EncodedImage> pass_through(std::string_view bytes, const ImageLimits& limits, Bytes* owned) {
  const std::optional<Plain> p = plain_header(bytes);
  if (!p) return std::nullopt;
  // Cheapest first; the CRCs of a PNG's chunks last (one pass over the file).
  if (std::max(p->width, p->height) > limits.max_edge ||
      (limits.max_tiles > 0 && tiles_of(p->width, p->height) > limits.max_tiles) ||
      base64_size(bytes.size()) > limits.max_base64_bytes || !image_checks::looks_complete(p->format, bytes) ||
      (p->format == "PNG" && !image_checks::png_chunk_problem(bytes).text.empty()))
    return std::nullopt;
  EncodedImage out;
  out.mime = p->format == "PNG" ? "image/png" : "image/jpeg";
  out.data = owned != nullptr ? std::move(*owned) : bytes_of(bytes);
  out.width = out.original_width = p->width;
  out.height = out.original_height = p->height;
  out.original_format = p->format;
  out.passed_through = true;
  return out;
}

}  // namespace mcpread::readers::image_header
