// mcp-read decodes every legacy encoding of the WHATWG Encoding Standard as the standard does:
// its decoders are compared with an independent implementation of the standard's algorithms
// over its own index files (whatwg_reference.cpp), on every one- and two-byte sequence, every
// gb18030 four-byte sequence, and seeded random bytes biased toward leading and trailing byte
// ranges, escapes, surrogates and invalid sequences, fed to the product cut into random chunks.
// Expected differences: none. What this found and the shim (readers/src/charset/whatwg_decoder/)
// now corrects: encoding_rs 0.8.31 predates the 2024 gb18030 index (18 two-byte sequences), and
// its Big5, EUC-KR and Shift_JIS decoders lost a lead byte on an empty input between chunks.
#include "mcpread/readers/charset.hpp"
#include "mcpread/readers/utf8.hpp"
#include "whatwg_reference.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

using mcpread::readers::DetectedCharset;
using mcpread::readers::Utf8Converter;
namespace whatwg = mcpread::test::whatwg;

namespace {

// The product's decoder for the standard's encoding name, through its label table.
std::string product_decoder(const std::string& encoding) {
  DetectedCharset cs;
  REQUIRE_MESSAGE(mcpread::readers::resolve_encoding_name(encoding, &cs), encoding);
  return cs.name;
}

// The product's UTF-8 of `bytes`, fed in pieces cut where `rng` says (none when it is null).
std::string product_decode(const std::string& decoder, const std::string& bytes, std::mt19937* rng,
                           std::size_t max_piece) {
  Utf8Converter c(decoder);
  REQUIRE_MESSAGE(c.ok(), c.error());
  std::string out;
  std::size_t at = 0;
  while (rng != nullptr && at < bytes.size()) {
    const std::size_t piece = std::uniform_int_distribution<std::size_t>(0, max_piece)(*rng);
    c.convert(std::string_view(bytes).substr(at, piece), out, false);
    at += std::min(piece, bytes.size() - at);
  }
  c.convert(std::string_view(bytes).substr(std::min(at, bytes.size())), out, true);
  return out;
}

std::string hex(const std::string& s) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string r;
  for (unsigned char c : s) {
    if (!r.empty()) r += ' ';
    r += kDigits[c >> 4];
    r += kDigits[c & 15];
  }
  return r;
}

// Counts the inputs the two decode differently, describing the first few.
struct Differences {
  std::size_t count = 0;
  std::string shown;
  void compare(const std::string& encoding, const std::string& input, const std::string& product,
               const std::string& standard) {
    if (product == standard) return;
    if (++count <= 5) {
      const std::string what = input.size() > 64 ? std::to_string(input.size()) + " bytes" : "[" + hex(input) + "]";
      shown += encoding + " " + what + ": mcp-read \"" + product.substr(0, 200) + "\", the standard \"" +
               standard.substr(0, 200) + "\"\n";
    }
  }
};

// Bytes that exercise `encoding`'s decoder: its leading and trailing byte ranges, ASCII (which
// ends a sequence early and is read again), escapes and surrogates where they mean something.
std::string random_input(const std::string& encoding, std::mt19937& rng) {
  auto pick = [&](int lo, int hi) { return static_cast<char>(std::uniform_int_distribution<int>(lo, hi)(rng)); };
  const std::size_t length = std::uniform_int_distribution<std::size_t>(0, 48)(rng);
  std::string s;
  while (s.size() < length) {
    const int kind = std::uniform_int_distribution<int>(0, 9)(rng);
    if (encoding == "ISO-2022-JP" && kind < 3) {
      static const char* const kEscapes[] = {"\x1B(B", "\x1B(J", "\x1B(I", "\x1B$@", "\x1B$B", "\x1B$", "\x1B(", "\x1B", "\x1B$A", "\x0E", "\x0F"};
      s += kEscapes[std::uniform_int_distribution<int>(0, 10)(rng)];
    } else if (encoding.starts_with("UTF-16") && kind < 3) {
      const char unit[2] = {pick(0xD8, 0xDF), pick(0, 0xFF)};  // a surrogate, in either order
      s.append(unit, 2);
    } else if (encoding == "gb18030" && kind < 3) {  // a four-byte sequence, or most of one
      s += pick(0x81, 0xFE);
      s += pick(0x30, 0x39);
      s += pick(0x7F, 0xFF);
      s += kind == 0 ? pick(0x00, 0xFF) : pick(0x30, 0x39);
    } else if (kind < 5) {
      s += pick(0x80, 0xFF);  // a leading byte, mostly
    } else if (kind < 8) {
      s += pick(0x40, 0xFF);  // a trailing byte, mostly
    } else {
      s += pick(0x00, 0x7F);
    }
  }
  return s;
}

bool multi_byte(const std::string& encoding) {
  return encoding == "gb18030" || encoding == "Big5" || encoding == "EUC-JP" || encoding == "ISO-2022-JP" ||
         encoding == "Shift_JIS" || encoding == "EUC-KR" || encoding.starts_with("UTF-16");
}

}  // namespace

