// PowerPoint presentations through read_file: slides in show order under slide markers with their
// titles, bullets with levels, tables as Markdown tables, speaker notes, hidden slides named,
// pictures as image blocks after their slide, `pages` selecting slides, and classification.
#include "fixtures.hpp"
#include "image_fixtures.hpp"
#include "reader_fixtures.hpp"
#include "tool_wording.hpp"
#include "slides_fixtures.hpp"

#include "mcpread/readers/read.hpp"
#include "mcpread/readers/resources.hpp"

#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <variant>

using namespace mcpread::readers;
using namespace mcpread::test;

namespace {

ReadOutcome read_deck(const TempDir& dir, const std::string& name, const std::string& bytes, const std::string& pages = {},
                      std::optional<FileKind> kind = {}, ReadLimits limits = {}) {
  dir.write(name, bytes);
  ReadRequest request = tool_worded(ReadRequest{});  // worded as the server words hints
  request.file_path = name;
  request.pages = pages;
  request.forced_kind = kind;
  return read_file(roots_of(dir), request, limits, CancelToken{});
}

std::string para(const std::string& text, const std::string& ppr = {}) {
  return "<a:p>" + ppr + "<a:r><a:t>" + text + "</a:t></a:r></a:p>";
}

std::string shape(const std::string& ph, const std::string& paragraphs) {
  return "<p:sp><p:nvSpPr><p:cNvPr id=\"2\" name=\"s\"/><p:cNvSpPr/><p:nvPr>" + ph + "</p:nvPr></p:nvSpPr><p:txBody>" +
         paragraphs + "</p:txBody></p:sp>";
}

std::string title(const std::string& text) { return shape("<p:ph type=\"title\"/>", para(text)); }

std::string body(const std::string& paragraphs) { return shape("<p:ph idx=\"1\"/>", paragraphs); }

std::string picture(const std::string& rid, const std::string& alt) {
  return "<p:pic><p:nvPicPr><p:cNvPr id=\"4\" name=\"Picture\" descr=\"" + alt + "\"/></p:nvPicPr><p:blipFill><a:blip r:embed=\"" +
         rid + "\"/></p:blipFill></p:pic>";
}

}  // namespace

