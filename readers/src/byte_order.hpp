#pragma once
// Little-endian integers at a position in a record's bytes, as the binary formats (the OLE2
// streams of .xls and .ppt, BIFF records) store them. The caller has checked the bounds.
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace mcpread::readers::bytes {

inline std::uint16_t le16(std::string_view s, std::size_t at) {
  return static_cast<std::uint16_t>(static_cast<unsigned char>(s[at]) | static_cast<unsigned char>(s[at + 1]) << 8);
}

inline std::uint32_t le32(std::string_view s, std::size_t at) {
  return le16(s, at) | static_cast<std::uint32_t>(le16(s, at + 2)) << 16;
}

}  // namespace mcpread::readers::bytes
