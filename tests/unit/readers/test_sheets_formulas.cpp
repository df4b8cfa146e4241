// Formulas with no stored result (workbooks from openpyxl and other writers that do not
// calculate): each shown as its formula in a code span, in A1 form, and counted in a note after
// the page's table; for XLSX (plain, shared and array formulas) and ODS.
#include "fixtures.hpp"
#include "office_fixtures.hpp"
#include "reader_fixtures.hpp"
#include "sheets/formula_text.hpp"
#include "sheets/sheet_table.hpp"
#include "tool_wording.hpp"

#include "mcpread/readers/read.hpp"

#include <doctest/doctest.h>

#include <string>
#include <variant>

using namespace mcpread::readers;
using namespace mcpread::test;

namespace {

ReadOutcome read_named(const TempDir& dir, const std::string& name, const std::string& bytes,
                       std::optional<std::uint64_t> offset = {}) {
  dir.write(name, bytes);
  ReadRequest request = tool_worded(ReadRequest{});
  request.file_path = name;
  request.offset = offset;
  return read_file(roots_of(dir), request, ReadLimits{}, CancelToken{});
}

// From the first sheet's table to the end.
std::string body_of(const ReadOutcome& o) {
  REQUIRE_FALSE(o.blocks.empty());
  const std::string t = std::get<TextBlock>(o.blocks.front()).text;
  const auto start = t.find("| Row |");
  REQUIRE(start != std::string::npos);
  return t.substr(start);
}

const std::string kFourCells =
    "Formulas with no stored result: 4 cells in rows 1-2 show their formula in backticks instead of a value. The file "
    "holds no value for them (the program that wrote it did not calculate formulas); opening the file in a spreadsheet "
    "program would calculate them.";

}  // namespace

TEST_CASE("sheets formulas: a shared formula's references moved to the follower's cell") {
  using sheets::translate_formula;
  CHECK(translate_formula("A1*$B$1+SUM(A$1:A1)", 1, 0) == "A2*$B$1+SUM(A$1:A2)");
  // Functions, sheet and table names, strings, quoted names and numbers that look like references.
  CHECK(translate_formula("SUM(B:B)+LOG10(A1)+'Q1 A1'!C3+\"A1\"+Sheet2!A1+1E5+Table1[A1]", 2, 1) ==
        "SUM(C:C)+LOG10(B3)+'Q1 A1'!D5+\"A1\"+Sheet2!B3+1E5+Table1[A1]");
  CHECK(translate_formula("SUM(2:3)+SUM($2:3)+SUM($A:B)", 2, 1) == "SUM(4:5)+SUM($2:5)+SUM($A:C)");
  CHECK(translate_formula("A1+XFD1", 0, 1) == "B1+#REF!");
  CHECK(translate_formula("SUM(A1:B3)", -1, 0) == "SUM(#REF!:B2)");
}

TEST_CASE("sheets formulas: an ODS formula in A1 form") {
  using sheets::a1_formula;
  CHECK(a1_formula("of:=SUM([.C2:.C3])") == "=SUM(C2:C3)");
  CHECK(a1_formula("of:=[Sheet2.A1]+[$Sheet2.$A$1]") == "=Sheet2!A1+Sheet2!$A$1");
  CHECK(a1_formula("of:=SUM([Sheet1.A1:Sheet1.B2];[.A:.A])") == "=SUM(Sheet1!A1:B2,A:A)");
  CHECK(a1_formula("of:=\"a;b\"&[$'My Sheet'.B2]&SUM({1;2|3;4})") == "=\"a;b\"&'My Sheet'!B2&SUM({1,2;3,4})");
  CHECK(a1_formula("oooc:=[.A1]*2") == "=A1*2");
  CHECK(a1_formula("msoxl:=SUM(A1:A2)") == "=SUM(A1:A2)");
  CHECK(a1_formula("of:=") == "");
  CHECK(a1_formula("") == "");
}

