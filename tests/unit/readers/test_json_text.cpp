// file_type="json" in the text reader: JSON shown pretty-printed (json::dump(2)'s layout),
// streamed, numbered so that offset and limit count the lines shown; invalid JSON refused with
// the byte where it fails.
#include "text_test_util.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <sstream>
#include <stdexcept>
#include <string>

using mcpread::readers::CancelToken;
using mcpread::readers::OpenedFile;
using mcpread::readers::ReadOutcome;
using mcpread::readers::TextBlock;
using mcpread::readers::TextOptions;
using mcpread::test::TempDir;
using mcpread::test::text_util::text_of;

namespace {

const std::string kJsonNote =
    "\n[Pretty-printed JSON: line numbers, offset and limit count these lines, not the file's.]";

TextOptions json_options() {
  TextOptions o;
  o.json = true;
  return o;
}

ReadOutcome read(const TempDir& dir, const std::string& content, TextOptions options = json_options()) {
  return mcpread::test::text_util::read(dir, content, options, "d.json");
}

// `text` as the reader numbers it: "%6d\t" before each line, from line `first`.
std::string numbered(const std::string& text, int first = 1) {
  std::istringstream in(text);
  std::string line, out;
  for (int n = first; std::getline(in, line); ++n) {
    const std::string num = std::to_string(n);
    out += std::string(num.size() < 6 ? 6 - num.size() : 0, ' ') + num + "\t" + line + "\n";
  }
  return out;
}

}  // namespace

TEST_CASE("json: minified JSON is shown as json::dump(2) lays it out") {
  TempDir dir;
  const std::string doc =
      R"({"name":"caf\u00e9 \"quoted\" back\\slash\ttab\u0001","n":[1,-2,18446744073709551615,1.5,true,false,null],)"
      R"("empty":{},"none":[],"nested":{"a":[{"b":[]},[[]]],"z":"中文 😀"}})";
  // ordered_json: the keys in the file's order, as shown.
  const std::string pretty = nlohmann::ordered_json::parse(doc).dump(2);
  const auto o = read(dir, doc);
  CHECK_FALSE(o.is_error);
  const std::string lines = numbered(pretty);
  const std::string total = std::to_string(std::count(pretty.begin(), pretty.end(), '\n') + 1);
  CHECK(text_of(o) == lines + "\n[Lines 1-" + total + " of " + total + ". End of file.]" + kJsonNote);
  CHECK(o.meta["total_lines"] == 25);
  CHECK(o.meta["charset"] == "UTF-8");
}

TEST_CASE("json: exact layout") {
  TempDir dir;
  SUBCASE("objects, arrays, empty ones on one line") {
    CHECK(text_of(read(dir, R"({"a":1,"b":[true,{}],"c":[]})")) ==
          "     1\t{\n"
          "     2\t  \"a\": 1,\n"
          "     3\t  \"b\": [\n"
          "     4\t    true,\n"
          "     5\t    {}\n"
          "     6\t  ],\n"
          "     7\t  \"c\": []\n"
          "     8\t}\n\n"
          "[Lines 1-8 of 8. End of file.]" + kJsonNote);
  }
  SUBCASE("numbers as the file writes them") {
    CHECK(text_of(read(dir, "[1e5, 0.10, -0.0, 12345678901234567890123]")) ==
          "     1\t[\n     2\t  1e5,\n     3\t  0.10,\n     4\t  -0.0,\n"
          "     5\t  12345678901234567890123\n     6\t]\n\n"
          "[Lines 1-6 of 6. End of file.]" + kJsonNote);
  }
  SUBCASE("a top-level scalar, and a UTF-8 byte-order mark") {
    CHECK(text_of(read(dir, "\xEF\xBB\xBF  \"text\"\n")) ==
          "     1\t\"text\"\n\n[Lines 1-1 of 1. End of file.]" + kJsonNote);
  }
}

TEST_CASE("json: offset and limit count the pretty lines") {
  TempDir dir;
  std::string doc = "[";
  for (int i = 1; i <= 50; ++i) doc += (i > 1 ? "," : "") + std::to_string(i * 10);
  doc += "]";
  TextOptions o = json_options();
  o.offset = 3;
  o.limit = 2;
  SUBCASE("a window in the middle") {
    const auto r = read(dir, doc, o);
    CHECK(text_of(r) == "     3\t  20,\n     4\t  30,\n\n"
                        "[Lines 3-4 of 52. To read more, call read again with offset=5.]" + kJsonNote);
    CHECK(r.meta["next_offset"] == 5);
  }
  SUBCASE("the end") {
    o.offset = 51;
    o.limit = 10;
    CHECK(text_of(read(dir, doc, o)) ==
          "    51\t  500\n    52\t]\n\n[Lines 51-52 of 52. End of file.]" + kJsonNote);
  }
  SUBCASE("past the end") {
    o.offset = 53;
    const auto r = read(dir, doc, o);
    CHECK(r.is_error);
    CHECK(text_of(r) == "Offset 53 is past the end of " + (dir.path() / "d.json").string() +
                            ": the pretty-printed JSON has 52 lines. Use an offset from 1 to 52.");
  }
}

