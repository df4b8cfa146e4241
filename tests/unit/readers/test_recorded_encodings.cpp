// The Windows builds' recording of the charset tests' encoded text (recorded_encodings.inc) still
// says what glibc's iconv makes of that text: a stale entry fails here, on Linux, before the
// Windows runs read bytes the Linux runs no longer read.
#include "fixtures.hpp"
#include "recorded_encodings.hpp"

#include <doctest/doctest.h>

#include <set>
#include <string>

using namespace mcpread::test;

TEST_CASE("recorded encodings: each one is what iconv gives today") {
  REQUIRE(recorded_encodings().size() > 50);
  std::set<std::string> charsets;
  for (const RecordedEncoding& r : recorded_encodings()) {
    const std::string charset(r.charset);
    CAPTURE(charset);
    charsets.insert(charset);
    const std::string text = from_hex(r.utf8_hex);
#if !defined(_WIN32)
    CHECK(to_hex(iconv_encode(text, charset, r.skip_unencodable)) == r.encoded_hex);
#endif
    CHECK(recorded_encoding(text, charset, r.skip_unencodable) == from_hex(r.encoded_hex));
  }
  // The charsets no Windows code page of Wine 8 encodes are among them.
  for (const char* needed : {"GB18030", "ISO-2022-JP", "ISO-2022-KR", "ISO-2022-CN-EXT", "BIG5-HKSCS", "EUC-JISX0213"})
    CHECK(charsets.count(needed) == 1);
}

TEST_CASE("recorded encodings: hex both ways") {
  CHECK(to_hex(std::string("\x00\x7f\xff", 3)) == "007fff");
  CHECK(from_hex("007fff") == std::string("\x00\x7f\xff", 3));
  CHECK_THROWS_WITH(from_hex("0g"), "not a hex digit: g");
  CHECK_THROWS_WITH(from_hex("abc"), "odd hex length");
}
