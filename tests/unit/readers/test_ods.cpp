// OpenDocument spreadsheets through read_file: each table a Markdown table of the text its cells
// display (typed values when a cell has no paragraph), repeated rows and columns expanded, spans
// named as merged cells, hidden tables named, `pages` and `offset`/`limit` as for XLSX.
#include "fixtures.hpp"
#include "office_fixtures.hpp"
#include "reader_fixtures.hpp"
#include "tool_wording.hpp"

#include "mcpread/readers/read.hpp"

#include <doctest/doctest.h>

#include <string>
#include <variant>

using namespace mcpread::readers;
using namespace mcpread::test;

namespace {

ReadOutcome read_sheet(const TempDir& dir, const std::string& bytes, std::string pages = {},
                       std::optional<std::uint64_t> offset = {}, std::optional<std::uint64_t> limit = {}) {
  dir.write("book.ods", bytes);
  ReadRequest request = tool_worded(ReadRequest{});  // worded as the server words hints
  request.file_path = "book.ods";
  request.pages = std::move(pages);
  request.offset = offset;
  request.limit = limit;
  return read_file(roots_of(dir), request, ReadLimits{}, CancelToken{});
}

std::string text_of(const ReadOutcome& o) {
  REQUIRE_FALSE(o.blocks.empty());
  return std::get<TextBlock>(o.blocks.front()).text;
}

std::string body_of(const ReadOutcome& o) {
  const std::string t = text_of(o);
  const auto start = t.find("\n\n## ");
  REQUIRE(start != std::string::npos);
  return t.substr(start + 2);
}

std::string cell(const std::string& attrs, const std::string& text) {
  return "<table:table-cell " + attrs + "><text:p>" + text + "</text:p></table:table-cell>";
}

}  // namespace

TEST_CASE("ods: cells as they display") {
  TempDir dir;
  SUBCASE("the displayed text of each type; typed values without a paragraph") {
    const auto o = read_sheet(
        dir, ods_bytes("<table:table table:name=\"Data\"><table:table-row>" +
                       cell("office:value-type=\"string\"", "Name") +
                       cell("office:value-type=\"float\" office:value=\"1234.5\"", "1,234.50") +
                       cell("office:value-type=\"percentage\" office:value=\"0.125\"", "12.5%") +
                       cell("office:value-type=\"date\" office:date-value=\"2024-01-31\"", "01/31/24") +
                       cell("office:value-type=\"currency\" office:currency=\"EUR\" office:value=\"-3\"", "-3.00 €") +
                       "<table:table-cell office:value-type=\"float\" office:value=\"42\"/>"
                       "<table:table-cell office:value-type=\"boolean\" office:boolean-value=\"true\"><text:p>TRUE</text:p>"
                       "</table:table-cell></table:table-row></table:table>"));
    CHECK_FALSE(o.is_error);
    CHECK(text_of(o).starts_with("OpenDocument spreadsheet " + (dir.path() / "book.ods").string() +
                                 ": 1 sheet: 1 \"Data\".\n\n"));
    CHECK(body_of(o) == "## Sheet 1: Data\n\n| Row | A | B | C | D | E | F | G |\n"
                        "| ---: | --- | --- | --- | --- | --- | --- | --- |\n"
                        "| 1 | Name | 1,234.50 | 12.5% | 01/31/24 | -3.00 € | 42 | TRUE |\n\n"
                        "[Rows 1-1 of sheet 1. End of sheet.]");
    CHECK(o.meta["kind"] == "ods");
  }
  SUBCASE("paragraphs, spaces, tabs and line breaks; annotations left out") {
    const auto o = read_sheet(
        dir, ods_bytes("<table:table table:name=\"T\"><table:table-row><table:table-cell office:value-type=\"string\">"
                       "<office:annotation><text:p>a note</text:p></office:annotation>"
                       "<text:p>a<text:s text:c=\"2\"/>b<text:tab/>c</text:p><text:p>x|y<text:line-break/>z</text:p>"
                       "</table:table-cell></table:table-row></table:table>"));
    CHECK(body_of(o) == "## Sheet 1: T\n\n| Row | A |\n| ---: | --- |\n| 1 | a  b c<br>x\\|y<br>z |\n\n"
                        "[Rows 1-1 of sheet 1. End of sheet.]");
  }
  SUBCASE("repeated rows and columns expanded, trailing empty ones skipped; spans named") {
    const auto o = read_sheet(
        dir, ods_bytes("<table:table table:name=\"R\"><table:table-row table:number-rows-repeated=\"2\">"
                       "<table:table-cell table:number-columns-repeated=\"2\"/>" +
                       cell("table:number-columns-repeated=\"2\" office:value-type=\"float\" office:value=\"7\"", "7") +
                       "<table:table-cell table:number-columns-repeated=\"16380\"/></table:table-row>"
                       "<table:table-row>" +
                       cell("table:number-columns-spanned=\"3\" table:number-rows-spanned=\"2\"", "wide") +
                       "<table:covered-table-cell table:number-columns-repeated=\"2\"/></table:table-row>"
                       "<table:table-row table:number-rows-repeated=\"1048573\"><table:table-cell table:number-columns-repeated=\"16384\"/>"
                       "</table:table-row></table:table>"));
    CHECK(body_of(o) == "## Sheet 1: R\n\n| Row | A | B | C | D |\n| ---: | --- | --- | --- | --- |\n"
                        "| 1 |  |  | 7 | 7 |\n| 2 |  |  | 7 | 7 |\n| 3 | wide |  |  |  |\n\n"
                        "Merged cells (the value is in the first cell of each): A3:C4.\n\n"
                        "[Rows 1-3 of sheet 1. End of sheet.]");
  }
}

