// Excel workbooks through read_file: each sheet a Markdown table of what its cells show (shared
// and inline strings, formula results, booleans, errors, numbers and dates in their formats),
// merged and hidden sheets named, `pages` picking sheets and `offset`/`limit` paging rows.
#include "fixtures.hpp"
#include "office_fixtures.hpp"
#include "reader_fixtures.hpp"
#include "tool_wording.hpp"

#include "mcpread/readers/read.hpp"

#include <doctest/doctest.h>

#include <span>
#include <string>
#include <variant>

using namespace mcpread::readers;
using namespace mcpread::test;

namespace {

ReadOutcome read_book(const TempDir& dir, const std::string& bytes, std::string pages = {},
                      std::optional<std::uint64_t> offset = {}, std::optional<std::uint64_t> limit = {},
                      ReadLimits limits = {}) {
  dir.write("book.xlsx", bytes);
  ReadRequest request = tool_worded(ReadRequest{});  // worded as the server words hints
  request.file_path = "book.xlsx";
  request.pages = std::move(pages);
  request.offset = offset;
  request.limit = limit;
  return read_file(roots_of(dir), request, limits, CancelToken{});
}

std::string path_in(const TempDir& dir) { return (dir.path() / "book.xlsx").string(); }

std::string text_of(const ReadOutcome& o) {
  REQUIRE_FALSE(o.blocks.empty());
  return std::get<TextBlock>(o.blocks.front()).text;
}

// The table of the first sheet shown: the lines from its header row to its last row.
std::string table_of(const ReadOutcome& o) {
  const std::string t = text_of(o);
  const auto start = t.find("| Row |");
  REQUIRE(start != std::string::npos);
  const auto end = t.find("\n\n", start);
  return t.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

std::string c(const std::string& ref, const std::string& v, const std::string& attrs = {}) {
  return "<c r=\"" + ref + "\"" + attrs + "><v>" + v + "</v></c>";
}

const std::string kStyles =
    "<numFmts count=\"3\"><numFmt numFmtId=\"164\" formatCode=\"yyyy\\-mm\\-dd hh:mm\"/>"
    "<numFmt numFmtId=\"165\" formatCode=\"#,##0.000 &quot;EUR&quot;\"/><numFmt numFmtId=\"166\" formatCode=\"0.0%\"/></numFmts>"
    "<cellXfs count=\"12\"><xf numFmtId=\"0\"/><xf numFmtId=\"14\"/><xf numFmtId=\"4\"/><xf numFmtId=\"10\"/>"
    "<xf numFmtId=\"164\"/><xf numFmtId=\"165\"/><xf numFmtId=\"166\"/><xf numFmtId=\"21\"/><xf numFmtId=\"11\"/>"
    "<xf numFmtId=\"3\"/><xf numFmtId=\"46\"/><xf numFmtId=\"18\"/></cellXfs>";

}  // namespace

TEST_CASE("xlsx: cells as they show") {
  TempDir dir;
  SUBCASE("shared and inline strings, formula results, booleans, errors") {
    const auto o = read_book(dir, xlsx_bytes({{"Data",
                                               "<row r=\"1\"><c r=\"A1\" t=\"s\"><v>0</v></c><c r=\"B1\" t=\"s\"><v>1</v></c></row>"
                                               "<row r=\"2\"><c r=\"A2\" t=\"inlineStr\"><is><t>in</t><r><t>line</t></r></is></c>"
                                               "<c r=\"B2\"><f>1+1</f><v>2</v></c></row>"
                                               "<row r=\"3\"><c r=\"A3\" t=\"b\"><v>1</v></c><c r=\"B3\" t=\"e\"><v>#DIV/0!</v></c>"
                                               "<c r=\"C3\" t=\"str\"><f>A1&amp;B1</f><v>NameAge</v></c></row>"}},
                                             {"Name", "Age"}));
    CHECK_FALSE(o.is_error);
    CHECK(text_of(o) ==
          "Excel workbook " + path_in(dir) + ": 1 sheet: 1 \"Data\".\n\n## Sheet 1: Data\n\n"
          "| Row | A | B | C |\n| ---: | --- | --- | --- |\n| 1 | Name | Age |  |\n| 2 | inline | 2 |  |\n"
          "| 3 | TRUE | #DIV/0! | NameAge |\n\n[Rows 1-3 of sheet 1. End of sheet.]");
    CHECK(o.meta["kind"] == "xlsx");
    CHECK(o.meta["sheets"] == 1);
  }
  SUBCASE("numbers and dates in their formats") {
    const auto o = read_book(dir, xlsx_bytes({{"N", "<row r=\"1\">" + c("A1", "0.30000000000000004") + c("B1", "45292", " s=\"1\"") +
                                                        c("C1", "1234567.891", " s=\"2\"") + c("D1", "0.1234", " s=\"3\"") +
                                                        c("E1", "45292.5", " s=\"4\"") + c("F1", "-1234.5", " s=\"5\"") +
                                                        c("G1", "0.25", " s=\"6\"") + c("H1", "0.75", " s=\"7\"") +
                                                        c("I1", "12345.678", " s=\"8\"") + c("J1", "-9876543", " s=\"9\"") +
                                                        c("K1", "1.5", " s=\"10\"") + c("L1", "0.5625", " s=\"11\"") +
                                                        "</row>"}},
                                             {}, kStyles));
    CHECK(table_of(o) ==
          "| Row | A | B | C | D | E | F | G | H | I | J | K | L |\n"
          "| ---: | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n"
          "| 1 | 0.3 | 2024-01-01 | 1,234,567.89 | 12.34% | 2024-01-01 12:00 | -1,234.500 EUR | 25.0% | 18:00:00 | "
          "1.23E+04 | -9,876,543 | 36:00:00 | 1:30 PM |");
  }
  SUBCASE("custom codes: sections, optional digits, padding, literals, names of days and months") {
    const std::string styles =
        "<numFmts><numFmt numFmtId=\"164\" formatCode=\"#,##0.00;[Red]\\(#,##0.00\\);&quot;zero&quot;\"/>"
        "<numFmt numFmtId=\"165\" formatCode=\"0.0#\"/><numFmt numFmtId=\"166\" formatCode=\"00000\"/>"
        "<numFmt numFmtId=\"167\" formatCode=\"dddd, mmmm d, yyyy\"/><numFmt numFmtId=\"168\" formatCode=\"[$\u20ac-407] #,##0\"/>"
        "<numFmt numFmtId=\"169\" formatCode=\"000-00-0000\"/><numFmt numFmtId=\"170\" formatCode=\"GENERAL\"/>"
        "<numFmt numFmtId=\"171\" formatCode=\"hh:mm:ss.00\"/></numFmts>"
        "<cellXfs><xf numFmtId=\"0\"/><xf numFmtId=\"164\"/><xf numFmtId=\"165\"/><xf numFmtId=\"166\"/>"
        "<xf numFmtId=\"167\"/><xf numFmtId=\"168\"/><xf numFmtId=\"169\"/><xf numFmtId=\"170\"/><xf numFmtId=\"171\"/>"
        "<xf numFmtId=\"14\"/></cellXfs>";
    const auto o = read_book(dir, xlsx_bytes({{"F", "<row r=\"1\">" + c("A1", "-1234.5", " s=\"1\"") + c("B1", "0", " s=\"1\"") +
                                                        c("C1", "1.5", " s=\"2\"") + c("D1", "1.257", " s=\"2\"") +
                                                        c("E1", "123", " s=\"3\"") + c("F1", "45292", " s=\"4\"") +
                                                        c("G1", "1234.5", " s=\"5\"") + c("H1", "123456789", " s=\"6\"") +
                                                        c("I1", "42", " s=\"7\"") + c("J1", "0.50001", " s=\"8\"") +
                                                        c("K1", "60", " s=\"9\"") + c("L1", "61", " s=\"9\"") + "</row>"}},
                                             {}, styles));
    CHECK(table_of(o) ==
          "| Row | A | B | C | D | E | F | G | H | I | J | K | L |\n"
          "| ---: | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n"
          "| 1 | (1,234.50) | zero | 1.5 | 1.26 | 00123 | Monday, January 1, 2024 | \u20ac 1,235 | 123456789 | 42 | "
          "12:00:00.86 | 1900-02-29 | 1900-03-01 |");
  }
  SUBCASE("1904 dates") {
    const auto o = read_book(dir, xlsx_bytes({{"D", "<row r=\"1\">" + c("A1", "0", " s=\"1\"") + "</row>"}}, {}, kStyles, true));
    CHECK(table_of(o) == "| Row | A |\n| ---: | --- |\n| 1 | 1904-01-01 |");
  }
  SUBCASE("pipes and line breaks escaped; gaps kept, empty columns at both ends left out") {
    const auto o = read_book(dir, xlsx_bytes({{"T", "<row r=\"2\"><c r=\"C2\" t=\"inlineStr\"><is><t>a|b\nc</t></is></c>" +
                                                        c("E2", "5") + "</row><row r=\"4\">" + c("D4", "7") + "</row>"}}));
    CHECK(table_of(o) == "| Row | C | D | E |\n| ---: | --- | --- | --- |\n| 2 | a\\|b<br>c |  | 5 |\n| 4 |  | 7 |  |");
  }
  SUBCASE("merged cells: the value in the first cell, the ranges named") {
    const auto o = read_book(dir, xlsx_bytes({{"M", "<row r=\"1\">" + c("A1", "1") + "<c r=\"B1\"/></row><row r=\"2\">" +
                                                        c("A2", "2") + c("B2", "3") + "</row>",
                                               {}, "<mergeCells count=\"1\"><mergeCell ref=\"A1:B1\"/></mergeCells>"}}));
    CHECK(text_of(o).ends_with("| 1 | 1 |  |\n| 2 | 2 | 3 |\n\nMerged cells (the value is in the first cell of each): A1:B1."
                               "\n\n[Rows 1-2 of sheet 1. End of sheet.]"));
  }
}

TEST_CASE("xlsx: sheets and rows") {
  TempDir dir;
  const std::string book = xlsx_bytes({{"One", "<row r=\"1\">" + c("A1", "1") + "</row>"},
                                       {"Two", "<row r=\"1\">" + c("A1", "2") + "</row><row r=\"2\">" + c("A2", "3") +
                                                   "</row><row r=\"5\">" + c("A5", "4") + "</row>"},
                                       {"Secret", "", "hidden"}});
  SUBCASE("every sheet, hidden ones named so") {
    const std::string t = text_of(read_book(dir, book));
    CHECK(t.starts_with("Excel workbook " + path_in(dir) + ": 3 sheets: 1 \"One\", 2 \"Two\", 3 \"Secret\" (hidden).\n\n## Sheet 1: One"));
    CHECK(t.ends_with("## Sheet 3: Secret (hidden)\n\n[The sheet has no values.]"));
  }
  SUBCASE("pages picks sheets by number or name") {
    CHECK(text_of(read_book(dir, book, "Two")).find("## Sheet 1") == std::string::npos);
    CHECK(text_of(read_book(dir, book, "two")).find("## Sheet 2: Two") != std::string::npos);
    const std::string t = text_of(read_book(dir, book, "3,1"));
    CHECK(t.find("## Sheet 3") < t.find("## Sheet 1"));
  }
  SUBCASE("numbers before names: \"1\" is the first sheet, even beside a sheet named 1") {
    const std::string named = xlsx_bytes({{"A", "<row r=\"1\">" + c("A1", "10") + "</row>"},
                                          {"1", "<row r=\"1\">" + c("A1", "20") + "</row>"},
                                          {"2019", "<row r=\"1\">" + c("A1", "30") + "</row>"}});
    CHECK(text_of(read_book(dir, named, "1")).find("## Sheet 1: A\n") != std::string::npos);
    CHECK(text_of(read_book(dir, named, "2019")).find("## Sheet 3: 2019\n") != std::string::npos);
    CHECK(text_of(read_book(dir, named, "A,3")).find("## Sheet 3: 2019\n") != std::string::npos);
  }
  SUBCASE("an unknown sheet names the sheets there are") {
    const auto o = read_book(dir, book, "Totals");
    CHECK(o.is_error);
    CHECK(text_of(o) == "pages=\"Totals\" names no sheet of " + path_in(dir) + ". Its sheets: 1 \"One\", 2 \"Two\", 3 \"Secret\" "
                        "(hidden). Give sheets by number (\"2\", \"1-3\") or by name.");
    CHECK(text_of(read_book(dir, book, "4")) ==
          "pages=\"4\" asks for sheets 4, but " + path_in(dir) + " has 3 sheets. Its sheets: 1 \"One\", 2 \"Two\", 3 \"Secret\" "
          "(hidden). Give sheets by number (\"2\", \"1-3\") or by name.");
  }
  SUBCASE("offset and limit page rows, with the way on") {
    const auto o = read_book(dir, book, "2", 2, 1);
    CHECK(text_of(o).ends_with("| Row | A |\n| ---: | --- |\n| 2 | 3 |\n\n"
                               "[Rows 2-2 of sheet 2. To read more, call read again with pages=\"2\" and offset=5.]"));
    CHECK(o.meta["next_offset"] == 5);
    CHECK(text_of(read_book(dir, book, "2", 9)).ends_with("[No rows with values from row 9 on: the last row with values is 5.]"));
  }
  SUBCASE("the cells a sheet declares are named, so paging knows how far it goes") {
    const auto o = read_book(dir, xlsx_bytes({{"Big", "<row r=\"1\">" + c("A1", "1") + "</row>", {}, {}, "A1:C250000"},
                                              {"Empty", "", {}, {}, "A1"}}));
    CHECK(text_of(o).find("## Sheet 1: Big (cells A1:C250000)\n\n| Row | A |") != std::string::npos);
    CHECK(text_of(o).find("## Sheet 2: Empty\n\n[The sheet has no values.]") != std::string::npos);
  }
  SUBCASE("the output cap stops a long sheet with the way on") {
    std::string rows;
    // A and Z: the 24 empty cells between count against the cap too.
    for (int r = 1; r <= 3000; ++r)
      rows += "<row r=\"" + std::to_string(r) + "\">" + c("A" + std::to_string(r), std::to_string(r * 7)) +
              c("Z" + std::to_string(r), "z") + "</row>";
    ReadLimits limits;
    limits.text.max_output_bytes = 4096;
    const auto o = read_book(dir, xlsx_bytes({{"Long", rows}}), {}, {}, {}, limits);
    const std::string t = text_of(o);
    CHECK(t.size() <= 4096);
    REQUIRE(o.meta.contains("next_offset"));
    const auto next = o.meta["next_offset"].get<std::uint64_t>();
    CHECK(t.ends_with("(the output cap of 4096 bytes is reached). To read more, call read again with pages=\"1\" and offset=" +
                      std::to_string(next) + ".]"));
    CHECK(o.meta["truncated"] == true);
    CHECK(t.find("| " + std::to_string(next - 1) + " | " + std::to_string((next - 1) * 7) + " |") != std::string::npos);
    CHECK(t.find("| " + std::to_string(next) + " |") == std::string::npos);
  }
}

TEST_CASE("xlsx: classification by the package's parts") {
  const auto bytes = [](const std::string& s) {
    return std::span(reinterpret_cast<const unsigned char*>(s.data()), s.size());
  };
  const std::string book = xlsx_bytes({{"S", ""}});
  CHECK(classify("a.xlsx", bytes(book), book.size()).kind == FileKind{"xlsx"});
  CHECK(classify("renamed.bin", bytes(book), book.size()).kind == FileKind{"xlsx"});
  const std::string ods = ods_bytes("<table:table table:name=\"T\"/>");
  CHECK(classify("renamed.bin", bytes(ods), ods.size()).kind == FileKind{"ods"});
  const std::string cfb = "\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1" + std::string(600, '\0');
  CHECK(classify("locked.xlsx", bytes(cfb), cfb.size()).kind == FileKind{"xlsx"});
  // A text file named .csv is a CSV file (the CSV reader claims the name; the content is text).
  CHECK(classify("data.csv", bytes(std::string("a,b\n1,2\n")), 8).kind == FileKind{"csv"});
}
