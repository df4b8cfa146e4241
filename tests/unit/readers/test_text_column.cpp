// The `column` option of the text reader: each shown line from a given character on, and the cut
// marker that names the offset, limit and column reading on from where a line was cut.
#include "text_test_util.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <regex>
#include <stdexcept>
#include <string>

using mcpread::readers::CancelToken;
using mcpread::test::tool_worded;  // reads worded as the server words them
using mcpread::readers::OpenedFile;
using mcpread::readers::ReadOutcome;
using mcpread::readers::TextBlock;
using mcpread::readers::TextOptions;
using mcpread::test::iconv_encode;
using mcpread::test::TempDir;
using mcpread::test::text_util::open_file;
using mcpread::test::text_util::read;

namespace {

const std::string kEllipsis = " \xE2\x80\xA6 ";

std::string text_of(const ReadOutcome& o) {
  REQUIRE_FALSE(o.is_error);
  return mcpread::test::text_util::text_of(o);
}

std::string repeat(const std::string& s, std::size_t n) {
  std::string r;
  for (std::size_t i = 0; i < n; ++i) r += s;
  return r;
}

TextOptions at(std::uint64_t column, std::size_t max_line_chars = 2000) {
  TextOptions o;
  o.column = column;
  o.max_line_chars = max_line_chars;
  return o;
}

}  // namespace

TEST_CASE("text column: reading on from a cut line") {
  TempDir dir;
  // 4500 characters: 'a' x 2000, 'b' x 2000, 'c' x 500.
  const std::string line = std::string(2000, 'a') + std::string(2000, 'b') + std::string(500, 'c');
  SUBCASE("column 1 cuts at 2000 and names the column that reads on") {
    CHECK(text_of(read(dir, line + "\n", at(1))) ==
          "     1\t" + std::string(2000, 'a') + kEllipsis +
              "[line cut at 2000 of 4500 characters; read on with offset=1, limit=1, column=2001]\n\n"
              "[Lines 1-1 of 1. End of file.]\n"
              "[1 line(s) longer than 2000 characters were cut.]");
  }
  SUBCASE("the column named by the cut shows the next 2000 characters, and cuts again") {
    const auto o = read(dir, line + "\n", at(2001));
    CHECK(text_of(o) ==
          "     1\t" + std::string(2000, 'b') + kEllipsis +
              "[line cut at 4000 of 4500 characters; read on with offset=1, limit=1, column=4001]\n\n"
              "[Lines 1-1 of 1. End of file.]\n"
              "[Lines are shown from character 2001 on; 1 line(s) were cut after 2000 characters.]");
    CHECK(o.meta["column"] == 2001);
    CHECK(o.meta["long_lines_cut"] == 1);
  }
  SUBCASE("the last part has no cut") {
    const auto o = read(dir, line + "\n", at(4001));
    CHECK(text_of(o) == "     1\t" + std::string(500, 'c') +
                            "\n\n[Lines 1-1 of 1. End of file.]\n"
                            "[Lines are shown from character 4001 on.]");
    CHECK(o.meta["long_lines_cut"] == 0);
  }
  SUBCASE("a column past a line's end shows it empty") {
    CHECK(text_of(read(dir, "short\n" + line + "\n", at(4500))) ==
          "     1\t\n     2\tc\n\n[Lines 1-2 of 2. End of file.]\n"
          "[Lines are shown from character 4500 on.]");
  }
}

TEST_CASE("text column: with offset and limit") {
  TempDir dir;
  const std::string content = "0123456789\nabcdefghij\nABCDEFGHIJ\nxy\n";
  SUBCASE("a window of lines, each from the column") {
    TextOptions o = at(4, 3);
    o.offset = 2;
    o.limit = 2;
    CHECK(text_of(read(dir, content, o)) ==
          "     2\tdef" + kEllipsis +
              "[line cut at 6 of 10 characters; read on with offset=2, limit=1, column=7]\n"
              "     3\tDEF" + kEllipsis +
              "[line cut at 6 of 10 characters; read on with offset=3, limit=1, column=7]\n\n"
              "[Lines 2-3 of 4. To read more, call read again with offset=4.]\n"
              "[Lines are shown from character 4 on; 2 line(s) were cut after 3 characters.]");
  }
  SUBCASE("CRLF: the CR is neither shown nor counted") {
    CHECK(text_of(read(dir, "abcdef\r\nxyz\r\n", at(5, 1))) ==
          "     1\te" + kEllipsis +
              "[line cut at 5 of 6 characters; read on with offset=1, limit=1, column=6]\n"
              "     2\t\n\n[Lines 1-2 of 2. End of file.]\n"
              "[Lines are shown from character 5 on; 1 line(s) were cut after 1 characters.]");
    CHECK(text_of(read(dir, "abcdef\r\n", at(6, 1))) ==
          "     1\tf\n\n[Lines 1-1 of 1. End of file.]\n[Lines are shown from character 6 on.]");
  }
}

