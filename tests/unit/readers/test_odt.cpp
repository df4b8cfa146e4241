// OpenDocument texts through read_file: headings, lists, tables, links, notes, comments and
// images, as for Word documents; classification by the package's mimetype entry.
#include "fixtures.hpp"
#include "image_fixtures.hpp"
#include "office_fixtures.hpp"
#include "reader_fixtures.hpp"

#include "mcpread/readers/read.hpp"

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <variant>

using namespace mcpread::readers;
using namespace mcpread::test;

namespace {

ReadOutcome read_path(const TempDir& dir, const std::string& name, std::optional<std::uint64_t> offset = {},
                      std::optional<std::uint64_t> limit = {}) {
  ReadRequest request;
  request.file_path = name;
  request.offset = offset;
  request.limit = limit;
  return read_file(roots_of(dir), request, ReadLimits{}, CancelToken{});
}

ReadOutcome read_doc(const TempDir& dir, const std::string& name, const std::string& bytes) {
  dir.write(name, bytes);
  return read_path(dir, name);
}

const std::string kListStyles =
    "<text:list-style style:name=\"L1\"><text:list-level-style-bullet text:level=\"1\" text:bullet-char=\"•\"/>"
    "<text:list-level-style-number text:level=\"2\" style:num-format=\"1\"/></text:list-style>"
    "<text:list-style style:name=\"L2\"><text:list-level-style-number text:level=\"1\" style:num-format=\"1\"/></text:list-style>";

}  // namespace

TEST_CASE("odt: structure as Markdown-like text") {
  TempDir dir;
  SUBCASE("headings, paragraphs with collapsed spaces, nested lists") {
    const std::string text =
        "<text:h text:outline-level=\"1\">Report</text:h>"
        "<text:p>Intro   <text:span>text</text:span><text:s text:c=\"2\"/>with<text:tab/>tab.</text:p>"
        "<text:h text:outline-level=\"2\">Details</text:h>"
        "<text:list text:style-name=\"L1\"><text:list-item><text:p>apple</text:p>"
        "<text:list><text:list-item><text:p>first</text:p></text:list-item><text:list-item><text:p>second</text:p></text:list-item></text:list>"
        "</text:list-item><text:list-item><text:p>pear</text:p></text:list-item></text:list>"
        "<text:list text:style-name=\"L2\"><text:list-item><text:p>one</text:p></text:list-item>"
        "<text:list-item><text:p>two</text:p></text:list-item></text:list><text:p/>";
    const ReadOutcome o = read_doc(dir, "a.odt", odt_bytes(text, kListStyles));
    REQUIRE_FALSE(o.is_error);
    CHECK(texts_joined(o) == "OpenDocument text " + (dir.path() / "a.odt").string() + ": 9 paragraphs.\n\n"
                        "# Report\n\nIntro text with tab.\n\n## Details\n\n"
                        "- apple\n  1. first\n  2. second\n- pear\n\n1. one\n2. two\n\n"
                        "[Paragraphs 1-9 of 9. End of document.]\n<block>\n");
    CHECK(o.meta["kind"] == "odt");
  }
  SUBCASE("tables, links, notes and comments") {
    const std::string text =
        "<table:table><table:table-header-rows><table:table-row><table:table-cell><text:p>Name</text:p></table:table-cell>"
        "<table:table-cell><text:p>Value</text:p></table:table-cell></table:table-row></table:table-header-rows>"
        "<table:table-row><table:table-cell><text:p>a|b</text:p></table:table-cell><table:table-cell><text:p>1</text:p>"
        "<text:p>2</text:p></table:table-cell><table:table-cell table:number-columns-repeated=\"1000\"/></table:table-row></table:table>"
        "<text:p>See <text:a xlink:href=\"https://example.org/x\">the site</text:a><text:note text:note-class=\"footnote\">"
        "<text:note-citation>1</text:note-citation><text:note-body><text:p>A footnote.</text:p></text:note-body></text:note>"
        " and <office:annotation><dc:creator>Ann</dc:creator><dc:date>2024-01-01</dc:date><text:p>Check this</text:p>"
        "</office:annotation>more.</text:p>";
    const ReadOutcome o = read_doc(dir, "t.odt", odt_bytes(text));
    REQUIRE_FALSE(o.is_error);
    CHECK(texts_joined(o) == "OpenDocument text " + (dir.path() / "t.odt").string() +
                            ": 2 paragraphs (1 table, 1 note, 1 comment).\n\n"
                            "| Name | Value |\n| --- | --- |\n| a\\|b | 1<br>2 |\n\n"
                            "See [the site](https://example.org/x)[^1] and [Comment by Ann: Check this] more.\n\n"
                            "[^1]: A footnote.\n\n[Paragraphs 1-2 of 2. End of document.]\n<block>\n");
  }
  SUBCASE("a numbered paragraph (ODF 1.2) is a list item") {
    const ReadOutcome o = read_doc(dir, "n.odt", odt_bytes("<text:numbered-paragraph text:level=\"1\" text:style-name=\"L2\" "
                                                         "text:start-value=\"4\"><text:p>fourth</text:p></text:numbered-paragraph>",
                                                         kListStyles));
    REQUIRE_FALSE(o.is_error);
    CHECK(texts_joined(o).find("\n\n4. fourth\n\n") != std::string::npos);
  }
  SUBCASE("an image in a frame, after its paragraph") {
    const std::string png = encode_picture(Picture{.width = 20, .height = 10}, ".png");
    REQUIRE_FALSE(png.empty());
    const std::string text =
        "<text:p>Look: <draw:frame draw:name=\"f\"><draw:image xlink:href=\"Pictures/p.png\"/><svg:desc>A dot</svg:desc>"
        "</draw:frame></text:p><text:p>After.</text:p>";
    const ReadOutcome o = read_doc(dir, "i.odt", odt_bytes(text, {}, {{"Pictures/p.png", png}}));
    REQUIRE_FALSE(o.is_error);
    REQUIRE(o.blocks.size() == 3);
    CHECK(std::get<TextBlock>(o.blocks[0]).text.ends_with("Look: [Image 1: A dot]"));
    CHECK(std::holds_alternative<ImageBlock>(o.blocks[1]));
  }
}

