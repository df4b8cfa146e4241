// ASCII case (common/ascii.hpp): letters A-Z only, never a byte of a UTF-8 sequence.
#include "mcpread/common/ascii.hpp"

#include <doctest/doctest.h>

#include <string>

using mcpread::common::ascii_iequals;
using mcpread::common::ascii_lower;

TEST_CASE("ascii: lower case") {
  SUBCASE("letters A-Z become a-z, everything else stays") {
    CHECK(ascii_lower("DOCX") == "docx");
    CHECK(ascii_lower("Content-Type: Text/HTML; 1@[`{") == "content-type: text/html; 1@[`{");
    CHECK(ascii_lower(std::string_view()) == "");
    CHECK(ascii_lower('Z') == 'z');
    CHECK(ascii_lower('@') == '@');  // just before 'A'
    CHECK(ascii_lower('[') == '[');  // just after 'Z'
  }
  SUBCASE("bytes of UTF-8 sequences are never changed") {
    const std::string utf8 = "\xC3\x89T\xC3\x89";  // "ÉTÉ": É is not ASCII
    CHECK(ascii_lower(utf8) == "\xC3\x89t\xC3\x89");
    for (int b = 0x80; b <= 0xFF; ++b) CHECK(ascii_lower(static_cast<char>(b)) == static_cast<char>(b));
  }
}

TEST_CASE("ascii: case-insensitive equality") {
  CHECK(ascii_iequals("Bearer ", "bearer "));
  CHECK(ascii_iequals("", ""));
  CHECK_FALSE(ascii_iequals("Sheet1", "Sheet2"));
  CHECK_FALSE(ascii_iequals("abc", "abcd"));
  CHECK_FALSE(ascii_iequals("\xC3\x89", "\xC3\xA9"));  // É and é differ outside ASCII
  static_assert(ascii_iequals("UTF-8", "utf-8"));
}