TEST_CASE("pptx: slides as text") {
  TempDir dir;
  SUBCASE("titles, bullets with levels, text boxes, notes, hidden slides, in show order") {
    const std::string bytes = pptx_bytes({
        {.shapes = body(para("First point") + para("Detail", "<a:pPr lvl=\"1\"/>") + para("No bullet", "<a:pPr><a:buNone/></a:pPr>")) +
                   title("Agenda"),
         .notes = "Say hello."},
        {.shapes = shape("", para("A text box")) + shape("<p:ph type=\"sldNum\"/>", para("2")), .hidden = true},
    });
    const ReadOutcome o = read_deck(dir, "a.pptx", bytes);
    REQUIRE_FALSE(o.is_error);
    REQUIRE(o.blocks.size() == 1);
    CHECK(texts_joined(o) == "PowerPoint presentation " + (dir.path() / "a.pptx").string() + ": 2 slides (1 hidden).\n\n"
                        "\u2500\u2500 Slide 1 of 2: Agenda \u2500\u2500\n\n- First point\n  - Detail\nNo bullet\n\n"
                        "[Notes: Say hello.]\n\n"
                        "\u2500\u2500 Slide 2 of 2 (hidden) \u2500\u2500\n\nA text box\n\n"
                        "[Slides 1-2 of 2. End of document.]\n<block>\n");
    CHECK(o.meta["slides"] == 2);
    CHECK(o.meta["hidden_slides"] == 1);
    CHECK(o.meta["kind"] == "pptx");
  }
  SUBCASE("numbered paragraphs count on, from their start, until a paragraph of their level is not numbered") {
    const std::string num = "<a:pPr><a:buAutoNum type=\"arabicPeriod\"/></a:pPr>";
    const std::string from5 = "<a:pPr><a:buAutoNum type=\"arabicPeriod\" startAt=\"5\"/></a:pPr>";
    const std::string shapes = shape("", para("one", num) + para("two", num) + para("sub", "<a:pPr lvl=\"1\"><a:buChar char=\"-\"/></a:pPr>") +
                                             para("three", num) + para("plain") + para("five", from5) + para("six", from5));
    const ReadOutcome o = read_deck(dir, "n.pptx", pptx_bytes({{.shapes = shapes}}));
    REQUIRE_FALSE(o.is_error);
    CHECK(texts_joined(o).find("\n\n1. one\n2. two\n  - sub\n3. three\nplain\n5. five\n6. six\n\n") != std::string::npos);
  }
  SUBCASE("a number typed at a line's start is escaped, told from the numbering; a title's and a cell's are not") {
    const std::string num = "<a:pPr><a:buAutoNum type=\"arabicPeriod\"/></a:pPr>";
    const std::string typed = "<a:p><a:r><a:t>2) typed</a:t></a:r><a:br/><a:r><a:t>3. broken</a:t></a:r></a:p>";
    const std::string table = "<p:graphicFrame><a:graphic><a:graphicData><a:tbl><a:tr><a:tc><a:txBody>" + para("4. cell") +
                              "</a:txBody></a:tc></a:tr></a:tbl></a:graphicData></a:graphic></p:graphicFrame>";
    const std::string shapes = title("1. Intro") + body(para("numbered", num) + para("1. typed", num) + para("2. bullet")) +
                               shape("", para("1. plain") + typed + para("3.5 kg") + para("1.") + para("2024. Budget")) + table;
    const ReadOutcome o = read_deck(dir, "e.pptx", pptx_bytes({{.shapes = shapes, .notes = "7. noted"}}));
    REQUIRE_FALSE(o.is_error);
    const std::string text = texts_joined(o);
    CHECK(text.find("\u2500\u2500 Slide 1 of 1: 1. Intro \u2500\u2500\n\n1. numbered\n2. 1\\. typed\n- 2\\. bullet\n\n"
                    "1\\. plain\n2\\) typed\n3\\. broken\n3.5 kg\n1\\.\n2024\\. Budget\n\n| 4. cell |\n") != std::string::npos);
    CHECK(text.find("[Notes: 7\\. noted]") != std::string::npos);
  }
  SUBCASE("a table as a Markdown table") {
    const std::string table =
        "<p:graphicFrame><a:graphic><a:graphicData><a:tbl><a:tr><a:tc><a:txBody>" + para("Name") +
        "</a:txBody></a:tc><a:tc><a:txBody>" + para("Value") + "</a:txBody></a:tc></a:tr><a:tr><a:tc><a:txBody>" +
        para("a|b") + "</a:txBody></a:tc><a:tc><a:txBody>" + para("1") + para("2") +
        "</a:txBody></a:tc></a:tr></a:tbl></a:graphicData></a:graphic></p:graphicFrame>";
    const ReadOutcome o = read_deck(dir, "t.pptx", pptx_bytes({{.shapes = title("Numbers") + table}}));
    REQUIRE_FALSE(o.is_error);
    CHECK(texts_joined(o).find("\u2500\u2500 Slide 1 of 1: Numbers \u2500\u2500\n\n| Name | Value |\n| --- | --- |\n| a\\|b | 1<br>2 |\n\n") !=
          std::string::npos);
  }
  SUBCASE("a SmartArt diagram's text, an item per point") {
    const std::string frame =
        "<p:graphicFrame><a:graphic><a:graphicData><dgm:relIds xmlns:dgm=\"d\" r:dm=\"rD\"/></a:graphicData></a:graphic>"
        "</p:graphicFrame>";
    const std::string data =
        "<dgm:dataModel xmlns:dgm=\"d\" xmlns:a=\"a\"><dgm:ptLst><dgm:pt type=\"doc\"><dgm:t><a:p/></dgm:t></dgm:pt>"
        "<dgm:pt><dgm:t><a:p><a:r><a:t>Plan</a:t></a:r></a:p></dgm:t></dgm:pt>"
        "<dgm:pt><dgm:t><a:p><a:r><a:t>Build</a:t></a:r></a:p></dgm:t></dgm:pt></dgm:ptLst></dgm:dataModel>";
    const ReadOutcome o = read_deck(
        dir, "d.pptx",
        pptx_bytes({{.shapes = title("Steps") + frame,
                     .rels = "<Relationship Id=\"rD\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/"
                             "relationships/diagramData\" Target=\"../diagrams/data1.xml\"/>"}},
                   {{"ppt/diagrams/data1.xml", data}}));
    REQUIRE_FALSE(o.is_error);
    CHECK(texts_joined(o).find("\u2500\u2500 Slide 1 of 1: Steps \u2500\u2500\n\n- Plan\n- Build\n\n") != std::string::npos);
  }
  SUBCASE("a slide the list names but the package lacks") {
    const ReadOutcome o = read_deck(
        dir, "m.pptx",
        zip_bytes({{"ppt/presentation.xml",
                    "<p:presentation xmlns:p=\"p\" xmlns:r=\"r\"><p:sldIdLst><p:sldId r:id=\"rX\"/></p:sldIdLst></p:presentation>"}}));
    REQUIRE_FALSE(o.is_error);
    CHECK(texts_joined(o).find("\u2500\u2500 Slide 1 of 1 \u2500\u2500\n\n[This slide's part is missing from the package.]") !=
          std::string::npos);
  }
}

