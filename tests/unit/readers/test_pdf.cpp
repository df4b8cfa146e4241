// read_pdf: page texts under markers, the subset PDF as a resource, rendered pages, caps.
// The PDFs are generated at test time (pdf_fixtures) and the answers checked with qpdf/libvips.
#include "pdf_test_util.hpp"
#include "mcpread/readers/utf8.hpp"

#include <tuple>
#include <vector>

using namespace mcpread::readers;
using namespace mcpread::test;
using namespace mcpread::test::pdf_util;

TEST_CASE("pdf: text and the subset PDF") {
  TempDir dir;
  const std::string d = dir.path().string();
  SUBCASE("a short document is read whole") {
    const std::string pdf = text_pdf(3, "Quarterly report");
    dir.write("report.pdf", pdf);
    const auto o = read(dir, "report.pdf");
    REQUIRE_FALSE(o.is_error);
    CHECK(text(o) == "PDF " + d + kSep + "report.pdf: \"Quarterly report\", 3 pages, " +
                         size_text(pdf.size()) + ". Pages 1-3 follow." +
                         section(1, 3, page_line(1)) + section(2, 3, page_line(2)) +
                         section(3, 3, page_line(3)));
    const auto& b = std::get<BlobResourceBlock>(o.blocks.at(1));
    CHECK(b.uri == file_uri(dir.path(), "report.pdf"));
    const PdfSummary s = blob(o);
    REQUIRE(s.ok);
    CHECK(s.pages == 3);
    CHECK((holds_page(s, 0, 1) && holds_page(s, 1, 2) && holds_page(s, 2, 3)));
    CHECK(o.meta["path"] == d + kSep + "report.pdf");
    CHECK(o.meta["size"] == pdf.size());
    CHECK(o.meta["pages"] == 3);
    CHECK(o.meta["selected"] == nlohmann::json::array({1, 2, 3}));
    CHECK(o.meta["title"] == "Quarterly report");
    CHECK(o.meta["encrypted"] == false);
    CHECK(o.meta["truncated"] == false);
    CHECK_FALSE(o.meta.contains("next_pages"));
  }
  SUBCASE("selected pages, in the order asked; the blob holds only those") {
    dir.write("doc.pdf", text_pdf(9, "Caf\u00e9 \u2014 r\u00e9sum\u00e9"));
    PdfOptions opt;
    opt.pages = "7-8, 2";
    const auto o = read(dir, "doc.pdf", opt);
    REQUIRE_FALSE(o.is_error);
    const std::string& t = text(o);
    CHECK(t.find(": \"Caf\u00e9 \u2014 r\u00e9sum\u00e9\", 9 pages, ") != std::string::npos);
    CHECK(t.find(". Pages 7-8, 2 follow." + section(7, 9, page_line(7)) +
                 section(8, 9, page_line(8)) + section(2, 9, page_line(2))) != std::string::npos);
    CHECK(t.ends_with(page_line(2)));
    const PdfSummary s = blob(o);
    REQUIRE(s.ok);
    CHECK(s.pages == 3);
    CHECK((holds_page(s, 0, 7) && holds_page(s, 1, 8) && holds_page(s, 2, 2)));
    CHECK(s.title == "Caf\u00e9 \u2014 r\u00e9sum\u00e9");
    CHECK_FALSE(s.encrypted);
    CHECK(o.meta["selected"] == nlohmann::json::array({7, 8, 2}));
  }
  SUBCASE("a title past 300 bytes is cut on a character boundary") {
    std::string title = "T";
    for (int i = 0; i < 150; ++i) title += "\u00e9";  // 1 + 300 bytes: the cut falls inside an é
    dir.write("long.pdf", text_pdf(1, title));
    const auto o = read(dir, "long.pdf");
    REQUIRE_FALSE(o.is_error);
    const std::string kept = title.substr(0, 299) + "\u2026";
    CHECK(o.meta["title"] == kept);
    CHECK(utf8::is_valid(text(o)));
    CHECK(text(o).find(": \"" + kept + "\", 1 page, ") != std::string::npos);
  }
  SUBCASE("one page, no title, a name that needs percent-encoding") {
    const std::string pdf = text_pdf(4);
    dir.write("a b#1%.pdf", pdf);
    PdfOptions opt;
    opt.pages = "3";
    const auto o = read(dir, "a b#1%.pdf", opt);
    CHECK(text(o) == "PDF " + d + kSep + "a b#1%.pdf: 4 pages, " + size_text(pdf.size()) +
                         ". Page 3 follows." + section(3, 4, page_line(3)));
    CHECK(std::get<BlobResourceBlock>(o.blocks.at(1)).uri == file_uri(dir.path(), "a%20b%231%25.pdf"));
    CHECK(blob(o).pages == 1);
    CHECK_FALSE(o.meta.contains("title"));
  }
  SUBCASE("text mode: no blob") {
    dir.write("doc.pdf", text_pdf(2));
    PdfOptions opt;
    opt.mode = PdfMode::text;
    const auto o = read(dir, "doc.pdf", opt);
    REQUIRE(o.blocks.size() == 1);
    CHECK(text(o).ends_with(section(1, 2, page_line(1)) + section(2, 2, page_line(2))));
    CHECK_FALSE(o.meta.contains("blob_bytes"));
  }
  SUBCASE("pages without a text layer are named") {
    std::vector<PdfPage> pages(3);
    pages[0].lines = {"Scanned appendix follows."};
    pages[1].kind = PdfPage::Kind::drawing;
    pages[2].kind = PdfPage::Kind::blank;
    dir.write("scan.pdf", make_pdf(pages));
    const auto o = read(dir, "scan.pdf");
    const auto note = [](int k) {
      return "[Page " + std::to_string(k) +
             " has no text layer; call read with file_type=\"image\" "
             "and pages=\"" +
             std::to_string(k) + "\" to see it.]";
    };
    // A page whose content draws nothing is blank: no use looking at it.
    CHECK(text(o).ends_with(section(1, 3, "Scanned appendix follows.") + section(2, 3, note(2)) +
                            section(3, 3, "[Page 3 is blank.]")));
    CHECK(o.meta["blank_pages"] == nlohmann::json::array({3}));
    CHECK(blob(o).pages == 3);
  }
  SUBCASE("pages under intermediate nodes of the page tree are measured too") {
    // Big documents' page trees have levels (memman.pdf: 615 pages under 3 x 6 nodes); the
    // content measures must find each page there, not only in a flat tree.
    std::vector<PdfPage> pages(4);
    pages[0].lines = {"First page."};
    pages[1].kind = PdfPage::Kind::blank;
    pages[2].kind = PdfPage::Kind::unmapped_text;
    pages[2].lines = {"These glyphs map to no character at all, twenty and more of them."};
    pages[3].lines = {"Last page."};
    dir.write("tree.pdf", make_pdf(pages, {}, true));
    const auto o = read(dir, "tree.pdf");
    CHECK(text(o).find(section(2, 4, "[Page 2 is blank.]")) != std::string::npos);
    CHECK(o.meta["blank_pages"] == nlohmann::json::array({2}));
    CHECK(o.meta["pages_text_lost"] == nlohmann::json::array({3}));
    CHECK(text(o).ends_with(section(4, 4, "Last page.")));
  }
  SUBCASE("a subset's pages keep what they inherit from the page tree") {
    // The subset finds its pages by /Count and gives each the attributes it inherits; an
    // attribute left behind on the source's /Pages node would leave the page without its size,
    // its fonts or its turn.
    std::vector<PdfPage> pages(4);
    for (int i = 0; i < 4; ++i) pages[static_cast<std::size_t>(i)].lines = {page_line(i + 1)};
    pages[2].width = 500;
    pages[2].height = 400;
    pages[2].rotate = 90;
    pages[3] = pages[2];
    pages[3].lines = {page_line(4)};
    dir.write("inherit.pdf", make_pdf(pages, {}, true, true));
    PdfOptions opt;
    opt.pages = "4, 1";
    const auto o = read(dir, "inherit.pdf", opt);
    REQUIRE_FALSE(o.is_error);
    CHECK(text(o).ends_with(section(4, 4, page_line(4)) + section(1, 4, page_line(1))));
    const PdfSummary s = blob(o);
    REQUIRE(s.ok);
    REQUIRE(s.pages == 2);
    CHECK((holds_page(s, 0, 4) && holds_page(s, 1, 1)));
    CHECK(s.media_boxes == std::vector<std::string>{"[ 0 0 500 400 ]", "[ 0 0 612 792 ]"});
    CHECK(s.rotations == std::vector<int>{90, 0});
    CHECK(s.fonts == std::vector<std::vector<std::string>>{{"/F1"}, {"/F1"}});
  }
  SUBCASE("a font name naming another font on the next page is read with that font") {
    // Consecutive pages share their fonts while reading (the plugin's text session): page 2's
    // /F1 is a font of its own that shows "P" as Z, between pages whose /F1 is Helvetica.
    std::vector<PdfPage> pages(3);
    for (int i = 0; i < 3; ++i) pages[static_cast<std::size_t>(i)].lines = {page_line(i + 1)};
    pages[1].differences = "80 /Z";
    dir.write("fonts.pdf", make_pdf(pages));
    const std::string z = "Z" + page_line(2).substr(1);
    CHECK(text(read(dir, "fonts.pdf")).ends_with(section(1, 3, page_line(1)) + section(2, 3, z) +
                                                   section(3, 3, page_line(3))));
  }
  SUBCASE("multi-line pages keep their lines") {
    std::vector<PdfPage> pages(1);
    pages[0].lines = {"First line (with parentheses)", "Second line \\ backslash", "Third"};
    dir.write("lines.pdf", make_pdf(pages));
    CHECK(text(read(dir, "lines.pdf"))
              .ends_with("First line (with parentheses)\nSecond line \\ backslash\nThird"));
  }
}

