// Presentations and e-books through the binary: a PPTX's slides with the picture after its slide,
// slides selected by pages, an EPUB's chapters, and hostile packages refused; every message
// schema-valid.
#include "fixtures.hpp"
#include "image_fixtures.hpp"
#include "mcp_client.hpp"
#include "slides_fixtures.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace mcpread::test;
using nlohmann::json;

namespace {

std::string shape(const std::string& ph, const std::string& text) {
  return "<p:sp><p:nvSpPr><p:cNvPr id=\"2\" name=\"s\"/><p:cNvSpPr/><p:nvPr>" + ph +
         "</p:nvPr></p:nvSpPr><p:txBody><a:p><a:r><a:t>" + text + "</a:t></a:r></a:p></p:txBody></p:sp>";
}

std::string deck_with_picture() {
  const std::string png = encode_picture(Picture{.width = 32, .height = 24}, ".png");
  REQUIRE_FALSE(png.empty());
  return pptx_bytes(
      {{.shapes = shape("<p:ph type=\"title\"/>", "Plan") + shape("<p:ph idx=\"1\"/>", "Ship it") +
                  "<p:pic><p:nvPicPr><p:cNvPr id=\"3\" name=\"p\" descr=\"Route\"/></p:nvPicPr><p:blipFill>"
                  "<a:blip r:embed=\"rI\"/></p:blipFill></p:pic>",
        .rels = "<Relationship Id=\"rI\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/image\" "
                "Target=\"../media/a.png\"/>",
        .notes = "Mention the date."},
       {.shapes = shape("<p:ph type=\"title\"/>", "Thanks")}},
      {{"ppt/media/a.png", png}});
}

}  // namespace

TEST_CASE("a presentation with a picture through the binary") {
  TempDir root;
  root.write("plan.pptx", deck_with_picture());
  for (const char* version : {"2024-11-05", "2025-06-18", "2025-11-25"}) {
    CAPTURE(version);
    McpClient client({{root.path().string()}});
    client.initialize(version);
    const json r = client.call("read", {{"file_path", "plan.pptx"}});
    CHECK_FALSE(r.contains("isError"));
    REQUIRE(r["content"].size() == 3);
    CHECK(r["content"][0]["text"] == "PowerPoint presentation " + (root.path() / "plan.pptx").string() +
                                         ": 2 slides (1 image).\n\n\u2500\u2500 Slide 1 of 2: Plan \u2500\u2500\n\n"
                                         "- Ship it\n\n[Image 1: Route]\n\n[Notes: Mention the date.]");
    CHECK(r["content"][1]["type"] == "image");
    CHECK(r["content"][2]["text"] == "\u2500\u2500 Slide 2 of 2: Thanks \u2500\u2500\n\n[Slides 1-2 of 2. End of document.]");
    CHECK(r["_meta"]["slides"] == 2);
  }
}

TEST_CASE("slides selected, an EPUB, and hostile packages through the binary") {
  TempDir root;
  root.write("plan.pptx", deck_with_picture());
  root.write("book.epub", epub_bytes("Short", "Ann", {{"c1.xhtml", "<p>Hello <b>there</b>.</p>", "Greeting"}}));
  root.write("bomb.pptx", pptx_bytes({{.shapes = shape("", std::string(8u << 20, ' '))}}));
  root.write("out.epub", epub_bytes("Out", "", {{"../../secret.xhtml", "<p>x</p>", ""}}));
  McpClient client({{root.path().string()}});
  client.initialize("2025-11-25");
  const json second = client.call("read", {{"file_path", "plan.pptx"}, {"pages", "2"}});
  REQUIRE(second["content"].size() == 1);
  CHECK(second["content"][0]["text"].get<std::string>().ends_with(
      "\u2500\u2500 Slide 2 of 2: Thanks \u2500\u2500\n\n[Slide 2 of 2. End of the selection.]"));
  const json book = client.call("read", {{"file_path", "book.epub"}});
  CHECK(book["content"][0]["text"] == "EPUB book " + (root.path() / "book.epub").string() +
                                          ": 1 chapter.\nTitle: Short\nAuthor: Ann\n\n\u2500\u2500 Chapter 1 of 1: Greeting "
                                          "\u2500\u2500\n\nHello there.\n\n[Chapter 1 of 1. End of document.]");
  const json bomb = client.call("read", {{"file_path", "bomb.pptx"}});
  CHECK(bomb["isError"] == true);
  const std::string message = bomb["content"][0]["text"];
  CHECK(message.starts_with((root.path() / "bomb.pptx").string() +
                            " cannot be read as a PowerPoint presentation: \"ppt/slides/slide1.xml\" is compressed "));
  const json out = client.call("read", {{"file_path", "out.epub"}});
  CHECK(out["isError"] == true);
  CHECK(out["content"][0]["text"] == (root.path() / "out.epub").string() +
                                         " cannot be read as an EPUB book: its spine names \"../../secret.xhtml\", which "
                                         "points outside the package; such a file is refused.");
}
