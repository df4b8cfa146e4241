#pragma once
// What libfreexl made of an Excel 97-2003 workbook: its sheets, their declared sizes and every
// cell holding a value, as text. libfreexl runs in a child process (xls_freexl.hpp), so this is
// what crosses the pipe back: encode() in the child, decode() in the server, which trusts nothing
// in the bytes. Internal to the readers library.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mcpread::readers::sheets {

struct XlsCell {
  std::uint32_t row = 0;     // 0-based
  std::uint16_t column = 0;  // 0-based
  std::string text;          // as the cell shows it (may be empty: a value showing nothing)
};

struct XlsSheet {
  std::string name;
  std::uint32_t rows = 0;       // as the sheet declares them (0: not known)
  std::uint16_t columns = 0;
  bool selected = true;         // false: libfreexl could not select it or give its size
  std::vector<XlsCell> cells;   // ascending rows, then columns, within rows x columns
};

struct XlsBook {
  std::string error;  // a clause: why the workbook cannot be read ("it is password-protected ..."); empty when read
  std::vector<XlsSheet> sheets;
  // The cells' text ran past what is read of a workbook: the cells from this sheet's row on
  // (0-based) are left out, and every later sheet's.
  bool cut = false;
  std::uint32_t cut_sheet = 0;
  std::uint32_t cut_row = 0;

  std::size_t bytes() const;  // about what it holds in memory
};

// Where sheet `index`'s cells end: past its declared rows and columns (as far as they are read,
// kMaxRows x kMaxColumns) and past the cut, there are none.
std::uint64_t row_end(const XlsBook& book, std::size_t index);
std::uint32_t column_end(const XlsSheet& sheet);

std::string encode(const XlsBook& book);
// False when `message` is not what encode() makes (a child that wrote something else), or holds
// a cell outside its sheet's declared size (as far as it is read: kMaxRows x kMaxColumns) or past
// the cut: the server indexes by them.
bool decode(std::string_view message, XlsBook* book);

}  // namespace mcpread::readers::sheets
