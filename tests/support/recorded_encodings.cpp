#include "recorded_encodings.hpp"

#include <stdexcept>

namespace mcpread::test {
namespace {

constexpr RecordedEncoding kRecorded[] = {
#include "recorded_encodings.inc"
};

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return out;
}

int nibble(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  throw std::runtime_error(std::string("not a hex digit: ") + c);
}

}  // namespace

std::span<const RecordedEncoding> recorded_encodings() { return kRecorded; }

std::optional<std::string> recorded_encoding(const std::string& utf8_text, const std::string& charset,
                                             bool skip_unencodable) {
  const std::string name = upper(charset), hex = to_hex(utf8_text);
  for (const RecordedEncoding& r : kRecorded)
    if (r.charset == name && r.skip_unencodable == skip_unencodable && r.utf8_hex == hex) return from_hex(r.encoded_hex);
  return std::nullopt;
}

std::string to_hex(std::string_view bytes) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (const char c : bytes) {
    const auto b = static_cast<unsigned char>(c);
    out += digits[b >> 4];
    out += digits[b & 15];
  }
  return out;
}

std::string from_hex(std::string_view hex) {
  if (hex.size() % 2 != 0) throw std::runtime_error("odd hex length");
  std::string out;
  out.reserve(hex.size() / 2);
  for (std::size_t i = 0; i < hex.size(); i += 2) out += static_cast<char>(nibble(hex[i]) * 16 + nibble(hex[i + 1]));
  return out;
}

}  // namespace mcpread::test