TEST_CASE("odt: classification by the mimetype entry") {
  const std::string odt = odt_bytes("<text:p>x</text:p>");
  const auto bytes = [](const std::string& s) {
    return std::span(reinterpret_cast<const unsigned char*>(s.data()), s.size());
  };
  CHECK(classify("a.odt", bytes(odt), odt.size()).kind == FileKind{"odt"});
  CHECK(classify("renamed.bin", bytes(odt), odt.size()).kind == FileKind{"odt"});
  const std::string ods = zip_bytes({{"mimetype", "application/vnd.oasis.opendocument.spreadsheet", true}});
  CHECK(classify("a.ods", bytes(ods), ods.size()).kind == FileKind{"ods"});  // the spreadsheet reader's
}

// Real documents shipped by Debian packages, when this machine has them: every one reads, and
// its text holds words pandoc also finds (bench/office-agreement.sh measures the agreement).
TEST_CASE("odt: real documents from Debian packages") {
  const std::vector<std::string> candidates = {
      "/usr/share/cups/data/form_english_in.odt",
      "/usr/lib/python3/dist-packages/docutils/writers/odf_odt/styles.odt"};
  int read = 0;
  for (const auto& path : candidates) {
    if (!std::filesystem::exists(path)) continue;
    CAPTURE(path);
    Roots roots;
    std::string error;
    REQUIRE(Roots::from_paths({std::filesystem::path(path).parent_path().string()}, &roots, &error));
    ReadRequest request;
    request.file_path = path;
    const ReadOutcome o = read_file(roots, request, ReadLimits{}, CancelToken{});
    CHECK_FALSE(o.is_error);
    CHECK(texts_joined(o).find("OpenDocument text " + path) == 0);
    ++read;
  }
  MESSAGE(read << " real ODT files read");
}
