#include "sheets/xls_book.hpp"

#include "child_message.hpp"
#include "sheets/sheet_table.hpp"

#include <algorithm>

namespace mcpread::readers::sheets {

namespace {

using child_message::Cursor;
using child_message::put32;
using child_message::put_text;

constexpr std::string_view kMagic = "mcp-read xls book 1\n";

}  // namespace

std::size_t XlsBook::bytes() const {
  std::size_t total = sizeof(XlsBook) + error.size();
  for (const XlsSheet& s : sheets) {
    total += sizeof(XlsSheet) + s.name.size() + s.cells.size() * sizeof(XlsCell);
    for (const XlsCell& c : s.cells) total += c.text.size();
  }
  return total;
}

std::uint64_t row_end(const XlsBook& book, std::size_t index) {
  const std::uint64_t declared = std::min<std::uint64_t>(book.sheets[index].rows, kMaxRows);
  if (!book.cut || index < book.cut_sheet) return declared;
  return index == book.cut_sheet ? std::min<std::uint64_t>(declared, book.cut_row) : 0;
}

std::uint32_t column_end(const XlsSheet& sheet) { return std::min<std::uint32_t>(sheet.columns, kMaxColumns); }

std::string encode(const XlsBook& book) {
  std::string out(kMagic);
  put_text(out, book.error);
  put32(out, book.cut ? 1 : 0);
  put32(out, book.cut_sheet);
  put32(out, book.cut_row);
  put32(out, static_cast<std::uint32_t>(book.sheets.size()));
  for (const XlsSheet& s : book.sheets) {
    put_text(out, s.name);
    put32(out, s.rows);
    put32(out, s.columns);
    put32(out, s.selected ? 1 : 0);
    put32(out, static_cast<std::uint32_t>(s.cells.size()));
    for (const XlsCell& c : s.cells) {
      put32(out, c.row);
      put32(out, c.column);
      put_text(out, c.text);
    }
  }
  return out;
}

bool decode(std::string_view message, XlsBook* book) {
  if (!message.starts_with(kMagic)) return false;
  Cursor in(message.substr(kMagic.size()));
  XlsBook b;
  b.error = in.text();
  b.cut = in.u32() != 0;
  b.cut_sheet = in.u32();
  b.cut_row = in.u32();
  const std::uint32_t sheets = in.count(20);
  b.sheets.reserve(sheets);
  for (std::uint32_t i = 0; i < sheets && in.ok(); ++i) {
    XlsSheet s;
    s.name = in.text();
    s.rows = in.u32();
    const std::uint32_t columns = in.u32();
    if (columns > 0xFFFF) return false;
    s.columns = static_cast<std::uint16_t>(columns);
    s.selected = in.u32() != 0;
    b.sheets.push_back(std::move(s));  // its cells go in place: row_end() reads the book
    XlsSheet& sheet = b.sheets.back();
    const std::uint64_t rows = row_end(b, i);
    const std::uint32_t columns_read = column_end(sheet);
    const std::uint32_t cells = in.count(12);
    sheet.cells.reserve(cells);
    for (std::uint32_t k = 0; k < cells && in.ok(); ++k) {
      XlsCell c;
      c.row = in.u32();
      const std::uint32_t column = in.u32();
      if (column > 0xFFFF) return false;
      c.column = static_cast<std::uint16_t>(column);
      c.text = in.text();
      if (c.row >= rows || c.column >= columns_read) return false;
      // Ascending rows, then columns: the reader walks them in that order.
      if (!sheet.cells.empty() && (c.row < sheet.cells.back().row ||
                               (c.row == sheet.cells.back().row && c.column <= sheet.cells.back().column)))
        return false;
      sheet.cells.push_back(std::move(c));
    }
  }
  if (!in.done()) return false;
  *book = std::move(b);
  return true;
}

}  // namespace mcpread::readers::sheets
