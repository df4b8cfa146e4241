// OpenDocument presentations through read_file: pages in order under slide markers with their
// titles, lists with levels, tables as Markdown tables, notes, hidden pages, pictures as image
// blocks after their slide, `pages` selecting slides, and classification.
#include "fixtures.hpp"
#include "image_fixtures.hpp"
#include "reader_fixtures.hpp"
#include "slides_fixtures.hpp"

#include "mcpread/readers/read.hpp"

#include <doctest/doctest.h>

#include <string>
#include <variant>

using namespace mcpread::readers;
using namespace mcpread::test;

namespace {

ReadOutcome read_deck(const TempDir& dir, const std::string& name, const std::string& bytes, const std::string& pages = {}) {
  dir.write(name, bytes);
  ReadRequest request;
  request.file_path = name;
  request.pages = pages;
  return read_file(roots_of(dir), request, ReadLimits{}, CancelToken{});
}

std::string frame(const std::string& klass, const std::string& content) {
  return "<draw:frame" + (klass.empty() ? std::string() : " presentation:class=\"" + klass + "\"") + "><draw:text-box>" +
         content + "</draw:text-box></draw:frame>";
}

}  // namespace

TEST_CASE("odp: slides as text") {
  TempDir dir;
  SUBCASE("titles, nested lists, plain text, notes, hidden pages, furniture left out") {
    const std::string list =
        "<text:list><text:list-item><text:p>One</text:p><text:list><text:list-item><text:p>One.a</text:p></text:list-item>"
        "</text:list></text:list-item><text:list-item><text:p>Two<text:s text:c=\"2\"/>spaced<text:line-break/>broken</text:p>"
        "</text:list-item></text:list>";
    const std::string bytes = odp_bytes({
        {.shapes = frame("title", "<text:p>Welcome</text:p>") + frame("outline", list) +
                   frame("page-number", "<text:p>1</text:p>"),
         .notes = "Smile."},
        {.shapes = frame("", "<text:p>Plain <text:span>words</text:span></text:p>"), .hidden = true},
    });
    const ReadOutcome o = read_deck(dir, "a.odp", bytes);
    REQUIRE_FALSE(o.is_error);
    CHECK(texts_joined(o) == "OpenDocument presentation " + (dir.path() / "a.odp").string() + ": 2 slides (1 hidden).\n\n"
                        "\u2500\u2500 Slide 1 of 2: Welcome \u2500\u2500\n\n- One\n  - One.a\n- Two spaced\n  broken\n\n[Notes: Smile.]\n\n"
                        "\u2500\u2500 Slide 2 of 2 (hidden) \u2500\u2500\n\nPlain words\n\n"
                        "[Slides 1-2 of 2. End of document.]\n<block>\n");
    CHECK(o.meta["kind"] == "odp");
  }
  SUBCASE("a number typed at a line's start is escaped, told from a list's; a title's and a cell's are not") {
    const std::string list = "<text:list><text:list-item><text:p>1. item</text:p></text:list-item></text:list>";
    const std::string table = "<draw:frame><table:table><table:table-row><table:table-cell><text:p>4. cell</text:p>"
                              "</table:table-cell></table:table-row></table:table></draw:frame>";
    const std::string bytes = odp_bytes({{.shapes = frame("title", "<text:p>1. Intro</text:p>") + frame("outline", list) +
                                                    frame("", "<text:p>2) plain<text:line-break/>3. broken</text:p><text:p>3.5 kg</text:p>") +
                                                    table,
                                          .notes = "7. noted"}});
    const ReadOutcome o = read_deck(dir, "n.odp", bytes);
    REQUIRE_FALSE(o.is_error);
    CHECK(texts_joined(o).find("\u2500\u2500 Slide 1 of 1: 1. Intro \u2500\u2500\n\n- 1\\. item\n\n2\\) plain\n3\\. broken\n3.5 kg\n\n"
                               "| 4. cell |\n| --- |\n\n[Notes: 7\\. noted]") != std::string::npos);
  }
  SUBCASE("a table as a Markdown table") {
    const std::string table =
        "<draw:frame><table:table><table:table-row><table:table-cell><text:p>A</text:p></table:table-cell>"
        "<table:table-cell><text:p>B</text:p></table:table-cell></table:table-row><table:table-row>"
        "<table:table-cell table:number-columns-repeated=\"2\"><text:p>x</text:p></table:table-cell></table:table-row>"
        "</table:table></draw:frame>";
    const ReadOutcome o = read_deck(dir, "t.odp", odp_bytes({{.shapes = table}}));
    REQUIRE_FALSE(o.is_error);
    CHECK(texts_joined(o).find("\u2500\u2500 Slide 1 of 1 \u2500\u2500\n\n| A | B |\n| --- | --- |\n| x | x |\n\n") != std::string::npos);
  }
  SUBCASE("pages selects slides") {
    const std::string bytes = odp_bytes({{.shapes = frame("title", "<text:p>A</text:p>")},
                                         {.shapes = frame("title", "<text:p>B</text:p>")},
                                         {.shapes = frame("title", "<text:p>C</text:p>")}});
    const ReadOutcome o = read_deck(dir, "p.odp", bytes, "3");
    REQUIRE_FALSE(o.is_error);
    CHECK(texts_joined(o).ends_with("\u2500\u2500 Slide 3 of 3: C \u2500\u2500\n\n[Slide 3 of 3. End of the selection.]\n<block>\n"));
  }
}

TEST_CASE("odp: pictures after their slide") {
  TempDir dir;
  const std::string png = encode_picture(Picture{.width = 40, .height = 30}, ".png");
  REQUIRE_FALSE(png.empty());
  const std::string bytes = odp_bytes(
      {{.shapes = "<draw:frame><draw:image xlink:href=\"Pictures/p.png\"/><svg:desc>Logo</svg:desc></draw:frame>"}},
      {{"Pictures/p.png", png}});
  const ReadOutcome o = read_deck(dir, "i.odp", bytes);
  REQUIRE_FALSE(o.is_error);
  REQUIRE(o.blocks.size() == 3);
  CHECK(std::get<TextBlock>(o.blocks[0]).text.ends_with("\u2500\u2500 Slide 1 of 1 \u2500\u2500\n\n[Image 1: Logo]"));
  CHECK(std::get_if<ImageBlock>(&o.blocks[1]) != nullptr);
}

TEST_CASE("odp: classification by the mimetype entry") {
  const std::string odp = odp_bytes({{.shapes = ""}});
  const auto span = std::span(reinterpret_cast<const unsigned char*>(odp.data()), odp.size());
  const Classification c = classify("deck.bin", span, odp.size());
  CHECK(c.kind == FileKind{"odp"});
  CHECK(c.mime == "application/vnd.oasis.opendocument.presentation");
}
