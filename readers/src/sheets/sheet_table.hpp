#pragma once
// What the XLSX and ODS readers share: a workbook as a list of sheets whose rows are streamed,
// and one page of a sheet's rows as a Markdown table. Internal to the readers library.
#include "markdown_cell.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcpread::readers::sheets {

constexpr std::uint32_t kMaxColumns = 16384;     // A to XFD, as Excel and LibreOffice allow
constexpr std::uint64_t kMaxRows = 1ull << 20;   // 1,048,576 rows
constexpr std::size_t kMaxRowBytes = 2u << 20;   // text held for one row (16,384 columns of 1 MiB would not fit)

struct Cell {
  std::uint32_t column = 0;  // 0-based: A is 0
  std::string text;          // as the cell shows it
};

struct Row {
  std::uint64_t number = 0;  // 1-based, as the sheet numbers it
  std::vector<Cell> cells;   // ascending columns, only cells with a value
  std::size_t bytes = 0;     // text held in `cells`
  bool cut = false;          // cells left out: the row held more than kMaxRowBytes of text
  std::uint32_t formula_cells = 0;  // cells showing their formula: the file holds no result for it
};

// Adds `cell` to `row` unless the row's text would pass kMaxRowBytes (then the row is marked cut);
// `formula` when the cell shows its formula for want of a stored result (counted in the row).
void add_cell(Row& row, Cell cell, bool formula = false);

struct SheetInfo {
  std::string name;
  bool hidden = false;
  std::string part;                    // XLSX: its worksheet part
  std::optional<std::string> extent;   // XLSX: the range its <dimension> declares ("A1:C1000000"),
                                       // known once its rows were streamed
};

// Receives a sheet's rows in order; false stops the reading (no error).
using RowSink = std::function<bool(Row&&)>;

class Workbook {
 public:
  virtual ~Workbook() = default;
  const std::vector<SheetInfo>& sheets() const { return sheets_; }
  // Said once after the list of sheets, when the format's reading leaves something out.
  virtual std::string note() const { return {}; }
  // Streams the rows of sheet `index` that hold a value into `sink`; the merged ranges met
  // ("A1:B2") go to *merges. Rows before `first_row` are passed without their cells (their
  // values are not worth formatting: paging far into a sheet only needs to know they exist).
  // False with a sentence in *error when the sheet cannot be read.
  virtual bool rows(std::size_t index, std::uint64_t first_row, const RowSink& sink, std::vector<std::string>* merges,
                    std::string* error) = 0;

 protected:
  std::vector<SheetInfo> sheets_;
};

// A cell reference's column and row ("B12" -> 1, 12); false when it is none or out of range.
bool parse_reference(std::string_view ref, std::uint32_t* column, std::uint64_t* row);

// One page of a sheet: the rows from `offset` on, at most `limit` of them and `budget` bytes.
class Page {
 public:
  Page(std::uint64_t offset, std::optional<std::uint64_t> limit, std::size_t budget)
      : offset_(offset), limit_(limit), budget_(budget) {}
  // The sink's work: false once the page is full (next_row() is then the first row left out).
  bool add(Row&& row);
  const std::vector<Row>& rows() const { return rows_; }
  std::optional<std::uint64_t> next_row() const { return next_; }
  bool capped() const { return capped_; }  // stopped by the byte budget, not by `limit`
  std::uint64_t last_seen() const { return last_seen_; }
  // The rows as a Markdown table: a header of column letters, the sheet's row numbers first;
  // empty columns at both ends left out (and all empty columns of a very sparse sheet). Rows
  // whose table would pass the budget (the empty cells between values count too) are given
  // back: next_row() then names the first of them. Call once, before reading rows().
  std::string table();

 private:
  std::uint64_t offset_;
  std::optional<std::uint64_t> limit_;
  std::size_t budget_;
  std::vector<Row> rows_;
  std::optional<std::uint64_t> next_;
  bool capped_ = false;
  std::size_t bytes_ = 0;
  std::uint64_t last_seen_ = 0;
};

}  // namespace mcpread::readers::sheets
