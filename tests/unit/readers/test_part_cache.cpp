// The inflated parts of recently read workbooks are kept for the next call on the same file:
// bounded, least recently used dropped first, never served for a file that changed, and all
// dropped by release_caches() (the server's idle-memory release).
#include "fixtures.hpp"
#include "package/part_cache.hpp"
#include "office_fixtures.hpp"
#include "reader_fixtures.hpp"
#include "sheets/reader.hpp"
#include "sheets/xlsx.hpp"
#include "slides_fixtures.hpp"

#include "mcpread/readers/caches.hpp"
#include "mcpread/readers/read.hpp"

#include <doctest/doctest.h>

#include <sys/stat.h>

#include <memory>
#include <string>
#include <variant>

using namespace mcpread::readers;
using namespace mcpread::test;
using package::PartCache;

namespace {

std::shared_ptr<const std::string> bytes_of(std::size_t n, char c) { return std::make_shared<const std::string>(n, c); }

std::string read_text(const TempDir& dir, std::optional<std::uint64_t> offset = {}) {
  ReadRequest request;
  request.file_path = "book.xlsx";
  request.offset = offset;
  const ReadOutcome o = read_file(roots_of(dir), request, ReadLimits{}, CancelToken{});
  REQUIRE_FALSE(o.blocks.empty());
  return std::get<TextBlock>(o.blocks.front()).text;
}

}  // namespace

TEST_CASE("part cache: bounded, least recently used first out, released whole") {
  PartCache& cache = PartCache::instance();
  release_caches();  // every cache (archives' too, from other tests), so that only these parts count
  SUBCASE("a part is found by its file and name only") {
    cache.put("f1", "xl/a.xml", bytes_of(10, 'a'));
    REQUIRE(cache.get("f1", "xl/a.xml") != nullptr);
    CHECK(*cache.get("f1", "xl/a.xml") == std::string(10, 'a'));
    CHECK(cache.get("f2", "xl/a.xml") == nullptr);
    CHECK(cache.get("f1", "xl/b.xml") == nullptr);
    CHECK(cache.bytes() == 10);
  }
  SUBCASE("parts over kMaxPart are not kept; past kMaxTotal the least recently used go") {
    cache.put("f", "big", bytes_of(PartCache::kMaxPart + 1, 'x'));
    CHECK(cache.get("f", "big") == nullptr);
    const std::size_t n = PartCache::kMaxTotal / PartCache::kMaxPart;
    for (std::size_t i = 0; i < n; ++i) cache.put("f", std::to_string(i), bytes_of(PartCache::kMaxPart, 'y'));
    CHECK(cache.get("f", "0") != nullptr);  // now the most recently used
    cache.put("f", "last", bytes_of(PartCache::kMaxPart, 'z'));
    CHECK(cache.get("f", "0") != nullptr);
    CHECK(cache.get("f", "1") == nullptr);
    CHECK(cache.get("f", "last") != nullptr);
    CHECK(cache.bytes() == PartCache::kMaxTotal);
  }
  SUBCASE("release_caches drops everything and says how much") {
    cache.put("f", "a", bytes_of(100, 'a'));
    cache.put("f", "b", bytes_of(50, 'b'));
    CHECK(release_caches() == 150);
    CHECK(cache.bytes() == 0);
    CHECK(cache.get("f", "a") == nullptr);
  }
  cache.release();
}

TEST_CASE("part cache: a workbook read again is served from it, a changed one is not") {
  PartCache::instance().release();
  TempDir dir;
  dir.write("book.xlsx", xlsx_bytes({{"S", "<row r=\"1\"><c r=\"A1\"><v>1</v></c></row><row r=\"2\"><c r=\"A2\"><v>2</v></c></row>"}}));
  const std::string first = read_text(dir);
  CHECK(first.find("| 2 | 2 |") != std::string::npos);
  CHECK(PartCache::instance().bytes() > 0);
  CHECK(read_text(dir) == first);
  CHECK(read_text(dir, 2).find("| 2 | 2 |") != std::string::npos);
  // Rewritten (another size, so another identity even within the clock's granularity).
  dir.write("book.xlsx", xlsx_bytes({{"S", "<row r=\"1\"><c r=\"A1\"><v>1</v></c></row><row r=\"2\"><c r=\"A2\"><v>345</v></c></row>"}}));
  CHECK(read_text(dir).find("| 2 | 345 |") != std::string::npos);
  release_caches();
  CHECK(PartCache::instance().bytes() == 0);
}

