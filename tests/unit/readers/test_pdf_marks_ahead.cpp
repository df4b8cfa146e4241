// pdf::MarksAhead: each page's marks counted on a worker thread, handed out in the selection's
// order, whatever the pages' numbers; a failed count is nullopt; a reader that stops early (its
// byte budget spent) is not held up by the pages it will not show. The plugin is stood in for
// by a page_marks function that records what it counted.
#include <doctest/doctest.h>

#include "pdf/pdf_marks_ahead.hpp"

#include <atomic>
#include <cstring>
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