TEST_CASE("pdf: long documents and the page limit") {
  TempDir dir;
  const std::string d = dir.path().string();
  dir.write("long.pdf", text_pdf(300));
  SUBCASE("without pages: the first 20 and where to go on") {
    const auto o = read(dir, "long.pdf");
    REQUIRE_FALSE(o.is_error);
    const std::string& t = text(o);
    CHECK(t.find(": 300 pages, ") != std::string::npos);
    CHECK(t.find(". Pages 1-20 follow." + section(1, 300, page_line(1))) != std::string::npos);
    CHECK(t.ends_with(section(20, 300, page_line(20)) +
                      "\n\n[Pages 21-300 not shown; call read with pages=\"21-40\" to continue "
                      "(at most 20 pages per call).]"));
    CHECK(o.meta["next_pages"] == "21-40");
    CHECK(o.meta["selected"].size() == 20);
    const PdfSummary s = blob(o);
    CHECK(s.pages == 20);
    CHECK((holds_page(s, 0, 1) && holds_page(s, 19, 20)));
  }
  SUBCASE("an open range to the end") {
    PdfOptions opt;
    opt.pages = "285-";
    const auto o = read(dir, "long.pdf", opt);
    REQUIRE_FALSE(o.is_error);
    CHECK(text(o).ends_with(section(300, 300, page_line(300))));
    CHECK(blob(o).pages == 16);
    CHECK_FALSE(o.meta.contains("next_pages"));
  }
  SUBCASE("too many pages asked for") {
    PdfOptions opt;
    opt.pages = "1-35";
    auto o = read(dir, "long.pdf", opt);
    CHECK(o.is_error);
    CHECK(text(o) ==
          "pages=\"1-35\" asks for 35 pages; at most 20 per call \u2014 ask for 1-20, "
          "then 21-35.");
    opt.pages = "2,4,10-60";
    o = read(dir, "long.pdf", opt);
    CHECK(text(o) ==
          "pages=\"2,4,10-60\" asks for 53 pages; at most 20 per call \u2014 ask for "
          "2,4,10-27, then 28-47, and so on.");
  }
  SUBCASE("a page that does not exist") {
    PdfOptions opt;
    opt.pages = "301";
    const auto o = read(dir, "long.pdf", opt);
    CHECK(o.is_error);
    CHECK(text(o) == "Page 301 does not exist: the document has 300 pages.");
  }
  SUBCASE("a configured page limit") {
    PdfOptions opt;
    opt.max_pages = 5;
    opt.whole_document_pages = 5;
    const auto o = read(dir, "long.pdf", opt);
    CHECK(o.meta["selected"].size() == 5);
    CHECK(o.meta["next_pages"] == "6-10");
    opt.max_pages = 299;
    opt.whole_document_pages = 299;
    CHECK(text(read(dir, "long.pdf", opt))
              .ends_with("\n\n[Page 300 not shown; call read with pages=\"300\" to continue (at "
                         "most 299 pages per call).]"));
  }
}

