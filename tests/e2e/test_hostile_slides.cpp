// Hostile presentations and e-books, one SUBCASE per row, as in test_hostile_media.cpp: a fresh
// server per row, the exact answer, the server still answering, and its peak memory under a
// bound well below what the package claims to unpack to.
#include "fixtures.hpp"
#include "hostile_helpers.hpp"
#include "mcp_client.hpp"
#include "slides_fixtures.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace mcpread::test;
using namespace mcpread::test::hostile;
using nlohmann::json;

namespace {

std::string text_shape(const std::string& text) {
  return "<p:sp><p:nvSpPr><p:nvPr/></p:nvSpPr><p:txBody><a:p><a:r><a:t>" + text + "</a:t></a:r></a:p></p:txBody></p:sp>";
}

}  // namespace

TEST_CASE("hostile media: presentations and books") {
  const std::vector<Row> rows = {
      {"an EPUB chapter that unpacks to 32 MB of spaces",
       [](const TempDir& root) {
         root.write("bomb.epub", epub_bytes("B", "", {{"c.xhtml", "<p>" + std::string(32u << 20, ' ') + "</p>", ""}}));
         return json{{"file_path", "bomb.epub"}};
       },
       [](const json& r, const TempDir& root) {
         CHECK(r["isError"] == true);
         CHECK(text_of(r).starts_with((root.path() / "bomb.epub").string() +
                                      " cannot be read as an EPUB book: \"OEBPS/c.xhtml\" is compressed "));
         CHECK(text_of(r).ends_with(" to 1, over the ratio of 200 allowed (a zip bomb?)."));
       },
       48, "refused from the entry's sizes before it is inflated"},
      {"a PPTX of 2,000 slides, default read",
       [](const TempDir& root) {
         std::vector<SlideSpec> slides(2000);
         for (std::size_t i = 0; i < slides.size(); ++i) slides[i].shapes = text_shape("slide text " + std::to_string(i + 1));
         root.write("many.pptx", pptx_bytes(slides));
         return json{{"file_path", "many.pptx"}};
       },
       [](const json& r, const TempDir&) {
         CHECK_FALSE(r.contains("isError"));
         const std::string text = text_of(r);
         CHECK(text.find("\u2500\u2500 Slide 50 of 2000 \u2500\u2500\n\nslide text 50\n\n") != std::string::npos);
         CHECK(text.find("Slide 51 of 2000") == std::string::npos);
         CHECK(text.ends_with("[Slides 1-50 of 2000. To read more, call read again with pages=\"51-2000\".]"));
         CHECK(r["_meta"]["next_pages"] == "51-2000");
       },
       48, "2,000 small slides parsed one at a time, 50 shown"},
      {"an ODP nested 10,000 elements deep",
       [](const TempDir& root) {
         std::string deep;
         for (int i = 0; i < 10000; ++i) deep += "<draw:g>";
         for (int i = 0; i < 10000; ++i) deep += "</draw:g>";
         root.write("deep.odp", odp_bytes({{.shapes = deep}}));
         return json{{"file_path", "deep.odp"}};
       },
       [](const json& r, const TempDir& root) {
         CHECK(r["isError"] == true);
         CHECK(text_of(r) == (root.path() / "deep.odp").string() +
                                 " cannot be read as an OpenDocument presentation: \"content.xml\" is nested more than "
                                 "100 elements deep.");
       },
       48, "the parse is refused after it, without recursion"},
  };
  run_rows(rows);
}
