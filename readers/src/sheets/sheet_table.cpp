#include "sheets/sheet_table.hpp"

#include "mcpread/readers/utf8.hpp"

#include <algorithm>
#include <vector>

namespace mcpread::readers::sheets {

bool parse_reference(std::string_view ref, std::uint32_t* column, std::uint64_t* row) {
  std::size_t i = 0;
  std::uint64_t col = 0;
  if (i < ref.size() && ref[i] == '$') ++i;
  for (; i < ref.size() && ((ref[i] >= 'A' && ref[i] <= 'Z') || (ref[i] >= 'a' && ref[i] <= 'z')); ++i) {
    col = col * 26 + static_cast<std::uint64_t>((ref[i] | 0x20) - 'a' + 1);
    if (col > kMaxColumns) return false;  // "ZZZZZZ1", and absurd references
  }
  if (col == 0) return false;
  if (i < ref.size() && ref[i] == '$') ++i;
  std::uint64_t r = 0;
  const std::size_t digits = i;
  for (; i < ref.size() && ref[i] >= '0' && ref[i] <= '9'; ++i) {
    r = r * 10 + static_cast<std::uint64_t>(ref[i] - '0');
    if (r > kMaxRows) return false;
  }
  if (i != ref.size() || i == digits || r == 0) return false;
  *column = static_cast<std::uint32_t>(col - 1);
  *row = r;
  return true;
}

void add_cell(Row& row, Cell cell, bool formula) {
  if (row.bytes + cell.text.size() > kMaxRowBytes) {
    row.cut = true;
    return;
  }
  row.bytes += cell.text.size();
  if (formula) ++row.formula_cells;
  row.cells.push_back(std::move(cell));
}

bool Page::add(Row&& row) {
  // Rows ascend; one numbered again or out of order (only a hostile file writes that) is left
  // out, so that the way on always lies past the rows shown.
  if (row.number <= last_seen_) return true;
  last_seen_ = row.number;
  if (row.number < offset_) return true;
  if ((limit_ && rows_.size() >= std::max<std::uint64_t>(*limit_, 1)) || capped_) {
    next_ = row.number;
    return false;
  }
  std::size_t bytes = 12;
  for (const Cell& c : row.cells) bytes += c.text.size() + 3;
  if (!rows_.empty() && bytes_ + bytes > budget_) {
    capped_ = true;
    next_ = row.number;
    return false;
  }
  bytes_ += bytes;
  rows_.push_back(std::move(row));
  return true;
}

std::string Page::table() {
  // The columns with a value, marked (a set costs a node per cell of a page).
  std::vector<bool> used(kMaxColumns);
  std::size_t distinct = 0;
  std::uint32_t first = kMaxColumns, last = 0;
  for (const Row& r : rows_)
    for (const Cell& c : r.cells) {
      if (used[c.column]) continue;
      used[c.column] = true;
      ++distinct;
      first = std::min(first, c.column);
      last = std::max(last, c.column);
    }
  if (distinct == 0) return {};
  std::vector<std::uint32_t> columns;
  // Gaps are kept (a sheet's layout often has a blank column between blocks), unless the sheet
  // is so sparse that the table would be mostly empty cells: then only columns with values.
  const bool gaps = last - first + 1 <= 64 || last - first + 1 <= 2 * distinct;
  for (std::uint32_t c = first; c <= last; ++c)
    if (gaps || used[c]) columns.push_back(c);
  std::string out;
  out.reserve(std::min<std::size_t>(budget_, bytes_ + 4 * columns.size() * rows_.size()) + 4096);
  out += "| Row |";
  for (std::uint32_t c : columns) out += " " + column_name(c) + " |";
  out += "\n| ---: |";
  for (std::size_t i = 0; i < columns.size(); ++i) out += " --- |";
  std::string notes;
  for (std::size_t i = 0; i < rows_.size(); ++i) {
    const Row& r = rows_[i];
    const std::size_t before = out.size();
    out += "\n| ";
    out += std::to_string(r.number);
    out += " |";
    std::size_t k = 0;
    bool cut = r.cut;
    for (std::uint32_t c : columns) {
      // A first row this wide: its remaining cells are left out rather than the cap passed
      // (a later row goes back to the next call instead).
      if (i == 0 && out.size() > budget_) {
        out += " \u2026 |";
        cut = true;
        break;
      }
      while (k < r.cells.size() && r.cells[k].column < c) ++k;
      if (k < r.cells.size() && r.cells[k].column == c) {
        out += ' ';
        append_cell_text(out, r.cells[k].text);
        out += " |";
      } else {
        out += "  |";
      }
    }
    if (i > 0 && out.size() > budget_) {  // this row and the rest go back to the next call
      out.resize(before);
      next_ = r.number;
      capped_ = true;
      rows_.resize(i);
      break;
    }
    if (cut) notes += "\n[Row " + std::to_string(r.number) + " is cut: it holds more text than one answer shows.]";
  }
  if (!notes.empty()) out += "\n" + notes;
  return out;
}

}  // namespace mcpread::readers::sheets