TEST_CASE("pdf: caps on the answer") {
  TempDir dir;
  SUBCASE("text capped within a page; the blob still holds every selected page") {
    dir.write("doc.pdf", text_pdf(10));
    PdfOptions opt;
    opt.max_output_bytes = 1000;
    const auto o = read(dir, "doc.pdf", opt);
    REQUIRE_FALSE(o.is_error);
    const std::string& t = text(o);
    CHECK(t.size() <= 1000);
    REQUIRE(o.meta["next_pages"].is_string());
    const std::string next = o.meta["next_pages"];
    const int k = std::stoi(next);
    CHECK(k > 1);
    CHECK(next == std::to_string(k) + "-10");
    CHECK(t.find(section(k - 1, 10, page_line(k - 1))) != std::string::npos);
    CHECK(t.find(section(k + 1, 10, "")) == std::string::npos);
    CHECK(t.ends_with("\n\n[Text capped at 1000 bytes within page " + std::to_string(k) +
                      "; call read with pages=\"" + next + "\" to continue.]"));
    CHECK(o.meta["truncated"] == true);
    CHECK(blob(o).pages == 10);
  }
  SUBCASE("a long page is cut at a line break") {
    std::vector<PdfPage> pages(1);
    for (int i = 1; i <= 40; ++i)
      pages[0].lines.push_back("Line " + std::to_string(i) + " of a long page.");
    dir.write("long-page.pdf", make_pdf(pages));
    PdfOptions opt;
    opt.max_output_bytes = 1200;
    const auto o = read(dir, "long-page.pdf", opt);
    const std::string& t = text(o);
    const auto note =
        t.find("\n\n[Text capped at 1200 bytes within page 1; call read with pages=\"1\"");
    REQUIRE(note != std::string::npos);
    CHECK(t.substr(0, note).ends_with(" of a long page."));
    CHECK(t.find("Line 40 ") == std::string::npos);
  }
  SUBCASE("a blob over its limit is left out, and the text says so") {
    dir.write("doc.pdf", text_pdf(2));
    PdfOptions opt;
    opt.max_blob_base64_bytes = 100;
    const auto o = read(dir, "doc.pdf", opt);
    REQUIRE(o.blocks.size() == 1);
    const std::string& t = text(o);
    CHECK(t.find(section(2, 2, page_line(2)) + "\n\n[The PDF of these pages is not attached: as "
                                               "base64 it would be ") != std::string::npos);
    CHECK(t.ends_with(", over the limit of 100 bytes per answer; ask for fewer pages to get it.]"));
    CHECK_FALSE(o.meta.contains("blob_bytes"));
  }
  SUBCASE("a file over the size limit") {
    dir.write("doc.pdf", text_pdf(2));
    PdfOptions opt;
    opt.max_file_bytes = 100;
    const auto o = read(dir, "doc.pdf", opt);
    CHECK(o.is_error);
    CHECK(text(o).starts_with(dir.path().string() + kSep + "doc.pdf is a PDF of "));
    CHECK(text(o).ends_with(", over the limit of 100 bytes for PDFs."));
  }
}

