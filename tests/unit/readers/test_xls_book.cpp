// The .xls reader's child process: libfreexl reads the workbook in a child, which sends its
// cells back (sheets/xls_book.hpp). What crosses the pipe is checked before it is used; a
// workbook past the cells' budget is cut at a row and says so; a workbook on which libfreexl
// reads out of bounds costs one read, never the process reading it.
#include "fixtures.hpp"
#include "package/part_cache.hpp"
#include "reader_fixtures.hpp"
#include "sheets/reader.hpp"
#include "sheets/xls_book.hpp"
#include "xls_fixtures.hpp"

#include "mcpread/readers/read.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <iterator>
#include <string>

using namespace mcpread::readers;
namespace sheets = mcpread::readers::sheets;
namespace test = mcpread::test;

namespace {

sheets::XlsBook sample_book() {
  sheets::XlsBook book;
  book.sheets.push_back({"People", 4, 3, true, {{0, 0, "Name"}, {0, 2, ""}, {3, 1, std::string("a\0b", 3)}}});
  book.sheets.push_back({"Empty", 0, 0, false, {}});
  book.cut = true;
  book.cut_sheet = 1;
  book.cut_row = 7;
  return book;
}

ReadOutcome read_bytes(const std::string& bytes, const sheets::SheetOptions& options = {}) {
  return sheets::read_spreadsheet_bytes(bytes, "/w/book.xls", sheets::Format::xls, options, CancelToken{});
}

}  // namespace

TEST_CASE("xls book: what the child sends back") {
  const sheets::XlsBook book = sample_book();
  const std::string message = encode(book);
  SUBCASE("decoded as it was encoded") {
    sheets::XlsBook back;
    REQUIRE(decode(message, &back));
    REQUIRE(back.sheets.size() == 2);
    CHECK(back.sheets[0].name == "People");
    CHECK(back.sheets[0].rows == 4);
    CHECK(back.sheets[0].columns == 3);
    REQUIRE(back.sheets[0].cells.size() == 3);
    CHECK(back.sheets[0].cells[2].row == 3);
    CHECK(back.sheets[0].cells[2].column == 1);
    CHECK(back.sheets[0].cells[2].text == std::string("a\0b", 3));
    CHECK(back.sheets[1].cells.empty());
    CHECK(back.sheets[0].selected);
    CHECK_FALSE(back.sheets[1].selected);
    CHECK(back.cut);
    CHECK(back.cut_sheet == 1);
    CHECK(back.cut_row == 7);
    CHECK(back.error.empty());
  }
  SUBCASE("an error alone") {
    sheets::XlsBook refused;
    refused.error = "it is password-protected";
    sheets::XlsBook back;
    REQUIRE(decode(encode(refused), &back));
    CHECK(back.error == "it is password-protected");
    CHECK(back.sheets.empty());
  }
  SUBCASE("anything else is refused, and leaves the book as it was") {
    sheets::XlsBook back;
    back.error = "untouched";
    CHECK_FALSE(decode("", &back));
    CHECK_FALSE(decode("not a book", &back));
    for (std::size_t cut = 0; cut < message.size(); ++cut) CHECK_FALSE(decode(message.substr(0, cut), &back));
    CHECK_FALSE(decode(message + "x", &back));
    sheets::XlsBook unordered = book;
    std::swap(unordered.sheets[0].cells[0], unordered.sheets[0].cells[1]);
    CHECK_FALSE(decode(encode(unordered), &back));
    sheets::XlsBook twice = book;
    twice.sheets[0].cells[1] = twice.sheets[0].cells[0];
    CHECK_FALSE(decode(encode(twice), &back));
    // Cells outside the sheet's declared size, or past the cut: the reader indexes by them.
    sheets::XlsBook wide = book;
    wide.sheets[0].cells.push_back({3, 3, "past the last column"});
    CHECK_FALSE(decode(encode(wide), &back));
    sheets::XlsBook deep = book;
    deep.sheets[0].cells.push_back({4, 0, "past the last row"});
    CHECK_FALSE(decode(encode(deep), &back));
    sheets::XlsBook past_cut = book;
    past_cut.sheets[1] = {"Empty", 100, 5, true, {{7, 0, "at the cut"}}};
    CHECK_FALSE(decode(encode(past_cut), &back));
    past_cut.sheets[1].cells[0].row = 6;  // before it
    sheets::XlsBook before_cut;
    CHECK(decode(encode(past_cut), &before_cut));
    CHECK(back.error == "untouched");
  }
}

