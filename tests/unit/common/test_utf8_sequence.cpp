// One UTF-8 sequence checked (common/utf8_sequence.hpp): the validator the readers' UTF-8
// helpers and the JSON writer share.
#include "mcpread/common/utf8_sequence.hpp"

#include <doctest/doctest.h>

#include <string_view>

namespace {

mcpread::common::utf8::Sequence at_start(std::string_view s) {
  return mcpread::common::utf8::next_sequence(reinterpret_cast<const unsigned char*>(s.data()), s.size());
}

}  // namespace

TEST_CASE("utf8 sequence: well-formed sequences are taken whole") {
  SUBCASE("one to four bytes") {
    CHECK(at_start("a").len == 1);
    CHECK(at_start("\xC3\xA9x").len == 2);          // é
    CHECK(at_start("\xE2\x82\xAC").len == 3);       // €
    CHECK(at_start("\xF0\x9F\x98\x80").len == 4);   // U+1F600
    CHECK(at_start("\xF4\x8F\xBF\xBF").len == 4);   // U+10FFFF, the last code point
    CHECK(at_start("\xF4\x8F\xBF\xBF").valid);
  }
  SUBCASE("the edges of Table 3-7 are valid") {
    CHECK(at_start("\xE0\xA0\x80").valid);  // U+0800, the first three-byte one
    CHECK(at_start("\xED\x9F\xBF").valid);  // U+D7FF, just below the surrogates
    CHECK(at_start("\xF0\x90\x80\x80").valid);  // U+10000
  }
}

TEST_CASE("utf8 sequence: ill-formed input is cut at its maximal subpart") {
  SUBCASE("bytes that never start a sequence") {
    for (int b : {0x80, 0xBF, 0xC0, 0xC1, 0xF5, 0xFF}) {
      const char s[2] = {static_cast<char>(b), 'a'};
      const auto seq = at_start(std::string_view(s, 2));
      CHECK_FALSE(seq.valid);
      CHECK(seq.len == 1);
    }
  }
  SUBCASE("overlong forms, surrogates and code points above U+10FFFF") {
    CHECK_FALSE(at_start("\xE0\x9F\xBF").valid);      // overlong U+07FF
    CHECK(at_start("\xE0\x9F\xBF").len == 1);
    CHECK_FALSE(at_start("\xED\xA0\x80").valid);      // U+D800
    CHECK_FALSE(at_start("\xF0\x8F\xBF\xBF").valid);  // overlong U+FFFF
    CHECK_FALSE(at_start("\xF4\x90\x80\x80").valid);  // U+110000
  }
  SUBCASE("a bad continuation byte ends the subpart before it") {
    const auto seq = at_start("\xE2\x82x");
    CHECK_FALSE(seq.valid);
    CHECK_FALSE(seq.truncated);
    CHECK(seq.len == 2);
  }
  SUBCASE("input that ends inside a sequence is truncated, not otherwise wrong") {
    const auto seq = at_start("\xF0\x9F\x98");
    CHECK_FALSE(seq.valid);
    CHECK(seq.truncated);
    CHECK(seq.len == 3);
  }
}
