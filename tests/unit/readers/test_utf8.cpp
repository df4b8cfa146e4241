#include "mcpread/readers/utf8.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace std::string_literals;
namespace utf8 = mcpread::readers::utf8;

namespace {

std::string sanitized(const std::string& in) {
  std::string out;
  utf8::append_sanitized(in, out);
  return out;
}

const std::string R = "\xEF\xBF\xBD";  // U+FFFD

}  // namespace

TEST_CASE("utf8 append_sanitized") {
  SUBCASE("valid input is copied unchanged") {
    CHECK(sanitized("plain ascii") == "plain ascii");
    CHECK(sanitized("h\xC3\xA9llo \xE4\xB8\xAD \xF0\x9F\x98\x80") == "h\xC3\xA9llo \xE4\xB8\xAD \xF0\x9F\x98\x80");
    CHECK(sanitized("nul\0byte"s) == "nul\0byte"s);
    CHECK(sanitized("") == "");
  }
  SUBCASE("appends to what the output already holds") {
    std::string out = "prefix:";
    utf8::append_sanitized("a\xFF", out);
    CHECK(out == "prefix:a" + R);
  }
  SUBCASE("lone continuation and impossible bytes become one U+FFFD each") {
    CHECK(sanitized("a\x80z") == "a" + R + "z");
    CHECK(sanitized("\xBF\xBF") == R + R);
    CHECK(sanitized("\xC0\xC1\xF5\xFF") == R + R + R + R);
  }
  SUBCASE("overlong forms are rejected byte by byte") {
    CHECK(sanitized("\xC0\xAF") == R + R);
    CHECK(sanitized("\xE0\x80\xAF") == R + R + R);
    CHECK(sanitized("\xF0\x80\x80\xAF") == R + R + R + R);
  }
  SUBCASE("surrogates and code points above U+10FFFF are rejected") {
    CHECK(sanitized("\xED\xA0\x80") == R + R + R);
    CHECK(sanitized("\xED\xBF\xBF") == R + R + R);
    CHECK(sanitized("\xF4\x90\x80\x80") == R + R + R + R);
    CHECK(sanitized("\xED\x9F\xBF") == "\xED\x9F\xBF");          // U+D7FF is fine
    CHECK(sanitized("\xF4\x8F\xBF\xBF") == "\xF4\x8F\xBF\xBF");  // U+10FFFF is fine
  }
  SUBCASE("a truncated sequence is one U+FFFD (its maximal subpart)") {
    CHECK(sanitized("ab\xE2\x82") == "ab" + R);
    CHECK(sanitized("\xE2\x82" "c") == R + "c");
    CHECK(sanitized("\xF0\x9F\x98") == R);
    CHECK(sanitized("\xF0\x9F\x98" "\xF0\x9F\x98\x80") == R + "\xF0\x9F\x98\x80");
  }
  SUBCASE("Unicode's maximal subpart example (Table 3-8)") {
    CHECK(sanitized("\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64") ==
          "a" + R + R + R + "b" + R + "c" + R + R + "d");
  }
  SUBCASE("an invalid byte after a long ASCII run (the 8-byte fast path)") {
    const std::string ascii(37, 'x');
    CHECK(sanitized(ascii + "\xFF" + ascii) == ascii + R + ascii);
  }
}

TEST_CASE("utf8 is_valid") {
  SUBCASE("valid") {
    CHECK(utf8::is_valid(""));
    CHECK(utf8::is_valid(std::string(100, 'a')));
    CHECK(utf8::is_valid("\xC3\xA9\xE4\xB8\xAD\xF0\x9F\x98\x80"));
  }
  SUBCASE("invalid") {
    CHECK_FALSE(utf8::is_valid("\xFF"));
    CHECK_FALSE(utf8::is_valid(std::string(16, 'a') + "\xC3"));
    CHECK_FALSE(utf8::is_valid("\xED\xA0\x80"));
    CHECK_FALSE(utf8::is_valid("\xC1\xBF"));
  }
}

TEST_CASE("utf8 count_chars") {
  CHECK(utf8::count_chars("") == 0);
  CHECK(utf8::count_chars("abc") == 3);
  CHECK(utf8::count_chars("\xC3\xA9\xE4\xB8\xAD\xF0\x9F\x98\x80") == 3);
  CHECK(utf8::count_chars(std::string(21, 'a') + "\xC3\xA9") == 22);
}

TEST_CASE("utf8 prefix_bytes") {
  const std::string s = "a\xC3\xA9\xE4\xB8\xAD\xF0\x9F\x98\x80z";  // a é 中 😀 z
  SUBCASE("stops on character boundaries") {
    CHECK(utf8::prefix_bytes(s, 0) == 0);
    CHECK(utf8::prefix_bytes(s, 1) == 1);
    CHECK(utf8::prefix_bytes(s, 2) == 3);
    CHECK(utf8::prefix_bytes(s, 3) == 6);
    CHECK(utf8::prefix_bytes(s, 4) == 10);
    CHECK(utf8::prefix_bytes(s, 5) == 11);
    CHECK(utf8::prefix_bytes(s, 99) == 11);
  }
  SUBCASE("ASCII runs around the 8-byte fast path") {
    const std::string ascii(20, 'q');
    CHECK(utf8::prefix_bytes(ascii, 13) == 13);
    CHECK(utf8::prefix_bytes(ascii, 8) == 8);
    CHECK(utf8::prefix_bytes(ascii + "\xC3\xA9", 21) == 22);
    CHECK(utf8::prefix_bytes(ascii + "\xC3\xA9", 20) == 20);
  }
}

TEST_CASE("utf8 fit_bytes") {
  const std::string s = "a\xC3\xA9\xE4\xB8\xAD\xF0\x9F\x98\x80z";  // a é 中 😀 z
  CHECK(utf8::fit_bytes(s, 0) == 0);
  CHECK(utf8::fit_bytes(s, 1) == 1);
  CHECK(utf8::fit_bytes(s, 2) == 1);   // inside é
  CHECK(utf8::fit_bytes(s, 3) == 3);
  CHECK(utf8::fit_bytes(s, 5) == 3);   // inside 中
  CHECK(utf8::fit_bytes(s, 9) == 6);   // inside 😀
  CHECK(utf8::fit_bytes(s, 10) == 10);
  CHECK(utf8::fit_bytes(s, 11) == 11);
  CHECK(utf8::fit_bytes(s, 99) == 11);
}