TEST_CASE("charset whatwg: Big5 after 0x8F 0xFE stays in step (tutor.zh.big5 line 29)") {
  // Pointer 2354 (0x8F 0xFE) is U+8D77 in the standard's index Big5; glibc's BIG5-HKSCS lacked
  // it and read the next lead byte as its trail.
  const std::string bytes = "\xAC\xDD\x8F\xFE\xA8\xD3\xAB\xDC\xB6\x48";
  const std::string decoder = product_decoder("big5");
  CHECK(product_decode(decoder, bytes, nullptr, 0) == "看起來很象");
  std::mt19937 rng(29);
  for (int i = 0; i < 20; ++i) CHECK(product_decode(decoder, bytes, &rng, 3) == "看起來很象");
  CHECK(whatwg::decode("Big5", bytes) == "看起來很象");
}

TEST_CASE("charset whatwg: every one- and two-byte sequence decodes as the standard says") {
  for (const auto& encoding : whatwg::legacy_encodings()) {
    SUBCASE(encoding.c_str()) {
      const std::string decoder = product_decoder(encoding);
      Differences diff;
      std::string all;  // every sequence in one stream too, cut into random chunks
      for (int first = 0; first < 256; ++first) {
        const std::string one(1, static_cast<char>(first));
        diff.compare(encoding, one, product_decode(decoder, one, nullptr, 0), whatwg::decode(encoding, one));
        if (!multi_byte(encoding)) continue;
        for (int second = 0; second < 256; ++second) {
          const std::string two = one + static_cast<char>(second);
          all += two;
          diff.compare(encoding, two, product_decode(decoder, two, nullptr, 0), whatwg::decode(encoding, two));
        }
      }
      std::mt19937 rng(2);
      diff.compare(encoding, all, product_decode(decoder, all, &rng, 4096), whatwg::decode(encoding, all));
      INFO(diff.shown);
      CHECK(diff.count == 0);
    }
  }
}

TEST_CASE("charset whatwg: every gb18030 four-byte sequence decodes as the standard says") {
  // 0x81-0xFE 0x30-0x39 0x81-0xFE 0x30-0x39 in one stream: the ranges, the pointer 7457 special
  // case and the pointers past the last range that are errors.
  std::string all;
  all.reserve(126 * 10 * 126 * 10 * 4);
  for (int a = 0x81; a <= 0xFE; ++a)
    for (int b = 0x30; b <= 0x39; ++b)
      for (int c = 0x81; c <= 0xFE; ++c)
        for (int d = 0x30; d <= 0x39; ++d)
          all += {static_cast<char>(a), static_cast<char>(b), static_cast<char>(c), static_cast<char>(d)};
  std::mt19937 rng(4);
  const std::string product = product_decode(product_decoder("gb18030"), all, &rng, 1 << 16);
  const std::string standard = whatwg::decode("gb18030", all);
  CHECK(product.size() == standard.size());
  CHECK(product == standard);
}

TEST_CASE("charset whatwg: seeded random bytes in random chunks decode as the standard says") {
  for (const auto& encoding : whatwg::legacy_encodings()) {
    SUBCASE(encoding.c_str()) {
      const std::string decoder = product_decoder(encoding);
      std::mt19937 rng(20261127);
      Differences diff;
      for (int i = 0; i < 3000; ++i) {
        const std::string input = random_input(encoding, rng);
        diff.compare(encoding, input, product_decode(decoder, input, &rng, 5), whatwg::decode(encoding, input));
      }
      INFO(diff.shown);
      CHECK(diff.count == 0);
    }
  }
}

TEST_CASE("charset whatwg: UTF-8 errors are replaced as the standard says") {
  // The converter (HTML pages, resources) and the text reader's own check of UTF-8 text
  // (utf8::append_sanitized) both replace each maximal invalid subpart with one U+FFFD.
  std::mt19937 rng(8);
  Differences converter, sanitizer;
  auto pick = [&](int lo, int hi) { return static_cast<char>(std::uniform_int_distribution<int>(lo, hi)(rng)); };
  for (int i = 0; i < 20000; ++i) {
    std::string input;
    const std::size_t length = std::uniform_int_distribution<std::size_t>(0, 24)(rng);
    while (input.size() < length) {
      const int kind = std::uniform_int_distribution<int>(0, 5)(rng);
      input += kind == 0 ? pick(0x00, 0x7F) : kind == 1 ? pick(0xC0, 0xFF) : kind == 2 ? pick(0xE0, 0xF4) : pick(0x80, 0xBF);
    }
    const std::string standard = whatwg::decode("UTF-8", input);
    converter.compare("UTF-8", input, product_decode("UTF-8", input, &rng, 5), standard);
    sanitizer.compare("UTF-8 (text reader)", input, mcpread::readers::utf8::sanitized(input), standard);
  }
  INFO(converter.shown, sanitizer.shown);
  CHECK(converter.count == 0);
  CHECK(sanitizer.count == 0);
}
