#include "csv/csv_table.hpp"

#include "csv/dialect.hpp"
#include "markdown_cell.hpp"
#include "mcpread/readers/utf8.hpp"

#include <algorithm>

namespace mcpread::readers::csv {
namespace {

constexpr std::size_t kFooterReserve = 800;  // bytes of the cap kept for the lines around the table

std::string n2s(std::uint64_t v) { return std::to_string(v); }

// A row's bytes in the table before escaping: "\n| ", its number, " |", then " cell |" each.
std::size_t row_bytes(std::uint64_t number, const std::vector<std::string>& cells) {
  std::size_t bytes = 6 + n2s(number).size();
  for (const std::string& c : cells) bytes += std::min(c.size(), kMaxCellBytes) + 3;
  return bytes;
}

}  // namespace

Table::Table(const Dialect& dialect, std::size_t max_output_bytes)
    : dialect_(dialect), budget_(max_output_bytes > 2 * kFooterReserve ? max_output_bytes - kFooterReserve : kFooterReserve) {}

void Table::set_header(std::vector<std::string> names) {
  header_ = std::move(names);
  bytes_ += row_bytes(0, header_) + 6 * header_.size() + 8;  // and the line under it
}

bool Table::add(std::uint64_t number, std::vector<std::string> cells, std::uint64_t fields_left_out,
                std::uint64_t bytes_left_out) {
  const std::size_t bytes = row_bytes(number, cells);
  if (!rows_.empty() && bytes_ + bytes > budget_) {
    capped_ = true;
    return false;
  }
  bytes_ += bytes;
  rows_.push_back(Row{number, std::move(cells), fields_left_out > 0 || bytes_left_out > 0});
  return true;
}

std::string Table::table(std::size_t columns) {
  // A header wider than half the cap (thousands of columns) is cut: the first columns are shown.
  std::size_t header_bytes = 16;
  for (std::size_t c = 0; c < columns; ++c) {
    header_bytes += 9 + (c < header_.size() && !header_[c].empty() ? std::min(header_[c].size(), kMaxCellBytes)
                                                                      : column_name(static_cast<std::uint32_t>(c)).size());
    if (header_bytes > budget_ / 2) {
      columns_cut_ = columns;
      columns_shown_ = columns = c;
      break;
    }
  }
  std::string out = "| Row |";
  for (std::size_t c = 0; c < columns; ++c) {
    out += ' ';
    if (c < header_.size() && !header_[c].empty()) append_cell_text(out, header_[c]);
    else out += column_name(static_cast<std::uint32_t>(c));
    out += " |";
  }
  out += "\n| ---: |";
  for (std::size_t c = 0; c < columns; ++c) out += " --- |";
  // The estimate in add() counts cells before escaping: a row that makes the table pass the cap
  // goes back to the next call, with the rows after it; a first row wider than the cap is cut.
  for (std::size_t i = 0; i < rows_.size(); ++i) {
    const Row& r = rows_[i];
    const std::size_t before = out.size();
    out += "\n| " + n2s(r.number) + " |";
    for (std::size_t c = 0; c < columns; ++c) {
      if (i == 0 && out.size() > budget_) {
        out += " \u2026 |";
        break;
      }
      out += ' ';
      if (c < r.cells.size()) append_cell_text(out, r.cells[c]);
      out += " |";
    }
    if (i > 0 && out.size() > budget_) {
      out.resize(before);
      given_back_ = r.number;
      rows_.resize(i);
      break;
    }
  }
  return out;
}

ReadOutcome Table::answer(const std::string& path, const Paging& p, nlohmann::json meta) {
  const std::string separated = std::string(delimiter_name(dialect_.delimiter)) + "-separated";
  std::size_t columns = header_.size();
  for (const Row& r : rows_) columns = std::max(columns, r.cells.size());
  meta["columns"] = columns;
  if (p.total) meta["rows"] = *p.total;
  if (rows_.empty()) {
    if (p.total && *p.total > 0 && p.first > *p.total && !(dialect_.header && *p.total == 1))
      return ReadOutcome::error("Row " + n2s(p.first) + " is past the end of " + path + ": its last row is " +
                                    n2s(*p.total) + ". " + p.wording.say({.offset = dialect_.header ? 2u : 1u}, HintForm::Call) +
                                    " to read from the start.",
                                std::move(meta));
  }
  std::string out = "CSV file " + path + " (" + separated;
  if (p.charset.name != "UTF-8") out += ", " + describe_charset(p.charset);
  out += "): ";
  if (dialect_.header) out += "row 1 is the header, naming " + n2s(header_.size()) + (header_.size() == 1 ? " column" : " columns");
  else out += "no header row; columns are lettered";
  if (p.total) out += "; " + n2s(*p.total) + (*p.total == 1 ? " row" : " rows") + " in all";
  out += ". A row is a record: a quoted line break stays in its cell.";
  if (rows_.empty()) {
    out += p.total && *p.total == 0 ? "\n\n[The file has no rows.]" : "\n\n[The file has a header row and no rows under it.]";
    if (dialect_.header && !header_.empty()) out += "\n\n" + table(columns);
  } else {
    out += "\n\n" + table(columns);  // may give rows back: first, last and next after it
    const std::optional<std::uint64_t> next = given_back_ ? given_back_ : p.next;
    std::string cut;
    for (const Row& r : rows_)
      if (r.cut) cut += (cut.empty() ? "" : ", ") + n2s(r.number);
    if (columns_cut_ > 0)
      out += "\n\n[Columns " + n2s(columns_shown_ + 1) + "-" + n2s(columns_cut_) + " of " + n2s(columns_cut_) +
             " are not shown: the table's header alone would pass the output cap.]";
    if (!cut.empty())
      out += "\n\n[Cut rows (more fields or text than one answer holds; the rest left out): " + cut + ".]";
    const std::uint64_t first = rows_.front().number, last = rows_.back().number;
    meta["start_row"] = first;
    meta["end_row"] = last;
    std::string range = "[Rows " + n2s(first) + "-" + n2s(last) + (p.total ? " of " + n2s(*p.total) : "");
    if (next) {
      meta["next_offset"] = *next;
      out += "\n\n" + range + (capped_ || given_back_ ? " (the output cap is reached)" : "") + ". To read more, " +
             p.wording.say({.offset = *next}, HintForm::call_again) + ".]";
    } else {
      out += "\n\n" + range + ". End of file.]";
    }
  }
  if (p.replaced > 0)
    out += "\n\n" + replacement_note(p.replaced, p.charset.name,
                                     std::span(reinterpret_cast<const unsigned char*>(p.sample.data()), p.sample.size()),
                                     p.wording);
  meta["truncated"] = capped_ || given_back_.has_value();
  if (!utf8::is_valid(out)) out = utf8::sanitized(out);
  ReadOutcome o;
  o.blocks.emplace_back(TextBlock{std::move(out)});
  o.meta = std::move(meta);
  return o;
}

}  // namespace mcpread::readers::csv