TEST_CASE("text column: characters, never bytes") {
  TempDir dir;
  SUBCASE("2-, 3- and 4-byte characters are counted as one and never split") {
    // é (2 bytes), 中 (3), 😀 (4), a (1), repeated.
    const std::string unit = "\xC3\xA9\xE4\xB8\xAD\xF0\x9F\x98\x80" "a";
    CHECK(text_of(read(dir, repeat(unit, 3) + "\n", at(3, 4))) ==
          "     1\t\xF0\x9F\x98\x80" "a\xC3\xA9\xE4\xB8\xAD" + kEllipsis +
              "[line cut at 6 of 12 characters; read on with offset=1, limit=1, column=7]\n\n"
              "[Lines 1-1 of 1. End of file.]\n"
              "[Lines are shown from character 3 on; 1 line(s) were cut after 4 characters.]");
  }
  SUBCASE("following the cuts gives back the whole line, across read chunks") {
    // 3 MiB and more of mixed characters: the line spans several 1 MiB chunks.
    std::string line;
    for (int i = 0; line.size() < (3u << 20) + 5; ++i)
      line += i % 3 == 0 ? "\xE4\xB8\xAD" : i % 3 == 1 ? "x" : "\xC3\xA9";
    const std::size_t chars = mcpread::readers::utf8::count_chars(line);
    const std::size_t width = 400'000;
    const auto path = dir.write("long.txt", line + "\nnext\n");
    std::string joined;
    std::uint64_t column = 1;
    const std::regex marker(" \xE2\x80\xA6 \\[line cut at ([0-9]+) of ([0-9]+) characters; read on "
                            "with offset=1, limit=1, column=([0-9]+)\\]\n");
    for (int call = 0; call < 20; ++call) {
      TextOptions o = at(column, width);
      o.limit = 1;
      o.max_output_bytes = 4u << 20;
      const std::string text = text_of(mcpread::readers::read_text(open_file(path), tool_worded(o), CancelToken{}));
      const std::string body = text.substr(7);  // after "     1\t"
      std::smatch m;
      if (!std::regex_search(body, m, marker)) {
        joined += body.substr(0, body.find('\n'));
        break;
      }
      CHECK(m[1].str() == std::to_string(column - 1 + width));
      CHECK(m[2].str() == std::to_string(chars));
      joined += body.substr(0, static_cast<std::size_t>(m.position(0)));
      column = std::stoull(m[3].str());
    }
    CHECK(joined.size() == line.size());
    CHECK(joined == line);
  }
  SUBCASE("invalid bytes: the shown part starts on a character and says so") {
    TextOptions o = at(3, 10);
    o.encoding = "utf-8";
    CHECK(text_of(read(dir, "ab\xFF\x80\x80" "cd\n", o)) ==
          "     1\t\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD" "cd\n\n[Lines 1-1 of 1. End of file.]\n"
          "[Lines are shown from character 3 on.]\n[3 byte sequences not valid in UTF-8 are shown as "
          "U+FFFD. If the file is in another charset, the likeliest are windows-1252, windows-1254 "
          "and windows-1258: call read again with encoding=\"windows-1252\".]");
  }
}

TEST_CASE("text column: other charsets") {
  TempDir dir;
  SUBCASE("a legacy charset is decoded before counting") {
    TextOptions o = at(4, 3);
    o.encoding = "cp1252";
    CHECK(text_of(read(dir, "caf\xE9 cr\xE8me br\xFBl\xE9" "e\r\n", o)) ==
          "     1\t\xC3\xA9 c" + kEllipsis +
              "[line cut at 6 of 17 characters; read on with offset=1, limit=1, column=7]\n\n"
              "[Lines 1-1 of 1. End of file.]\n"
              "[Lines are shown from character 4 on; 1 line(s) were cut after 3 characters.]\n"
              "[Decoded from WINDOWS-1252 to UTF-8.]");
  }
  SUBCASE("UTF-16") {
    CHECK(text_of(read(dir, "\xFF\xFE" + iconv_encode("\xE4\xB8\xAD\xE6\x96\x87 text\n", "UTF-16LE"),
                       at(2, 3))) ==
          "     1\t\xE6\x96\x87 t" + kEllipsis +
              "[line cut at 4 of 7 characters; read on with offset=1, limit=1, column=5]\n\n"
              "[Lines 1-1 of 1. End of file.]\n"
              "[Lines are shown from character 2 on; 1 line(s) were cut after 3 characters.]\n"
              "[Decoded from UTF-16LE to UTF-8.]");
  }
}

TEST_CASE("text column: a long line in a .json file points to file_type=\"json\"") {
  TempDir dir;
  const std::string json = "{\"k\": \"" + std::string(30, 'v') + "\"}\n";
  const std::string note =
      "\n[To read this JSON a value per line, call read with file_type=\"json\": it is shown "
      "pretty-printed.]";
  CHECK(text_of(read(dir, json, at(1, 10), "data.JSON")).ends_with(
      "[1 line(s) longer than 10 characters were cut.]" + note));
  SUBCASE("not for other names, nor when nothing is cut") {
    CHECK(text_of(read(dir, json, at(1, 10), "data.txt"))
              .ends_with("[1 line(s) longer than 10 characters were cut.]"));
    CHECK(text_of(read(dir, json, at(1), "small.json")) ==
          "     1\t" + json + "\n[Lines 1-1 of 1. End of file.]");
  }
}
