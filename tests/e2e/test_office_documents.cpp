// Word and OpenDocument documents through the binary: text, then the image after its paragraph,
// paging by paragraphs, and a hostile package refused; every message schema-valid.
#include "fixtures.hpp"
#include "image_fixtures.hpp"
#include "mcp_client.hpp"
#include "office_fixtures.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace mcpread::test;
using nlohmann::json;

namespace {

std::string docx_with_image() {
  const std::string png = encode_picture(Picture{.width = 32, .height = 24}, ".png");
  REQUIRE_FALSE(png.empty());
  const std::string body =
      "<w:p><w:pPr><w:outlineLvl w:val=\"0\"/></w:pPr><w:r><w:t>Trip report</w:t></w:r></w:p>"
      "<w:p><w:r><w:t>The map:</w:t></w:r><w:r><w:drawing><wp:inline><wp:docPr id=\"1\" name=\"p\" descr=\"Route\"/>"
      "<a:graphic><a:graphicData><pic:pic><pic:blipFill><a:blip r:embed=\"rImg\"/></pic:blipFill></pic:pic>"
      "</a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>"
      "<w:p><w:r><w:t>Day two.</w:t></w:r></w:p>";
  const std::string rels =
      "<Relationship Id=\"rImg\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/image\" "
      "Target=\"media/image1.png\"/>";
  return docx_bytes(body, rels, {{"word/media/image1.png", png}});
}

}  // namespace

TEST_CASE("a Word document with an image through the binary") {
  TempDir root;
  root.write("trip.docx", docx_with_image());
  for (const char* version : {"2024-11-05", "2025-06-18", "2025-11-25"}) {
    CAPTURE(version);
    McpClient client({{root.path().string()}});
    client.initialize(version);
    const json r = client.call("read", {{"file_path", "trip.docx"}});
    CHECK_FALSE(r.contains("isError"));
    REQUIRE(r["content"].size() == 3);
    CHECK(r["content"][0]["text"] == "Word document " + (root.path() / "trip.docx").string() +
                                         ": 3 paragraphs (1 image).\n\n# Trip report\n\nThe map: [Image 1: Route]");
    CHECK(r["content"][1]["type"] == "image");
    CHECK(r["content"][1]["mimeType"] == "image/png");
    CHECK(r["content"][2]["text"] == "Day two.\n\n[Paragraphs 1-3 of 3. End of document.]");
    CHECK(r["_meta"]["images"] == 1);
  }
}

TEST_CASE("a Word document paged, and a hostile ODT, through the binary") {
  TempDir root;
  root.write("trip.docx", docx_with_image());
  root.write("bomb.odt", odt_bytes("<text:p>" + std::string(8u << 20, ' ') + "</text:p>"));
  McpClient client({{root.path().string()}});
  client.initialize("2025-11-25");
  const json page = client.call("read", {{"file_path", "trip.docx"}, {"limit", 1}});
  CHECK(page["content"].size() == 1);
  CHECK(page["content"][0]["text"].get<std::string>().ends_with(
      "# Trip report\n\n[Paragraphs 1-1 of 3. To read more, call read again with offset=2.]"));
  const json bomb = client.call("read", {{"file_path", "bomb.odt"}});
  CHECK(bomb["isError"] == true);
  const std::string message = bomb["content"][0]["text"];
  CHECK(message.starts_with((root.path() / "bomb.odt").string() +
                            " cannot be read as an OpenDocument text: \"content.xml\" is compressed "));
  CHECK(message.find(" to 1, over the ratio of 200 allowed (a zip bomb?).") != std::string::npos);
}