TEST_CASE("pdf: rendered pages") {
  TempDir dir;
  std::vector<PdfPage> pages(3);
  pages[0].lines = {page_line(1)};
  pages[1].kind = PdfPage::Kind::drawing;
  pages[2].lines = {page_line(3)};
  pages[2].rotate = 90;
  dir.write("doc.pdf", make_pdf(pages));
  PdfOptions opt;
  opt.mode = PdfMode::images;
  const auto o = read(dir, "doc.pdf", opt);
  REQUIRE_FALSE(o.is_error);
  REQUIRE(o.blocks.size() == 7);
  CHECK(text(o).ends_with(". Pages 1-3 follow as images."));
  const std::vector<std::tuple<int, int, int>> expected = {
      {1, 1020, 1320}, {2, 1020, 1320}, {3, 1320, 1020}};
  for (const auto& [k, w, h] : expected) {
    CAPTURE(k);
    const auto i = static_cast<std::size_t>(2 * k - 1);
    CHECK(text(o, i) == "\u2500\u2500 Page " + std::to_string(k) + " of 3 \u2500\u2500");
    REQUIRE(std::holds_alternative<ImageBlock>(o.blocks[i + 1]));
    const auto& img = std::get<ImageBlock>(o.blocks[i + 1]);
    CHECK(img.mime_type == "image/png");
    const auto decoded = decode_image(std::string(mcpread::readers::view_of(img.data)));
    CHECK(decoded.width == w);
    CHECK(decoded.height == h);
  }
  // The red square of page 2 (100-300 pt from the bottom left) in its middle, at 120/72 px per pt.
  const std::string page2 = std::string(mcpread::readers::view_of(std::get<ImageBlock>(o.blocks[4]).data));
  CHECK(pixel_at(page2, 333, 987) == std::vector<double>{255, 0, 0});
  CHECK(pixel_at(page2, 50, 50) == std::vector<double>{255, 255, 255});
  CHECK(o.meta["rendered"].size() == 3);
  CHECK(o.meta["rendered"][0]["width"] == 1020);
  SUBCASE("a long document: the first pages and where to go on") {
    dir.write("long.pdf", text_pdf(25));
    opt.max_pages = 2;
    const auto p = read(dir, "long.pdf", opt);
    REQUIRE(p.blocks.size() == 6);
    CHECK(text(p, 5) == "[Pages 3-25 not shown; call read with file_type=\"image\" and "
                        "pages=\"3-4\" to continue (at most 2 pages per call).]");
    CHECK(p.meta["next_pages"] == "3-4");
  }
  SUBCASE("a huge page is rendered to fit the image limit") {
    std::vector<PdfPage> poster(1);
    poster[0].width = 7200;
    poster[0].height = 3600;
    poster[0].lines = {"Poster"};
    dir.write("poster.pdf", make_pdf(poster));
    const auto p = read(dir, "poster.pdf", opt);
    const auto decoded = decode_image(std::string(mcpread::readers::view_of(std::get<ImageBlock>(p.blocks.at(2)).data)));
    CHECK(decoded.width == 2000);
    CHECK(decoded.height == 1000);
  }
}

