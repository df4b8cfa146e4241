#include "msg/msg_rtf.hpp"

#include <algorithm>
#include <array>
#include <cstdint>

namespace mcpread::readers::msg {

namespace {

// The dictionary's initial contents ([MS-OXRTFCP] 2.1.2.1): the start of a typical RTF header.
constexpr std::string_view kPrebuf =
    "{\\rtf1\\ansi\\mac\\deff0\\deftab720{\\fonttbl;}{\\f0\\fnil \\froman \\fswiss \\fmodern \\fscript "
    "\\fdecor MS Sans SerifSymbolArialTimes New RomanCourier{\\colortbl\\red0\\green0\\blue0\r\n\\par "
    "\\pard\\plain\\f0\\fs20\\b\\i\\u\\tab\\tx";

std::uint32_t le32(std::string_view b, std::size_t at) {
  std::uint32_t v = 0;
  for (std::size_t i = 0; i < 4; ++i) v |= static_cast<std::uint32_t>(static_cast<unsigned char>(b[at + i])) << (8 * i);
  return v;
}

}  // namespace

std::optional<std::string> decompress_rtf(std::string_view in, std::size_t max_bytes, std::string* error) {
  if (in.size() < 16) {
    *error = "its compressed RTF body is cut short";
    return std::nullopt;
  }
  const std::uint32_t raw_size = le32(in, 4);
  const std::uint32_t type = le32(in, 8);
  const std::string_view data = in.substr(16);
  if (type == 0x414C454D) return std::string(data.substr(0, std::min({std::size_t{raw_size}, data.size(), max_bytes})));
  if (type != 0x75465A4C) {
    *error = "its RTF body is compressed in a way not known (neither LZFu nor MELA)";
    return std::nullopt;
  }
  std::array<char, 4096> dict{};
  std::copy(kPrebuf.begin(), kPrebuf.end(), dict.begin());
  std::size_t write = kPrebuf.size();
  std::string out;
  const std::size_t want = std::min<std::size_t>(raw_size, max_bytes);
  std::size_t at = 0;
  while (at < data.size() && out.size() < want) {
    const auto control = static_cast<unsigned char>(data[at++]);
    for (int bit = 0; bit < 8 && out.size() < want; ++bit) {
      if ((control >> bit & 1) == 0) {
        if (at >= data.size()) return out;
        out += data[at];
        dict[write] = data[at++];
        write = (write + 1) % dict.size();
        continue;
      }
      if (at + 2 > data.size()) return out;
      const unsigned ref = static_cast<unsigned>(static_cast<unsigned char>(data[at])) << 8 |
                           static_cast<unsigned char>(data[at + 1]);
      at += 2;
      const std::size_t offset = ref >> 4, length = (ref & 0xF) + 2;
      if (offset == write) return out;  // the end marker
      for (std::size_t i = 0; i < length && out.size() < want; ++i) {
        const char c = dict[(offset + i) % dict.size()];
        out += c;
        dict[write] = c;
        write = (write + 1) % dict.size();
      }
    }
  }
  return out;
}

}  // namespace mcpread::readers::msg
