#include "image_checks.hpp"

#include "mcpread/readers/utf8.hpp"

#include <libdeflate.h>

#include <cstdint>

namespace mcpread::readers::image_checks {

bool looks_complete(std::string_view format, std::string_view b) {
  if (format == "PNG") return b.ends_with(std::string_view("\0\0\0\0IEND\xAE\x42\x60\x82", 12));
  if (format == "GIF") return b.ends_with('\x3B');
  if (format == "JPEG") {
    const std::size_t eoi = b.rfind("\xFF\xD9");
    return eoi != std::string_view::npos && b.size() - eoi <= 4096 + 2;
  }
  if (format == "WEBP") {
    if (b.size() < 12) return false;
    const auto* u = reinterpret_cast<const unsigned char*>(b.data());
    const std::uint64_t riff = u[4] | (u[5] << 8) | (u[6] << 16) | (std::uint64_t{u[7]} << 24);
    return riff + 8 <= b.size();
  }
  return false;
}

namespace {

std::uint32_t be32(std::string_view b, std::size_t at) {
  const auto* u = reinterpret_cast<const unsigned char*>(b.data() + at);
  return std::uint32_t{u[0]} << 24 | std::uint32_t{u[1]} << 16 | std::uint32_t{u[2]} << 8 | u[3];
}

}  // namespace

PngChunkProblem png_chunk_problem(std::string_view b) {
  std::size_t at = 8;
  while (at + 12 <= b.size()) {
    const std::uint32_t length = be32(b, at);
    const std::string type = utf8::sanitized(b.substr(at + 4, 4));
    if (length > b.size() - at - 12)
      return {"its " + type + " chunk at byte " + std::to_string(at) + " runs past the end of the file", false};
    // libdeflate's crc32 (carry-less multiplication where the CPU has it): every PNG passed
    // through pays for this, over the type and data of each chunk.
    if (libdeflate_crc32(0, b.data() + at + 4, std::size_t{length} + 4) != be32(b, at + 8 + length)) {
      // The type's first letter is upper case (bit 5 clear) for critical chunks.
      const bool critical = (static_cast<unsigned char>(b[at + 4]) & 0x20) == 0;
      return {"its " + type + " chunk at byte " + std::to_string(at) + " fails its CRC check", critical};
    }
    at += std::size_t{length} + 12;
  }
  return {at == b.size() ? std::string() : "it ends inside a chunk header", false};
}

}  // namespace mcpread::readers::image_checks
