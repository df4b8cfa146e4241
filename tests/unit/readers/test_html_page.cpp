// HTML pages through read_file: readable text with headings, lists, links and tables, decoded
// from the page's charset, paged by lines; file_type="text" keeps the source.
#include "fixtures.hpp"
#include "reader_fixtures.hpp"
#include "tool_wording.hpp"

#include "mcpread/readers/read.hpp"

#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <variant>

using namespace mcpread::readers;
using namespace mcpread::test;

namespace {

ReadOutcome read_page(const TempDir& dir, const std::string& name, const std::string& bytes,
                      std::optional<std::uint64_t> offset = {}, std::optional<std::uint64_t> limit = {},
                      std::optional<FileKind> kind = {}) {
  dir.write(name, bytes);
  ReadRequest request = tool_worded(ReadRequest{});  // worded as the server words hints
  request.file_path = name;
  request.offset = offset;
  request.limit = limit;
  request.forced_kind = kind;
  return read_file(roots_of(dir), request, ReadLimits{}, CancelToken{});
}

std::string text_of(const ReadOutcome& o) {
  REQUIRE(o.blocks.size() == 1);
  return std::get<TextBlock>(o.blocks[0]).text;
}

const std::string kPage =
    "<!DOCTYPE html><html><head><title>T</title><style>p{}</style><script>var x=1;</script></head><body>"
    "<h1>Guide</h1><p>Read the <a href=\"https://example.org/doc\">docs</a> or <a href=\"#top\">go up</a>.</p>"
    "<ul><li>one</li><li>two<ol><li>deep</li></ol></li></ul>"
    "<table><tr><th>k</th><th>v</th></tr><tr><td>a</td><td>1</td></tr></table></body></html>";

}  // namespace

TEST_CASE("html: a page as readable text") {
  TempDir dir;
  SUBCASE("headings, links, lists and tables; scripts and styles dropped") {
    const ReadOutcome o = read_page(dir, "p.html", kPage);
    REQUIRE_FALSE(o.is_error);
    CHECK(text_of(o) == "HTML page " + (dir.path() / "p.html").string() +
                            ": 11 lines of text, 1 table (file_type=\"text\" reads the source).\n\n"
                            "# Guide\n\nRead the [docs](https://example.org/doc) or go up.\n\n"
                            "- one\n- two\n  1. deep\n\n| k | v |\n| --- | --- |\n| a | 1 |\n\n"
                            "[Lines 1-11 of 11. End of page.]");
    CHECK(o.meta["kind"] == "html");
    CHECK(o.meta["mime"] == "text/html");
  }
  SUBCASE("offset and limit count lines of the text") {
    const ReadOutcome o = read_page(dir, "p.htm", kPage, 3, 2);
    REQUIRE_FALSE(o.is_error);
    CHECK(text_of(o).ends_with("\n\nRead the [docs](https://example.org/doc) or go up.\n\n"
                               "[Lines 3-4 of 11. To read more, call read again with offset=5.]"));
    CHECK(o.meta["next_offset"] == 5);
  }
  SUBCASE("file_type=text keeps the source") {
    const ReadOutcome o = read_page(dir, "p.html", kPage, {}, {}, FileKind::text);
    REQUIRE_FALSE(o.is_error);
    CHECK(text_of(o).find("     1\t<!DOCTYPE html><html><head><title>T</title>") == 0);
  }
  SUBCASE("a page in a legacy charset, declared in a meta") {
    const std::string latin1 = "<html><head><meta charset=\"iso-8859-1\"></head><body><p>caf\xE9</p></body></html>";
    const ReadOutcome o = read_page(dir, "l.html", latin1);
    REQUIRE_FALSE(o.is_error);
    CHECK(text_of(o).find("\n\ncaf\u00e9\n\n") != std::string::npos);
    CHECK(o.meta["charset"] == "WINDOWS-1252");
  }
  SUBCASE("a file named .html that is binary is named as not a page") {
    const ReadOutcome o = read_page(dir, "b.html", std::string("\x7F" "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0", 16));
    REQUIRE(o.is_error);
    CHECK(text_of(o).find(" is named like an HTML page but is not one") != std::string::npos);
  }
}