TEST_CASE("json: big one-line files are streamed") {
  TempDir dir;
  // About 3 MiB on one line: past the parser's read chunk and the printer's flush size.
  std::string doc = "[";
  for (int i = 0; i < 110'000; ++i)
    doc += (i > 0 ? "," : "") + std::string(R"({"id":)") + std::to_string(i) + R"(,"v":"abcdefghij"})";
  doc += "]";
  REQUIRE(doc.size() > (3u << 20));
  const std::string pretty = nlohmann::json::parse(doc).dump(2);
  SUBCASE("a window deep inside, the total counted") {
    TextOptions o = json_options();
    o.offset = 300'001;
    o.limit = 4;
    const auto r = read(dir, doc, o);
    std::size_t start = 0;
    for (int i = 1; i < 300'001; ++i) start = pretty.find('\n', start) + 1;
    std::size_t end = start;
    for (int i = 0; i < 4; ++i) end = pretty.find('\n', end) + 1;
    CHECK(text_of(r) == numbered(pretty.substr(start, end - start), 300'001) +
                            "\n[Lines 300001-300004 of 440002. To read more, call read again "
                            "with offset=300005.]" + kJsonNote);
  }
  SUBCASE("past count_lines_max_bytes the parse stops after the window") {
    TextOptions o = json_options();
    o.limit = 2;
    o.count_lines_max_bytes = 1u << 20;
    const auto r = read(dir, doc, o);
    CHECK(text_of(r) == "     1\t[\n     2\t  {\n\n[Lines 1-2; more lines follow (file is " +
                            std::to_string(doc.size()) +
                            " bytes). To read more, call read again with offset=3.]" + kJsonNote);
    CHECK_FALSE(r.meta.contains("total_lines"));
  }
}

TEST_CASE("json: a long value is cut, and column reads on") {
  TempDir dir;
  const std::string doc = R"({"blob":")" + std::string(3000, 'x') + R"("})";
  TextOptions o = json_options();
  o.offset = 2;
  o.limit = 1;
  CHECK(text_of(read(dir, doc, o)) ==
        "     2\t  \"blob\": \"" + std::string(1989, 'x') +
            " \xE2\x80\xA6 [line cut at 2000 of 3012 characters; read on with offset=2, limit=1, "
            "column=2001]\n\n[Lines 2-2 of 3. To read more, call read again with offset=3.]\n"
            "[1 line(s) longer than 2000 characters were cut.]" + kJsonNote);
  o.column = 2001;
  CHECK(text_of(read(dir, doc, o)) ==
        "     2\t" + std::string(1011, 'x') + "\"\n\n"
            "[Lines 2-2 of 3. To read more, call read again with offset=3.]\n"
            "[Lines are shown from character 2001 on.]" + kJsonNote);
}

TEST_CASE("json: what is not JSON is refused, with where and what to do") {
  TempDir dir;
  const std::string path = (dir.path() / "d.json").string();
  const std::string as_text = " Call read with file_type=\"text\" to see the file as it is.";
  SUBCASE("a syntax error") {
    const auto r = read(dir, R"({"a": [1, 2,, 3]})");
    CHECK(r.is_error);
    CHECK(text_of(r) == path + " is not valid JSON: at byte 13, syntax error while parsing value - "
                              "unexpected ','; expected '[', '{', or a literal." + as_text);
  }
  SUBCASE("JSON Lines: more than one value") {
    const auto r = read(dir, "{\"a\":1}\n{\"a\":2}\n");
    CHECK(r.is_error);
    CHECK(text_of(r) == path + " is not valid JSON: at byte 9, syntax error while parsing value - "
                              "unexpected '{'; expected end of input." + as_text);
  }
  SUBCASE("a document cut short") {
    const auto r = read(dir, R"({"a": [1, 2)");
    CHECK(r.is_error);
    CHECK(text_of(r) == path + " is not valid JSON: at byte 12, syntax error while parsing array - "
                              "unexpected end of input; expected ']'." + as_text);
  }
  SUBCASE("invalid UTF-8 in a string") {
    const auto r = read(dir, "[\"caf\xE9\"]");
    CHECK(r.is_error);
    CHECK(text_of(r) == path + " is not valid JSON: at byte 7, syntax error while parsing value - "
                              "invalid string: ill-formed UTF-8 byte; last read: '\"caf\xEF\xBF\xBD\"'." +
                              as_text);
  }
  SUBCASE("the quoted token is kept short") {
    const auto r = read(dir, "[\"" + std::string(5000, 'x') + "\x01\"]");
    CHECK(r.is_error);
    const std::string text = text_of(r);
    CHECK(text.starts_with(path + " is not valid JSON: at byte 5003, syntax error while parsing "
                                  "value - invalid string: control character U+0001 (SOH) must be "
                                  "escaped to \\u0001; last read: '\"xxx"));
    CHECK(text.ends_with("xxx\u2026." + as_text));
    CHECK(text.size() < 600);
  }
  SUBCASE("nesting deeper than 1000 levels") {
    const auto r = read(dir, std::string(1001, '[') + std::string(1001, ']'));
    CHECK(r.is_error);
    CHECK(text_of(r) == path + " nests JSON deeper than 1000 levels (at byte 1001), too deep to "
                              "show pretty-printed." + as_text);
  }
  SUBCASE("1000 levels are shown") {
    const auto r = read(dir, std::string(1000, '[') + std::string(1000, ']'));
    CHECK_FALSE(r.is_error);
    CHECK(r.meta["total_lines"] == 1999);
  }
  SUBCASE("an empty file is empty, as in text") {
    CHECK(text_of(read(dir, "")) == "[The file is empty (0 bytes).]");
  }
}
