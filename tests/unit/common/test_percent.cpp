// Percent-decoding (common/percent.hpp): the three ways a text's %XX escapes are read.
#include "mcpread/common/percent.hpp"

#include <doctest/doctest.h>

#include <string>

using mcpread::common::hex_digit;
using mcpread::common::percent_decode;
using mcpread::common::PercentMode;

TEST_CASE("percent: hexadecimal digits") {
  CHECK(hex_digit('0') == 0);
  CHECK(hex_digit('9') == 9);
  CHECK(hex_digit('a') == 10);
  CHECK(hex_digit('F') == 15);
  CHECK(hex_digit('g') == -1);
  CHECK(hex_digit('/') == -1);
}

TEST_CASE("percent: decoding") {
  SUBCASE("escapes decode the same in every mode, NUL and invalid UTF-8 included") {
    for (PercentMode mode : {PercentMode::strict, PercentMode::query, PercentMode::href}) {
      CHECK(percent_decode("a%20b%2Fc", mode) == "a b/c");
      CHECK(percent_decode("%00%ff", mode) == std::string("\0\xFF", 2));
      CHECK(percent_decode("", mode) == "");
    }
  }
  SUBCASE("strict: a stray or short escape makes the text invalid") {
    CHECK(percent_decode("100%", PercentMode::strict) == std::nullopt);
    CHECK(percent_decode("%2", PercentMode::strict) == std::nullopt);
    CHECK(percent_decode("%zz", PercentMode::strict) == std::nullopt);
    CHECK(percent_decode("a+b", PercentMode::strict) == "a+b");
  }
  SUBCASE("query: '+' is a space, a stray '%' stays") {
    CHECK(percent_decode("a+b%2B", PercentMode::query) == "a b+");
    CHECK(percent_decode("100%", PercentMode::query) == "100%");
  }
  SUBCASE("href: '+' is a plus, a stray '%' stays") {
    CHECK(percent_decode("images/a%20b+c.png", PercentMode::href) == "images/a b+c.png");
    CHECK(percent_decode("50%off%2", PercentMode::href) == "50%off%2");
  }
}