TEST_CASE("part cache: a workbook's shared strings, styles and sheet list are parsed once") {
  PartCache::instance().release();
  TempDir dir;
  const auto path = dir.write("book.xlsx", xlsx_bytes({{"S", "<row r=\"1\"><c r=\"A1\" t=\"s\"><v>0</v></c></row>"
                                                             "<row r=\"2\"><c r=\"A2\" t=\"s\"><v>1</v></c></row>"}},
                                                      {"alpha", "beta"}));
  CHECK(read_text(dir).find("| 2 | beta |") != std::string::npos);
  const OpenedFile file = mcpread::test::open_file(path);
  const std::string name = sheets::xlsx_cache_name(sheets::SheetOptions{}.max_shared_string_bytes);
  const auto parsed = PartCache::instance().get_value<void>(PartCache::key_of(file), name);
  REQUIRE(parsed != nullptr);
  CHECK(read_text(dir, 2).find("| 2 | beta |") != std::string::npos);
  CHECK(PartCache::instance().get_value<void>(PartCache::key_of(file), name) == parsed);  // served, not parsed again
  release_caches();
  CHECK(PartCache::instance().get_value<void>(PartCache::key_of(file), name) == nullptr);
}

TEST_CASE("part cache: a document read page by page is parsed once, a changed one again") {
  PartCache::instance().release();
  TempDir dir;
  const auto paragraphs = [](const std::string& word) {
    std::string body;
    for (int i = 1; i <= 3; ++i)
      body += "<w:p><w:r><w:t>" + word + " " + std::to_string(i) + "</w:t></w:r></w:p>";
    return body;
  };
  dir.write("d.docx", docx_bytes(paragraphs("first")));
  ReadRequest request;
  request.file_path = "d.docx";
  request.offset = 2;
  const ReadOutcome one = read_file(roots_of(dir), request, ReadLimits{}, CancelToken{});
  REQUIRE_FALSE(one.is_error);
  CHECK(std::get<TextBlock>(one.blocks.front()).text.find("first 2") != std::string::npos);
  CHECK(PartCache::instance().bytes() > 0);
  const std::size_t held = PartCache::instance().bytes();
  request.offset = 3;
  const ReadOutcome two = read_file(roots_of(dir), request, ReadLimits{}, CancelToken{});
  CHECK(std::get<TextBlock>(two.blocks.front()).text.find("first 3") != std::string::npos);
  CHECK(PartCache::instance().bytes() == held);  // served from the cache, nothing added
  dir.write("d.docx", docx_bytes(paragraphs("second, longer")));
  const ReadOutcome three = read_file(roots_of(dir), request, ReadLimits{}, CancelToken{});
  CHECK(std::get<TextBlock>(three.blocks.front()).text.find("second, longer 3") != std::string::npos);
  CHECK(release_caches() > held);  // both versions were held
}

TEST_CASE("part cache: a presentation read slide by slide is read once") {
  PartCache::instance().release();
  TempDir dir;
  const auto slide = [](const std::string& text) {
    return SlideSpec{.shapes = "<p:sp><p:nvSpPr><p:nvPr/></p:nvSpPr><p:txBody><a:p><a:r><a:t>" + text +
                               "</a:t></a:r></a:p></p:txBody></p:sp>"};
  };
  dir.write("s.pptx", pptx_bytes({slide("one"), slide("two")}));
  ReadRequest request;
  request.file_path = "s.pptx";
  request.pages = "1";
  CHECK(std::get<TextBlock>(read_file(roots_of(dir), request, ReadLimits{}, CancelToken{}).blocks.front()).text.find("one") !=
        std::string::npos);
  const std::size_t held = PartCache::instance().bytes();
  CHECK(held > 0);
  request.pages = "2";
  CHECK(std::get<TextBlock>(read_file(roots_of(dir), request, ReadLimits{}, CancelToken{}).blocks.front()).text.find("two") !=
        std::string::npos);
  CHECK(PartCache::instance().bytes() == held);
  release_caches();
}
