#pragma once
// A zip of stored (uncompressed) entries, written by hand so that a fuzz target can wrap a
// mutated part in a valid package (fuzz_office, fuzz_slides, fuzz_sheets).
#include <zlib.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mcpread::fuzz {

inline void put16(std::string& s, unsigned v) {
  s += static_cast<char>(v & 0xFF);
  s += static_cast<char>((v >> 8) & 0xFF);
}
inline void put32(std::string& s, std::uint32_t v) {
  put16(s, v & 0xFFFF);
  put16(s, v >> 16);
}

inline std::string stored_zip(const std::vector<std::pair<std::string, std::string_view>>& entries) {
  std::string out, central;
  for (const auto& [name, data] : entries) {
    const auto crc = static_cast<std::uint32_t>(
        crc32(0, reinterpret_cast<const Bytef*>(data.data()), static_cast<uInt>(data.size())));
    const auto offset = static_cast<std::uint32_t>(out.size());
    put32(out, 0x04034b50);
    put16(out, 20), put16(out, 0), put16(out, 0), put16(out, 0), put16(out, 0);
    put32(out, crc), put32(out, static_cast<std::uint32_t>(data.size())), put32(out, static_cast<std::uint32_t>(data.size()));
    put16(out, static_cast<unsigned>(name.size())), put16(out, 0);
    out += name;
    out += data;
    put32(central, 0x02014b50);
    put16(central, 20), put16(central, 20), put16(central, 0), put16(central, 0), put16(central, 0), put16(central, 0);
    put32(central, crc), put32(central, static_cast<std::uint32_t>(data.size())),
        put32(central, static_cast<std::uint32_t>(data.size()));
    put16(central, static_cast<unsigned>(name.size())), put16(central, 0), put16(central, 0), put16(central, 0),
        put16(central, 0);
    put32(central, 0), put32(central, offset);
    central += name;
  }
  const auto central_offset = static_cast<std::uint32_t>(out.size());
  out += central;
  put32(out, 0x06054b50);
  put16(out, 0), put16(out, 0);
  put16(out, static_cast<unsigned>(entries.size())), put16(out, static_cast<unsigned>(entries.size()));
  put32(out, static_cast<std::uint32_t>(central.size())), put32(out, central_offset);
  put16(out, 0);
  return out;
}

}  // namespace mcpread::fuzz
