// pdf::MarksAhead: each page's marks counted on a worker thread, handed out in the selection's
// order, whatever the pages' numbers; a failed count is nullopt; a reader that stops early (its
// byte budget spent) is not held up by the pages it will not show. The plugin is stood in for
// by a page_marks function that records what it counted; then the plugin itself, its text read
// on one thread while a worker counts the marks of the same handle.
#include <doctest/doctest.h>

#include "pdf/pdf_marks_ahead.hpp"
#include "pdf_fixtures.hpp"

#include <atomic>
#include <cstring>
#include <string>
#include <vector>

using mcpread::readers::pdf::Api;
using mcpread::readers::pdf::MarksAhead;

namespace {

std::atomic<int> counted{0};

// Page k draws 10 * k glyphs; page 13 cannot be counted.
int fake_marks(mcpread_pdf_doc*, int page, mcpread_pdf_marks* marks, char* error, size_t error_size) {
  counted.fetch_add(1);
  if (page == 13) {
    std::strncpy(error, "damaged content stream", error_size);
    return MCPREAD_PDF_DAMAGED;
  }
  *marks = {};
  marks->glyphs = 10L * page;
  return MCPREAD_PDF_OK;
}

Api fake_api() {
  Api api{};
  api.page_marks = fake_marks;
  return api;
}

}  // namespace

TEST_CASE("pdf: marks counted ahead") {
  const Api api = fake_api();
  counted = 0;
  SUBCASE("every page's marks, in the selection's order") {
    const std::vector<int> pages = {7, 3, 13, 40, 1, 2, 5, 8, 9};
    MarksAhead marks(api, nullptr, pages);
    for (std::size_t i = 0; i < pages.size(); ++i) {
      const auto m = marks.get(i);
      if (pages[i] == 13) {
        CHECK_FALSE(m.has_value());
      } else {
        REQUIRE(m.has_value());
        CHECK(m->glyphs == 10L * pages[i]);
      }
    }
    CHECK(counted.load() == static_cast<int>(pages.size()));
    CHECK_FALSE(marks.get(pages.size()).has_value());
  }
  SUBCASE("one page is counted by get itself") {
    MarksAhead marks(api, nullptr, {4});
    CHECK(counted.load() == 0);
    CHECK(marks.get(0)->glyphs == 40);
    CHECK(counted.load() == 1);
  }
  SUBCASE("stopping after two pages of a hundred counts a few more, not all") {
    std::vector<int> pages;
    for (int k = 1; k <= 100; ++k) pages.push_back(k);
    {
      MarksAhead marks(api, nullptr, pages);
      CHECK(marks.get(0)->glyphs == 10);
      CHECK(marks.get(1)->glyphs == 20);
    }
    CHECK(counted.load() >= 2);
    CHECK(counted.load() <= 2 + 4);
  }
}

namespace {

// The plugin's handle on `bytes` (kept alive by the caller).
mcpread::readers::pdf::Document open_plugin(const Api* api, const std::string& bytes) {
  mcpread_pdf_doc* handle = nullptr;
  mcpread::readers::pdf::ErrorBuffer e;
  REQUIRE(api->open(bytes.data(), bytes.size(), "", &handle, e.text, sizeof e.text) == MCPREAD_PDF_OK);
  return {api, handle};
}

std::string plugin_text(const Api* api, mcpread_pdf_doc* doc, int page, const mcpread_pdf_marks* marks) {
  std::string out;
  mcpread::readers::pdf::ErrorBuffer e;
  REQUIRE(api->page_text(doc, page, marks, mcpread::readers::pdf::append_to_string, &out, e.text, sizeof e.text) ==
          MCPREAD_PDF_OK);
  return out;
}

}  // namespace

TEST_CASE("pdf: the plugin reads a page's text with the marks counted beforehand") {
  std::string why;
  const Api* api = mcpread::readers::pdf::api(&why);
  REQUIRE_MESSAGE(api != nullptr, why);
  mcpread::readers::pdf::ErrorBuffer e;
  SUBCASE("the count says how the page turns its text, and page_text goes by the caller's count") {
    mcpread::test::PdfPage mirrored;
    mirrored.content = "q -1 0 0 1 300 0 cm BT /F1 14 Tf 0 500 Td (Mirrored words) Tj ET Q\n";
    mcpread::test::PdfPage slanted;
    slanted.content = "BT /F1 14 Tf 0.866 0.5 -0.5 0.866 150 500 Tm (Slanted words) Tj ET\n";
    const std::string bytes = mcpread::test::make_pdf({mirrored, slanted, mcpread::test::PdfPage{.lines = {"Upright"}}});
    const auto doc = open_plugin(api, bytes);
    mcpread_pdf_marks marks[3]{};
    for (int k = 1; k <= 3; ++k)
      REQUIRE(api->page_marks(doc.get(), k, &marks[k - 1], e.text, sizeof e.text) == MCPREAD_PDF_OK);
    CHECK(marks[0].turned_text == 2);
    CHECK(marks[1].turned_text == 1);
    CHECK(marks[2].turned_text == 0);
    CHECK(plugin_text(api, doc.get(), 1, &marks[0]).find("Mirrored words") != std::string::npos);
    // Told the page turns nothing, the plugin keeps poppler's layout: the mirrored line backwards.
    const mcpread_pdf_marks none{};
    CHECK(plugin_text(api, doc.get(), 1, &none).find("sdrow") != std::string::npos);
  }
  SUBCASE("a page whose content decodes to more than 64 MiB is not counted, and says so") {
    // Tokenized whole, such a content would have held the server's memory many times over (a
    // page of numbers with no operator, inflated a thousandfold from a small file, took 23 GB).
    mcpread::test::PdfPage numbers;
    numbers.content = "BT /F1 12 Tf 72 720 Td (Numbers follow) Tj ET\n";
    numbers.content.reserve((std::size_t{65} << 20) + 64);
    while (numbers.content.size() < (std::size_t{65} << 20)) numbers.content += "0 1 2 3 4 5 6 7 ";
    const std::string bytes = mcpread::test::make_pdf({numbers, mcpread::test::PdfPage{.lines = {"Next page"}}});
    const auto doc = open_plugin(api, bytes);
    mcpread_pdf_marks marks{};
    CHECK(api->page_marks(doc.get(), 1, &marks, e.text, sizeof e.text) == MCPREAD_PDF_FAILED);
    CHECK(e.str() == "its content decodes to more than 64 MiB, so what it draws was not counted");
    REQUIRE(api->page_marks(doc.get(), 2, &marks, e.text, sizeof e.text) == MCPREAD_PDF_OK);
    CHECK(marks.glyphs == 8);
  }
  SUBCASE("pages counted on a worker while their text is read give the text of one thread") {
    // 70 pages: the count opens qpdf afresh twice on the way (every 32 pages).
    const std::string bytes = mcpread::test::text_pdf(70);
    const auto alone = open_plugin(api, bytes);
    const auto shared = open_plugin(api, bytes);
    std::vector<int> pages;
    for (int k = 70; k >= 1; --k) pages.push_back(k);
    MarksAhead ahead(*api, shared.get(), pages);
    for (std::size_t i = 0; i < pages.size(); ++i) {
      CAPTURE(pages[i]);
      const auto marks = ahead.get(i);
      REQUIRE(marks.has_value());
      CHECK(marks->glyphs > 20);
      const std::string text = plugin_text(api, shared.get(), pages[i], &*marks);
      CHECK(text == plugin_text(api, alone.get(), pages[i], nullptr));
      CHECK(text.find(mcpread::test::page_line(pages[i])) != std::string::npos);
    }
  }
}
