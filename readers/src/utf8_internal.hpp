#pragma once
// Internal UTF-8 helpers shared by utf8.cpp, charset.cpp and text.cpp. Not part of the public
// interface: header-only pieces are inline, the rest is defined in utf8.cpp.
#include "mcpread/common/utf8_sequence.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace mcpread::readers::utf8::detail {

inline constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// The UTF-8 of code point `c` (a scalar value: no surrogate, at most U+10FFFF) appended to `out`.
inline void append_code_point(char32_t c, std::string& out) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

// UTF-16 units to UTF-8, a surrogate pair possibly split between calls; a surrogate without its
// pair becomes U+FFFD.
class Utf16Units {
 public:
  void add(char16_t u, std::string& out) {
    if (high_ != 0) {
      const char16_t h = high_;
      high_ = 0;
      if (u >= 0xDC00 && u <= 0xDFFF) {
        append_code_point(0x10000 + ((static_cast<char32_t>(h) - 0xD800) << 10) + (u - 0xDC00), out);
        return;
      }
      out.append(kReplacement);
    }
    if (u >= 0xD800 && u <= 0xDBFF) high_ = u;
    else if (u >= 0xDC00 && u <= 0xDFFF) out.append(kReplacement);
    else append_code_point(u, out);
  }
  // The stream ends (or other text follows): a high surrogate still waiting becomes U+FFFD.
  void finish(std::string& out) {
    if (high_ != 0) out.append(kReplacement);
    high_ = 0;
  }

 private:
  char16_t high_ = 0;
};

// One UTF-8 sequence checked (common/utf8_sequence.hpp, shared with the JSON writer).
using common::utf8::next_sequence;
using common::utf8::Sequence;

// True when none of the 8 bytes at p has its high bit set.
inline bool ascii8(const unsigned char* p) {
  std::uint64_t w;
  std::memcpy(&w, p, sizeof w);
  return (w & 0x8080808080808080ull) == 0;
}

// Whether the n bytes at p are all ASCII.
inline bool all_ascii(const unsigned char* p, std::size_t n) {
  if (n < 8) {
    unsigned char any = 0;
    for (std::size_t i = 0; i < n; ++i) any |= p[i];
    return (any & 0x80) == 0;
  }
  std::uint64_t any = 0;
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t w;
    std::memcpy(&w, p + i, sizeof w);
    any |= w;
  }
  std::uint64_t last;
  std::memcpy(&last, p + n - 8, sizeof last);
  return ((any | last) & 0x8080808080808080ull) == 0;
}

struct SanitizeResult {
  std::size_t chars = 0;         // code points appended
  std::size_t replacements = 0;  // U+FFFD inserted for invalid input
  std::size_t consumed = 0;      // bytes of the input used
};

// Appends at most `max_chars` code points of `in` to `out`, each invalid or incomplete sequence
// as one U+FFFD (counting as one character). Stops before the (max_chars+1)-th character.
SanitizeResult append_sanitized_prefix(std::string_view in, std::size_t max_chars,
                                       std::string& out);

}  // namespace mcpread::readers::utf8::detail
