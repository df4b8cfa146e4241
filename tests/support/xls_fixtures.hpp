#pragma once
// Excel 97-2003 workbooks built in the tests: BIFF8 records (the few libfreexl reads for cells,
// sheets and formats) in the smallest OLE2 compound file that holds them.
#include <cstdint>
#include <string>
#include <vector>

namespace mcpread::test {

struct XlsCell {
  std::uint16_t row = 0;     // 0-based
  std::uint16_t column = 0;  // 0-based
  std::string text = {};     // a string cell when `is_number` is false (Latin-1 characters only)
  double number = 0;
  bool is_number = false;
  std::uint16_t format = 0;  // the XF of a number: 0 General, 1 date, 2 date-time, 3 time
  // A FORMULA record storing this result instead: `number` (with `format`), `text` (then a
  // STRING record), a boolean or an error code.
  enum class Formula { none, number, text, boolean, error } formula = Formula::none;
  std::uint8_t code = 0;  // the boolean (0, 1) or the error code (0x07: #DIV/0!)
};
inline XlsCell xls_text(std::uint16_t row, std::uint16_t column, std::string text) {
  return {row, column, std::move(text), 0, false, 0};
}
inline XlsCell xls_number(std::uint16_t row, std::uint16_t column, double number, std::uint16_t format = 0) {
  return {row, column, {}, number, true, format};
}
inline XlsCell xls_formula(XlsCell result, XlsCell::Formula kind, std::uint8_t code = 0) {
  result.formula = kind;
  result.code = code;
  return result;
}

struct XlsSheet {
  std::string name;
  std::vector<XlsCell> cells;
  std::uint32_t declared_rows = 0;     // the DIMENSIONS record's; 0: the cells' extent
  std::uint16_t declared_columns = 0;  // likewise
};

struct XlsOptions {
  bool encrypted = false;  // a FILEPASS record, as a password-protected workbook has
  bool date1904 = false;
  std::string stream = "Workbook";  // the compound file's stream ("WordDocument": not a workbook)
};

// The BIFF8 stream of a workbook of `sheets`.
std::string biff8_stream(const std::vector<XlsSheet>& sheets, const XlsOptions& options = {});
// `stream` as the one stream `name` of an OLE2 compound file (512-byte sectors, at most 63 KiB).
std::string compound_file(const std::string& stream, const std::string& name);
// Both: an .xls file's bytes.
std::string xls_bytes(const std::vector<XlsSheet>& sheets, const XlsOptions& options = {});

}  // namespace mcpread::test
