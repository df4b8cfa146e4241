#pragma once
// One UTF-8 sequence checked at a time, by the rules of Unicode's Table 3-7 (no overlong forms,
// no surrogates, nothing above U+10FFFF): the one validator behind the readers' UTF-8 helpers
// and the JSON writer's escaping, so that both call the same bytes valid.
#include <cstddef>

namespace mcpread::common::utf8 {

// One step of decoding at the start of `p` (n > 0 bytes available).
struct Sequence {
  std::size_t len = 1;     // bytes taken: a whole valid sequence, or a maximal subpart
  bool valid = true;       // false: these `len` bytes become one U+FFFD
  bool truncated = false;  // invalid only because the input ended inside the sequence
};

// Well-formed sequences per Unicode Table 3-7; an invalid sequence is cut at its maximal
// subpart (the longest prefix of some well-formed sequence), as WHATWG and Unicode recommend.
constexpr Sequence next_sequence(const unsigned char* p, std::size_t n) {
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

}  // namespace mcpread::common::utf8
