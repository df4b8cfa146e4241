// Formulas with no stored result (workbooks from openpyxl and other writers that do not
// calculate): the text shown for them, in A1 form and as a code span.
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
  CHECK(long_one.size() <= sheets::kMaxCellBytes);
  CHECK(long_one.starts_with("`=AAA"));
  CHECK(long_one.ends_with("AAA`\u2026 [985 more characters]"));
}