#if !defined(_WIN32)  // Windows: libfreexl opens files by name, and a memory file has none
TEST_CASE("xls book: cells past the budget") {
  // Three rows of one 100-byte cell, each taking 112 bytes of the budget: 250 holds two.
  const std::string row(100, 'x');
  const std::string bytes = test::xls_bytes(
      {{"A", {test::xls_text(0, 0, row), test::xls_text(1, 0, row), test::xls_text(2, 0, row)}},
       {"B", {test::xls_text(0, 0, "later")}}});
  sheets::SheetOptions options;
  options.xls.max_cell_text_bytes = 250;
  const ReadOutcome o = read_bytes(bytes, options);
  REQUIRE_FALSE(o.is_error);
  const std::string text = test::first_text(o);
  CHECK(text.find("[Only the first 250 bytes of the workbook's cells are read: sheet \"A\" shows its rows before row "
                  "3, the sheets after it none. Saving the workbook as .xlsx (Excel, LibreOffice) makes all of it "
                  "readable, a page at a time.]") != std::string::npos);
  CHECK(text.find("| 2 | " + row + " |") != std::string::npos);
  CHECK(text.find("| 3 |") == std::string::npos);
  CHECK(text.find("later") == std::string::npos);
  CHECK(text.find("## Sheet 2: B") != std::string::npos);  // listed, without its cells
}
#endif

TEST_CASE("xls book: a workbook read is kept while the file is unchanged") {
  test::TempDir dir;
  dir.write("book.xls", test::xls_bytes({{"A", {test::xls_text(0, 0, "kept")}}}));
  ReadRequest request;
  request.file_path = "book.xls";
  package::PartCache::instance().release();
  const ReadOutcome first = read_file(test::roots_of(dir), request, ReadLimits{}, CancelToken{});
  REQUIRE_FALSE(first.is_error);
  const std::size_t kept = package::PartCache::instance().bytes();
  CHECK(kept > 0);
  const ReadOutcome again = read_file(test::roots_of(dir), request, ReadLimits{}, CancelToken{});
  CHECK(test::first_text(again) == test::first_text(first));
  CHECK(package::PartCache::instance().bytes() == kept);
}

#if !defined(_WIN32)
TEST_CASE("xls book: libfreexl reading out of bounds costs one read") {
  // A fuzzing finding: libfreexl 1.0.6 hands iconv a wild pointer opening it, which crashes as
  // the stack it reads happens to hold. Read many times, from new memory files (no cache), the
  // answer each time is a refusal or a read, and this process lives on.
  std::ifstream in(MCPREAD_SOURCE_DIR "/fuzz/regressions/fuzz_xls/freexl-wild-iconv-pointer", std::ios::binary);
  REQUIRE(in);
  const std::string input{std::istreambuf_iterator<char>(in), {}};
  REQUIRE(input.size() > 1);
  const std::string workbook = input.substr(1);  // the fuzz target's first byte: 0, a whole file
  for (int i = 0; i < 40; ++i) {
    const ReadOutcome o = read_bytes(workbook);
    CHECK(o.blocks.size() == 1);
    if (o.is_error) CHECK(test::first_text(o).starts_with("/w/book.xls cannot be read as an Excel 97-2003 workbook: "));
  }
}
#endif
