#pragma once
// A formula shown in place of the value a file does not hold: workbooks written by programs that
// do not calculate (openpyxl, many generators) carry formulas without a stored result, and an
// empty cell there would hide that the sheet has a value in it at all. The formula is shown as a
// user sees it in a spreadsheet program's formula bar, in A1 form, inside a Markdown code span so
// that it cannot be taken for a cell whose text starts with "=". Internal to the readers library.
#include <cstdint>
#include <string>
#include <string_view>

namespace mcpread::readers::sheets {

// An XLSX shared formula as a follower cell holds it: the master's formula (without "=") with
// its relative references moved by `rows` and `columns` (as the spreadsheet program does, and
// openpyxl's Translator). Text in quotes and brackets is kept; a reference moved off the sheet
// becomes #REF!.
std::string translate_formula(std::string_view formula, std::int64_t rows, std::int64_t columns);

// An ODS table:formula ("of:=SUM([.C2:.C3];[$Sheet2.$A$1])") in A1 form
// ("=SUM(C2:C3,Sheet2!$A$1)"): the namespace prefix dropped, references out of their brackets,
// sheet names before "!", ';' between arguments as ','. Empty when `formula` holds none.
std::string a1_formula(std::string_view formula);

// The cell text for a formula ("=SUM(C2:C3)"): a code span ("`=SUM(C2:C3)`", a longer fence
// when the formula holds backticks), line breaks as spaces (a code span in a table cell shows
// no <br>), cut within the table's cell limit with the cut said after the span.
std::string formula_cell_text(std::string_view formula);

}  // namespace mcpread::readers::sheets
