// PDFs kept open between calls: the same answers as a fresh open, a changed file opened afresh,
// bounds, the idle release, and calls on one document at the same time.
#include "pdf_test_util.hpp"

#include "mcpread/readers/caches.hpp"
#include "pdf/pdf_open.hpp"

#include <chrono>
#include <filesystem>
#include <thread>
#include <vector>

using namespace mcpread::readers;
using namespace mcpread::test;
using namespace mcpread::test::pdf_util;

namespace {

pdf::OpenPdfCache& cache() { return pdf::OpenPdfCache::instance(); }

PdfOptions pages(std::string selection) {
  PdfOptions o;
  o.pages = std::move(selection);
  return o;
}

}  // namespace

TEST_CASE("pdf open cache: a document is opened once and kept") {
  release_caches();
  TempDir dir;
  dir.write("a.pdf", text_pdf(5, "Kept"));
  const auto first = read(dir, "a.pdf", pages("2"));
  CHECK(cache().documents() == 1);
  const auto again = read(dir, "a.pdf", pages("2"));
  CHECK(cache().documents() == 1);
  CHECK(text(again) == text(first));
  CHECK(blob(again).pages == 1);
  CHECK(text(read(dir, "a.pdf", pages("5"))).ends_with(page_line(5)));
  SUBCASE("a file rewritten is opened afresh, never answered from the old document") {
    const auto before = std::filesystem::last_write_time(dir.path() / "a.pdf");
    dir.write("a.pdf", text_pdf(7, "Rewritten"));
    std::filesystem::last_write_time(dir.path() / "a.pdf", before + std::chrono::seconds(1));
    const auto o = read(dir, "a.pdf", pages("7"));
    REQUIRE_FALSE(o.is_error);
    CHECK(o.meta["pages"] == 7);
    CHECK(o.meta["title"] == "Rewritten");
    CHECK(text(o).ends_with(page_line(7)));
  }
  SUBCASE("the idle release drops every document") {
    CHECK(release_caches() > 0);
    CHECK(cache().documents() == 0);
    CHECK(text(read(dir, "a.pdf", pages("2"))) == text(first));
  }
  SUBCASE("at most a few documents are kept, the last used first") {
    for (int i = 0; i < 6; ++i) {
      const std::string name = "d" + std::to_string(i) + ".pdf";
      dir.write(name, text_pdf(2 + i));
      CHECK_FALSE(read(dir, name).is_error);
    }
    CHECK(cache().documents() == pdf::OpenPdfCache::kMaxDocuments);
  }
  SUBCASE("a refused file is not kept") {
    release_caches();
    dir.write("cut.pdf", text_pdf(3).substr(0, 200));
    CHECK(read(dir, "cut.pdf").is_error);
    CHECK(cache().documents() == 0);
  }
  release_caches();
}

TEST_CASE("pdf open cache: calls on one document at the same time get their own pages") {
  release_caches();
  TempDir dir;
  dir.write("shared.pdf", text_pdf(8));
  std::vector<std::string> answers(8);
  std::vector<std::thread> threads;
  for (int k = 1; k <= 8; ++k)
    threads.emplace_back([&, k] {
      const auto o = read(dir, "shared.pdf", pages(std::to_string(k)));
      answers[static_cast<std::size_t>(k - 1)] = o.blocks.empty() ? "" : std::get<TextBlock>(o.blocks[0]).text;
    });
  for (auto& t : threads) t.join();
  for (int k = 1; k <= 8; ++k) CHECK(answers[static_cast<std::size_t>(k - 1)].ends_with(page_line(k)));
  CHECK(cache().documents() == 1);
  release_caches();
}