TEST_CASE("sheets formulas: the cell text is a code span, fenced past backticks, cut within the cell limit") {
  using sheets::formula_cell_text;
  CHECK(formula_cell_text("=SUM(A1)") == "`=SUM(A1)`");
  CHECK(formula_cell_text("=\"a`b\"") == "`` =\"a`b\" ``");
  CHECK(formula_cell_text("=A1+\r\nB1+\nC1") == "`=A1+ B1+ C1`");
  CHECK(formula_cell_text("") == "");
  const std::string long_one = formula_cell_text("=" + std::string(5000, 'A'));
  CHECK(long_one.size() <= kMaxCellBytes);
  CHECK(long_one.starts_with("`=AAA"));
  CHECK(long_one.ends_with("AAA`\u2026 [985 more characters]"));
}

TEST_CASE("sheets formulas: XLSX formulas with no stored result") {
  TempDir dir;
  SUBCASE("no <v>, an empty <v>: the formula; a stored 0 or empty string stays; pipes escaped") {
    const std::string rows =
        "<row r=\"1\"><c r=\"A1\" t=\"inlineStr\"><is><t>Total</t></is></c><c r=\"B1\"><v>2</v></c><c r=\"C1\"><v>3</v></c>"
        "</row><row r=\"2\"><c r=\"A2\"><f>SUM(B1:C1)</f></c><c r=\"B2\"><f>B1*2</f><v></v></c><c r=\"C2\"><f>C1*2</f><v/></c>"
        "<c r=\"D2\"><f>B1+C1</f><v>0</v></c><c r=\"E2\" t=\"str\"><f>IF(B1&gt;5,\"big\",\"\")</f><v></v></c>"
        "<c r=\"F2\" t=\"str\"><f>\"a|b\"</f></c></row>";
    CHECK(body_of(read_named(dir, "book.xlsx", xlsx_bytes({{"S", rows}}))) ==
          "| Row | A | B | C | D | E | F |\n| ---: | --- | --- | --- | --- | --- | --- |\n| 1 | Total | 2 | 3 |  |  |  |\n"
          "| 2 | `=SUM(B1:C1)` | `=B1*2` | `=C1*2` | 0 |  | `=\"a\\|b\"` |\n\n" + kFourCells +
          "\n\n[Rows 1-2 of sheet 1. End of sheet.]");
  }
  SUBCASE("a text that starts with \"=\" is text: no backticks, not counted") {
    CHECK(body_of(read_named(dir, "book.xlsx", xlsx_bytes({{"S", "<row r=\"1\"><c r=\"A1\" t=\"inlineStr\"><is><t>=1+1</t></is></c>"
                                                                 "</row>"}}))) ==
          "| Row | A |\n| ---: | --- |\n| 1 | =1+1 |\n\n[Rows 1-1 of sheet 1. End of sheet.]");
  }
  const std::string shared =
      "<row r=\"1\"><c r=\"A1\"><v>1</v></c><c r=\"B1\"><v>10</v></c>"
      "<c r=\"C1\"><f t=\"shared\" ref=\"C1:C3\" si=\"0\">A1*$B$1+SUM(A$1:A1)</f></c></row>"
      "<row r=\"2\"><c r=\"A2\"><v>2</v></c><c r=\"C2\"><f t=\"shared\" si=\"0\"/></c></row>"
      "<row r=\"3\"><c r=\"A3\"><v>3</v></c><c r=\"C3\"><f t=\"shared\" si=\"0\"/><v>99</v></c>"
      "<c r=\"D3\"><f t=\"array\" ref=\"D3:D4\">SUM(A1:A3*A1:A3)</f></c></row>";
  SUBCASE("a shared formula's follower shows the master's moved to it; an array formula in braces") {
    CHECK(body_of(read_named(dir, "book.xlsx", xlsx_bytes({{"S", shared}}))) ==
          "| Row | A | B | C | D |\n| ---: | --- | --- | --- | --- |\n| 1 | 1 | 10 | `=A1*$B$1+SUM(A$1:A1)` |  |\n"
          "| 2 | 2 |  | `=A2*$B$1+SUM(A$1:A2)` |  |\n| 3 | 3 |  | 99 | `{=SUM(A1:A3*A1:A3)}` |\n\n"
          "Formulas with no stored result: 3 cells in rows 1-3 show their formula in backticks instead of a value. The "
          "file holds no value for them (the program that wrote it did not calculate formulas); opening the file in a "
          "spreadsheet program would calculate them.\n\n[Rows 1-3 of sheet 1. End of sheet.]");
  }
  SUBCASE("a follower whose master lies before the page says so; the count is the page's") {
    CHECK(body_of(read_named(dir, "book.xlsx", xlsx_bytes({{"S", shared}}), 2)) ==
          "| Row | A | B | C | D |\n| ---: | --- | --- | --- | --- |\n"
          "| 2 | 2 |  | `(shared formula written in an earlier row)` |  |\n| 3 | 3 |  | 99 | `{=SUM(A1:A3*A1:A3)}` |\n\n"
          "Formulas with no stored result: 2 cells in rows 2-3 show their formula in backticks instead of a value. The "
          "file holds no value for them (the program that wrote it did not calculate formulas); opening the file in a "
          "spreadsheet program would calculate them.\n\n[Rows 2-3 of sheet 1. End of sheet.]");
  }
  SUBCASE("a row holding only a formula is a row with a value, skipped or not") {
    const std::string book = xlsx_bytes({{"S", "<row r=\"1\"><c r=\"A1\"><v>1</v></c></row><row r=\"4\"><c r=\"B4\"><f>A1</f></c></row>"}});
    CHECK(body_of(read_named(dir, "book.xlsx", book, 4)) ==
          "| Row | B |\n| ---: | --- |\n| 4 | `=A1` |\n\nFormulas with no stored result: 1 cell in rows 4-4 shows its formula "
          "in backticks instead of a value. The file holds no value for it (the program that wrote it did not calculate "
          "formulas); opening the file in a spreadsheet program would calculate it.\n\n[Rows 4-4 of sheet 1. End of sheet.]");
    const auto after = read_named(dir, "book.xlsx", book, 5);
    CHECK(std::get<TextBlock>(after.blocks.front()).text.ends_with(
        "[No rows with values from row 5 on: the last row with values is 4.]"));
  }
}

