// read_pdf on pages whose fonts map their glyphs to no character: the loss is named with the
// counts, the page listed in the meta, and the way to see the page given (or its image sent).
#include "pdf_test_util.hpp"

#include <vector>

using namespace mcpread::readers;
using namespace mcpread::test;
using namespace mcpread::test::pdf_util;

namespace {

const std::string unmapped_line = "Every glyph of this line is drawn; none has a character.";

std::string loss_note(int page, long glyphs, const std::string& then) {
  return "[Page " + std::to_string(page) + ": the text layer has characters for only 0 of the " +
         std::to_string(glyphs) +
         " glyphs drawn; its fonts do not map them to Unicode, so text is missing. " + then + "]";
}

}  // namespace

TEST_CASE("pdf: pages whose text layer lost its characters") {
  TempDir dir;
  std::vector<PdfPage> pages(3);
  for (int i = 1; i <= 8; ++i)  // enough text not to count as a sparse page
    pages[0].lines.push_back("Line " + std::to_string(i) + " of a page with plenty of text on it.");
  pages[1].kind = PdfPage::Kind::unmapped_text;
  pages[1].lines = {unmapped_line, unmapped_line};
  pages[2].kind = PdfPage::Kind::unmapped_text;
  pages[2].lines = {"Too few."};  // fewer glyphs than a judgement needs
  dir.write("cjk.pdf", make_pdf(pages));
  const long glyphs = 2 * static_cast<long>(unmapped_line.size());  // Type0: spaces count too

  SUBCASE("text mode names the loss and how to see the page") {
    const auto o = read(dir, "cjk.pdf");
    REQUIRE_FALSE(o.is_error);
    const std::string no_layer =
        "[Page 3 has no text layer; call read with file_type=\"image\" and pages=\"3\" to see it.]";
    CHECK(text(o).ends_with(
        "Line 8 of a page with plenty of text on it." +
        section(2, 3,
                loss_note(2, glyphs,
                          "To see the page, call read with file_type=\"image\" and pages=\"2\".")) +
        section(3, 3, no_layer)));
    CHECK(o.meta.value("pages_text_lost", nlohmann::json()) == nlohmann::json::array({2}));
  }
  SUBCASE("text with page images sends the image of the page that lost its text") {
    PdfOptions opt;
    opt.mode = PdfMode::text_and_page_images;
    const auto o = read(dir, "cjk.pdf", opt);
    REQUIRE_FALSE(o.is_error);
    // The text up to page 2's note, page 2's image, then page 3's text and image.
    REQUIRE(o.blocks.size() == 4);
    CHECK(text(o, 0).ends_with(section(2, 3, loss_note(2, glyphs, "An image of the page follows."))));
    CHECK(std::holds_alternative<ImageBlock>(o.blocks.at(1)));
    CHECK(o.meta.value("pages_text_lost", nlohmann::json()) == nlohmann::json::array({2}));
  }
  SUBCASE("pages with all their characters carry no note") {
    dir.write("plain.pdf", text_pdf(2));
    const auto o = read(dir, "plain.pdf");
    REQUIRE_FALSE(o.is_error);
    CHECK(text(o).find("glyphs drawn") == std::string::npos);
    CHECK_FALSE(o.meta.contains("pages_text_lost"));
  }
}
