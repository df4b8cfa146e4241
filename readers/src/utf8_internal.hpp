#pragma once
// Internal UTF-8 helpers shared by utf8.cpp, charset.cpp and text.cpp. Not part of the public
// interface: header-only pieces are inline, the rest is defined in utf8.cpp.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace mcpread::readers::utf8::detail {

inline constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// One step of decoding at the start of `p` (n > 0 bytes available).
struct Sequence {
  std::size_t len = 1;     // bytes taken: a whole valid sequence, or a maximal subpart
  bool valid = true;       // false: these `len` bytes become one U+FFFD
  bool truncated = false;  // invalid only because the input ended inside the sequence
};

// Well-formed sequences per Unicode Table 3-7; an invalid sequence is cut at its maximal
// subpart (the longest prefix of some well-formed sequence), as WHATWG and Unicode recommend.
inline Sequence next_sequence(const unsigned char* p, std::size_t n) {
  const unsigned char b = p[0];
  if (b < 0x80) return {1, true, false};
  std::size_t need = 0;
  unsigned char lo = 0x80;
  unsigned char hi = 0xBF;
  if (b >= 0xC2 && b <= 0xDF) {
    need = 2;
  } else if (b >= 0xE0 && b <= 0xEF) {
    need = 3;
    if (b == 0xE0) lo = 0xA0;  // overlong
    if (b == 0xED) hi = 0x9F;  // surrogates
  } else if (b >= 0xF0 && b <= 0xF4) {
    need = 4;
    if (b == 0xF0) lo = 0x90;  // overlong
    if (b == 0xF4) hi = 0x8F;  // above U+10FFFF
  } else {
    return {1, false, false};  // 80..C1, F5..FF never start a sequence
  }
  for (std::size_t i = 1; i < need; ++i) {
    if (i >= n) return {i, false, true};
    const unsigned char c = p[i];
    const unsigned char min = i == 1 ? lo : static_cast<unsigned char>(0x80);
    const unsigned char max = i == 1 ? hi : static_cast<unsigned char>(0xBF);
    if (c < min || c > max) return {i, false, false};
  }
  return {need, true, false};
}

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