TEST_CASE("sheets formulas: ODS formulas with no value shown in A1 form") {
  TempDir dir;
  const std::string table =
      "<table:table table:name=\"T\"><table:table-row>"
      "<table:table-cell office:value-type=\"float\" office:value=\"2\"><text:p>2</text:p></table:table-cell>"
      "<table:table-cell office:value-type=\"float\" office:value=\"3\"><text:p>3</text:p></table:table-cell>"
      "<table:table-cell table:formula=\"of:=SUM([.A1:.B1])\"/>"
      "<table:table-cell table:formula=\"of:=IF([$Sheet2.$A$1]&gt;0;&quot;x|y&quot;;['My Sheet'.B2])\"><text:p/></table:table-cell>"
      "<table:table-cell table:formula=\"of:=[.A1]*2\" office:value-type=\"float\" office:value=\"4\"><text:p>4</text:p>"
      "</table:table-cell></table:table-row>"
      "<table:table-row><table:table-cell table:formula=\"of:=[.A1]\" table:number-columns-repeated=\"2\"/></table:table-row>"
      "</table:table>";
  CHECK(body_of(read_named(dir, "book.ods", ods_bytes(table))) ==
        "| Row | A | B | C | D | E |\n| ---: | --- | --- | --- | --- | --- |\n"
        "| 1 | 2 | 3 | `=SUM(A1:B1)` | `=IF(Sheet2!$A$1>0,\"x\\|y\",'My Sheet'!B2)` | 4 |\n| 2 | `=A1` | `=A1` |  |  |  |\n\n" +
            kFourCells + "\n\n[Rows 1-2 of sheet 1. End of sheet.]");
  // Row 2 holds only formulas: a row with values when skipped before a page too.
  const auto after = read_named(dir, "book.ods", ods_bytes(table), 3);
  CHECK(std::get<TextBlock>(after.blocks.front()).text.ends_with(
      "[No rows with values from row 3 on: the last row with values is 2.]"));
}