TEST_CASE("pdf: text with images of the pages that have little text") {
  TempDir dir;
  std::vector<PdfPage> pages(3);
  for (int i = 1; i <= 8; ++i) pages[0].lines.push_back("Line " + std::to_string(i) + " of a page with plenty of text on it.");
  pages[1].kind = PdfPage::Kind::drawing;  // no text: a scan
  pages[2].lines = {"Short."};            // little text: a figure page
  dir.write("mixed.pdf", make_pdf(pages));
  PdfOptions opt;
  opt.mode = PdfMode::text_and_page_images;
  SUBCASE("each sparse page's image right after its text, no blob") {
    const auto o = read(dir, "mixed.pdf", opt);
    REQUIRE_FALSE(o.is_error);
    REQUIRE(o.blocks.size() == 4);
    CHECK(text(o, 0).ends_with("[Page 2 has no text layer; an image of the page follows.]"));
    CHECK(std::holds_alternative<ImageBlock>(o.blocks[1]));
    CHECK(text(o, 2).ends_with("Short.\n[Page 3 has little text; an image of the page follows.]"));
    CHECK(std::holds_alternative<ImageBlock>(o.blocks[3]));
    CHECK(o.meta["rendered"].size() == 2);
  }
  SUBCASE("at most max_page_images; the others say how to see them") {
    opt.max_page_images = 1;
    const auto o = read(dir, "mixed.pdf", opt);
    REQUIRE(o.blocks.size() == 3);
    CHECK(text(o, 2).find("Short.") != std::string::npos);
    CHECK(text(o, 2).find("image of the page follows") == std::string::npos);
  }
  SUBCASE("a page cut by the text cap gets no image and no promise of one") {
    // Room for page 1 and page 2's marker, not for page 2's note (512 bytes are kept for notes).
    const auto whole = read(dir, "mixed.pdf", opt);
    const std::size_t page2 = text(whole, 0).find("\n\n\u2500\u2500 Page 2 of 3");
    REQUIRE(page2 != std::string::npos);
    opt.max_output_bytes = 512 + page2 + 30;
    const auto o = read(dir, "mixed.pdf", opt);
    REQUIRE_FALSE(o.is_error);
    for (const auto& b : o.blocks) CHECK_FALSE(std::holds_alternative<ImageBlock>(b));
    CHECK(text(o).find("follows.]") == std::string::npos);
    CHECK(text(o).find("\u2500\u2500\n[P") == std::string::npos);  // not even the note's start
    CHECK(o.meta["truncated"] == true);
  }
}
