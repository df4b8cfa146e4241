#pragma once
// Small helpers the readers' sniffers share to look at a file's first bytes.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace mcpread::readers::sig {

using Bytes = std::span<const unsigned char>;

inline bool has_at(Bytes b, std::size_t at, std::string_view sig) {
  if (b.size() < at + sig.size()) return false;
  for (std::size_t i = 0; i < sig.size(); ++i)
    if (b[at + i] != static_cast<unsigned char>(sig[i])) return false;
  return true;
}

inline std::uint32_t be32(Bytes b, std::size_t at) {
  return std::uint32_t{b[at]} << 24 | std::uint32_t{b[at + 1]} << 16 |
         std::uint32_t{b[at + 2]} << 8 | std::uint32_t{b[at + 3]};
}
inline std::uint32_t le32(Bytes b, std::size_t at) {
  return std::uint32_t{b[at + 3]} << 24 | std::uint32_t{b[at + 2]} << 16 |
         std::uint32_t{b[at + 1]} << 8 | std::uint32_t{b[at]};
}
inline unsigned le16(Bytes b, std::size_t at) { return unsigned{b[at]} | unsigned{b[at + 1]} << 8; }

// Where `sig` first starts among the first `within` positions.
inline std::optional<std::size_t> find(Bytes b, std::string_view sig, std::size_t within) {
  for (std::size_t i = 0; i < within && i + sig.size() <= b.size(); ++i)
    if (has_at(b, i, sig)) return i;
  return std::nullopt;
}

// The brands of an ISO base media file ("ftyp" box: HEIC/AVIF images, M4A audio): the major
// brand, then the compatible ones. Empty when the bytes hold no ftyp box.
struct IsoBrands {
  std::string_view major;
  Bytes box;  // the whole box as far as the head holds it (at most 256 bytes)
  template <class F>
  void each(F f) const {  // every brand, major first
    f(major);
    for (std::size_t at = 16; at + 4 <= box.size(); at += 4)
      f(std::string_view(reinterpret_cast<const char*>(&box[at]), 4));
  }
};
inline std::optional<IsoBrands> iso_brands(Bytes b) {
  if (b.size() < 16 || !has_at(b, 4, "ftyp")) return std::nullopt;
  const std::size_t box = std::min<std::size_t>({be32(b, 0), b.size(), 256});
  return IsoBrands{std::string_view(reinterpret_cast<const char*>(&b[8]), 4), b.first(box)};
}

}  // namespace mcpread::readers::sig