TEST_CASE("ods: sheets and rows") {
  TempDir dir;
  const std::string styles =
      "<style:style style:name=\"ta1\" style:family=\"table\"><style:table-properties table:display=\"true\"/></style:style>"
      "<style:style style:name=\"ta2\" style:family=\"table\"><style:table-properties table:display=\"false\"/></style:style>";
  std::string rows;
  for (int r = 1; r <= 5; ++r) rows += "<table:table-row>" + cell("", "r" + std::to_string(r)) + "</table:table-row>";
  const std::string book = ods_bytes("<table:table table:name=\"One\" table:style-name=\"ta1\">" + rows +
                                         "</table:table><table:table table:name=\"Gone\" table:style-name=\"ta2\">"
                                         "<table:table-row>" + cell("", "secret") + "</table:table-row></table:table>",
                                     styles);
  SUBCASE("every table, hidden ones named so") {
    const std::string t = text_of(read_sheet(dir, book));
    CHECK(t.starts_with("OpenDocument spreadsheet " + (dir.path() / "book.ods").string() +
                        ": 2 sheets: 1 \"One\", 2 \"Gone\" (hidden).\n\n## Sheet 1: One"));
    CHECK(t.ends_with("## Sheet 2: Gone (hidden)\n\n| Row | A |\n| ---: | --- |\n| 1 | secret |\n\n"
                      "[Rows 1-1 of sheet 2. End of sheet.]"));
  }
  SUBCASE("pages by name, offset and limit") {
    const auto o = read_sheet(dir, book, "One", 2, 2);
    CHECK(body_of(o) == "## Sheet 1: One\n\n| Row | A |\n| ---: | --- |\n| 2 | r2 |\n| 3 | r3 |\n\n"
                        "[Rows 2-3 of sheet 1. To read more, call read again with pages=\"1\" and offset=4.]");
    CHECK(o.meta["next_offset"] == 4);
  }
  SUBCASE("an offset past repeated rows; past the last row with values") {
    const std::string repeated = ods_bytes(
        "<table:table table:name=\"R\"><table:table-row table:number-rows-repeated=\"3\">" + cell("", "x") +
        "</table:table-row><table:table-row>" + cell("", "y") + "</table:table-row><table:table-row>" + cell("", "z") +
        "</table:table-row><table:table-row table:number-rows-repeated=\"1000\"><table:table-cell/></table:table-row>"
        "</table:table>");
    CHECK(body_of(read_sheet(dir, repeated, {}, 3)) ==
          "## Sheet 1: R\n\n| Row | A |\n| ---: | --- |\n| 3 | x |\n| 4 | y |\n| 5 | z |\n\n"
          "[Rows 3-5 of sheet 1. End of sheet.]");
    CHECK(body_of(read_sheet(dir, repeated, {}, 5)).starts_with("## Sheet 1: R\n\n| Row | A |\n| ---: | --- |\n| 5 | z |\n"));
    CHECK(body_of(read_sheet(dir, repeated, {}, 9)) ==
          "## Sheet 1: R\n\n[No rows with values from row 9 on: the last row with values is 5.]");
  }
  SUBCASE("an unknown sheet names the sheets there are") {
    const auto o = read_sheet(dir, book, "Three");
    CHECK(o.is_error);
    CHECK(text_of(o) == "pages=\"Three\" names no sheet of " + (dir.path() / "book.ods").string() +
                            ". Its sheets: 1 \"One\", 2 \"Gone\" (hidden). Give sheets by number (\"2\", \"1-3\") or by name.");
  }
}