TEST_CASE("pptx: pictures after their slide") {
  TempDir dir;
  const std::string png = encode_picture(Picture{.width = 40, .height = 30}, ".png");
  REQUIRE_FALSE(png.empty());
  const std::string bytes = pptx_bytes(
      {{.shapes = title("Chart") + picture("rI", "Sales"),
        .rels = "<Relationship Id=\"rI\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/image\" "
                "Target=\"../media/image1.png\"/>"},
       {.shapes = title("After")}},
      {{"ppt/media/image1.png", png}});
  SUBCASE("the image block follows its slide's text") {
    const ReadOutcome o = read_deck(dir, "i.pptx", bytes);
    REQUIRE_FALSE(o.is_error);
    REQUIRE(o.blocks.size() == 3);
    CHECK(std::get<TextBlock>(o.blocks[0]).text.ends_with("\u2500\u2500 Slide 1 of 2: Chart \u2500\u2500\n\n[Image 1: Sales]"));
    const auto* image = std::get_if<ImageBlock>(&o.blocks[1]);
    REQUIRE(image != nullptr);
    CHECK(image->mime_type == "image/png");
    CHECK(std::get<TextBlock>(o.blocks[2]).text ==
          "\u2500\u2500 Slide 2 of 2: After \u2500\u2500\n\n[Slides 1-2 of 2. End of document.]");
    CHECK(o.meta["images"] == 1);
  }
  SUBCASE("file_type=text keeps the marker, sends no image") {
    const ReadOutcome o = read_deck(dir, "i.pptx", bytes, {}, FileKind::text);
    REQUIRE_FALSE(o.is_error);
    REQUIRE(o.blocks.size() == 1);
    CHECK(texts_joined(o).find("[Image 1: Sales]") != std::string::npos);
    CHECK(o.meta["kind"] == "text");
  }
}

TEST_CASE("pptx: pages select slides") {
  TempDir dir;
  std::vector<SlideSpec> slides;
  for (int i = 1; i <= 6; ++i) slides.push_back({.shapes = title("S" + std::to_string(i)) + body(para(std::string(300, static_cast<char>('a' + i))))});
  const std::string bytes = pptx_bytes(slides);
  SUBCASE("a selection, with the closing note") {
    const ReadOutcome o = read_deck(dir, "p.pptx", bytes, "2,4-5");
    REQUIRE_FALSE(o.is_error);
    const std::string t = texts_joined(o);
    CHECK(t.find("Slide 2 of 6: S2") != std::string::npos);
    CHECK(t.find("Slide 3 of 6") == std::string::npos);
    CHECK(t.ends_with("[Slides 2,4-5 of 6. End of the selection.]\n<block>\n"));
  }
  SUBCASE("the output cap stops at a slide and says how to go on") {
    ReadLimits limits;
    limits.text.max_output_bytes = 1500;
    const ReadOutcome o = read_deck(dir, "p.pptx", bytes, {}, {}, limits);
    REQUIRE_FALSE(o.is_error);
    CHECK(texts_joined(o).ends_with("[Slides 1-2 of 6. To read more, call read again with pages=\"3-6\".]\n<block>\n"));
    CHECK(o.meta["next_pages"] == "3-6");
    CHECK(o.meta["truncated"] == true);
  }
  SUBCASE("limit caps the slides of one answer") {
    dir.write("p.pptx", bytes);
    ReadRequest request = tool_worded(ReadRequest{});  // worded as the server words hints
    request.file_path = "p.pptx";
    request.limit = 2;
    const ReadOutcome o = read_file(roots_of(dir), request, ReadLimits{}, CancelToken{});
    REQUIRE_FALSE(o.is_error);
    CHECK(texts_joined(o).ends_with("[Slides 1-2 of 6. To read more, call read again with pages=\"3-6\".]\n<block>\n"));
  }
  SUBCASE("a slide that does not exist") {
    const ReadOutcome o = read_deck(dir, "p.pptx", bytes, "9");
    REQUIRE(o.is_error);
    CHECK(texts_joined(o) == "Slide 9 does not exist: the document has 6 slides.\n<block>\n");
  }
}

TEST_CASE("pptx: classification and resources") {
  const std::string pptx = pptx_bytes({{.shapes = title("x")}});
  const auto bytes = [](const std::string& s) { return std::span(reinterpret_cast<const unsigned char*>(s.data()), s.size()); };
  SUBCASE("a package with ppt/presentation.xml is a presentation, whatever its name") {
    CHECK(classify("a.pptx", bytes(pptx), pptx.size()).kind == FileKind{"pptx"});
    const Classification c = classify("a.bin", bytes(pptx), pptx.size());
    CHECK(c.kind == FileKind{"pptx"});
    CHECK(c.mime == "application/vnd.openxmlformats-officedocument.presentationml.presentation");
  }
  SUBCASE("as a resource, the text") {
    TempDir dir;
    const auto path = dir.write("r.pptx", pptx_bytes({{.shapes = title("Hello") + body(para("World"))}}));
    const ResourceReadResult r = read_resource(roots_of(dir), path.string(), ReadLimits{}, CancelToken{});
    REQUIRE(r.status == ResourceStatus::ok);
    REQUIRE(r.contents.size() == 1);
    CHECK(r.contents[0].text == "PowerPoint presentation " + path.string() +
                                    ": 1 slide.\n\n\u2500\u2500 Slide 1 of 1: Hello \u2500\u2500\n\n- World\n\n"
                                    "[Slide 1 of 1. End of document.]");
  }
}
