#pragma once
// The results an .xls workbook stores for its formulas, which libfreexl 1.0 skips: read from the
// BIFF8 (or BIFF5) workbook stream's FORMULA records (and the STRING record after a text result),
// each shown as its cell shows it (a date-formatted result as a date, errors as #DIV/0! and the
// like, booleans as TRUE and FALSE). Internal to the readers library.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>

namespace mcpread::readers::sheets {

// Per sheet name, each formula cell's shown result by (row, column), both 0-based.
using FormulaResults = std::map<std::string, std::map<std::pair<std::uint32_t, std::uint16_t>, std::string>>;

inline constexpr std::size_t kMaxFormulaResults = 4u << 20;  // results kept at most, all sheets

// The results in `stream` (the "Workbook" or "Book" stream); an empty map when it holds none or
// is not a BIFF5/8 workbook stream.
FormulaResults read_formula_results(std::string_view stream);

}  // namespace mcpread::readers::sheets
