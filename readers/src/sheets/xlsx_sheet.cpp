#include "sheets/xlsx_sheet.hpp"

#include "sheets/formula_text.hpp"
#include "sheets/number_format.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>

namespace mcpread::readers::sheets {
namespace {

constexpr std::size_t kMaxCellText = 1 << 20;  // text gathered for one cell; shown cut anyway
constexpr std::size_t kMaxFormulaText = 1 << 16;  // of one <f> (Excel allows 8,192 characters)
constexpr std::size_t kMaxSharedFormulas = 4096;  // masters kept for their followers
constexpr std::size_t kMaxSharedBytes = 4u << 20;  // their text

// An integer as General writes it: no leading zero, sign or exponent, at most 15 digits.
bool plain_integer(std::string_view v) {
  const bool negative = !v.empty() && v.front() == '-';
  const std::string_view digits = v.substr(negative ? 1 : 0);
  if (digits.empty() || digits.size() > 15 || (digits.front() == '0' && (digits.size() > 1 || negative))) return false;
  return std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

void SheetReader::stop() {
  stopped_ = true;
  if (stream != nullptr) stream->stop();
}

bool SheetReader::skipped(std::uint64_t number, bool has_value) {
  row_.number = number;
  if (!has_value || sink_(Row{number, {}})) return true;
  stop();
  return false;
}

void SheetReader::start(std::string_view local, const XmlAttrs& a) {
  if (local == "row") {
    std::uint64_t r = 0;
    const std::string_view n = a.get("r");
    const auto got = std::from_chars(n.data(), n.data() + n.size(), r);
    row_.number = got.ec == std::errc() && r > 0 && r <= kMaxRows ? r : row_.number + 1;
    row_.cells.clear();
    row_.cells.reserve(std::min<std::size_t>(cells_before_, kMaxColumns));  // the row before went with its cells: as many again
    row_.bytes = 0;
    row_.cut = false;
    row_.formula_cells = 0;
    column_ = UINT32_MAX;
    in_row_ = true;
    skipping_ = row_.number < first_row_;
    skipped_value_ = false;
  } else if (skipping_) {
    skipped_value_ = skipped_value_ || local == "v" || local == "is" || local == "f";
  } else if (local == "c" && in_row_) {
    std::uint32_t col = 0;
    std::uint64_t r = 0;
    column_ = parse_reference(a.get("r"), &col, &r) ? col : column_ + 1;  // from UINT32_MAX: 0
    type_ = a.get("t");
    style_ = 0;
    const std::string_view s = a.get("s");
    std::from_chars(s.data(), s.data() + s.size(), style_);
    value_.clear();
    formula_.clear();
    formula_type_.clear();
    shared_index_ = UINT32_MAX;
    has_formula_ = has_v_ = false;
    in_cell_ = true;
  } else if (in_cell_ && local == "f") {
    has_formula_ = capture_formula_ = true;
    formula_type_ = a.get("t");
    const std::string_view si = a.get("si");
    std::from_chars(si.data(), si.data() + si.size(), shared_index_);
  } else if (in_cell_ && (local == "v" || (local == "t" && in_inline_ && !in_phonetic_))) {
    has_v_ = has_v_ || local == "v";
    capture_ = true;
  } else if (in_cell_ && local == "is") {
    in_inline_ = true;
  } else if (local == "rPh") {
    in_phonetic_ = true;
  } else if (local == "dimension" && !in_row_) {
    const std::string_view ref = a.get("ref");
    if (!ref.empty() && ref.size() < 40) *extent_ = std::string(ref);
  } else if (local == "mergeCell" && merges_ != nullptr && merges_->size() < 1000 && a.get("ref").size() < 40) {
    merges_->emplace_back(a.get("ref"));
  }
}

void SheetReader::end(std::string_view local) {
  if (local == "v" || local == "t") {
    capture_ = false;
  } else if (local == "f" && in_cell_) {  // not in a row skipped here: its cells are not read
    capture_formula_ = false;
    keep_shared_master();
  } else if (local == "is") {
    in_inline_ = false;
  } else if (local == "rPh") {
    in_phonetic_ = false;
  } else if (local == "c" && in_cell_) {
    in_cell_ = false;
    if (column_ >= kMaxColumns) return;  // a reference past XFD: no column shows it
    std::string shown = show();
    bool shows_formula = false;
    if (shown.empty() && has_formula_ && !stored_result()) {
      shown = formula_cell_text(formula());
      shows_formula = !shown.empty();
    }
    if (!shown.empty()) add_cell(row_, Cell{column_, std::move(shown)}, shows_formula);
  } else if (local == "row" && in_row_) {
    in_row_ = false;
    if (skipping_) {
      skipping_ = false;
      // Its number only (a row with a <v> may still show nothing: an empty string).
      if (skipped_value_ && !sink_(Row{row_.number, {}})) stop();
      return;
    }
    if (row_.cells.empty()) return;
    const auto by_column = [](const Cell& x, const Cell& y) { return x.column < y.column; };
    if (!std::is_sorted(row_.cells.begin(), row_.cells.end(), by_column))  // as writers write them
      std::sort(row_.cells.begin(), row_.cells.end(), by_column);
    cells_before_ = row_.cells.size();
    if (!sink_(std::move(row_))) stop();
    row_.cells.clear();
  }
}

void SheetReader::text(std::string_view chunk) {
  if (capture_ && value_.size() < kMaxCellText) value_ += chunk.substr(0, kMaxCellText - value_.size());
  if (capture_formula_ && formula_.size() < kMaxFormulaText) formula_ += chunk.substr(0, kMaxFormulaText - formula_.size());
}

// A <v> that is empty is a result only as a formula's empty string (t="str"): generators that do
// not calculate write <v></v> or <v/> for a number they did not work out.
bool SheetReader::stored_result() const {
  return has_v_ && (!value_.empty() || type_ == "str" || type_ == "inlineStr");
}

// The master of a shared formula (its text and cell) for the followers after it, which hold only
// its index. Kept only for followers read in this call: a master in a row before the page is
// not parsed (see row_skipper.hpp), and its followers then say so.
void SheetReader::keep_shared_master() {
  if (formula_type_ != "shared" || formula_.empty() || shared_index_ == UINT32_MAX) return;
  auto found = shared_.find(shared_index_);
  if (found == shared_.end()) {
    if (shared_.size() >= kMaxSharedFormulas || shared_bytes_ + formula_.size() > kMaxSharedBytes) return;
    found = shared_.emplace(shared_index_, SharedFormula{}).first;
  } else if (shared_bytes_ - found->second.text.size() + formula_.size() > kMaxSharedBytes) {
    return;
  }
  shared_bytes_ = shared_bytes_ - found->second.text.size() + formula_.size();
  found->second = SharedFormula{column_, row_.number, formula_};
}

// The formula as the cell's formula bar shows it: a follower of a shared formula shows the
// master's moved to its own cell, an array formula's master is in braces (the other cells of the
// array hold no formula, only their result, if any).
std::string SheetReader::formula() const {
  if (formula_type_ == "shared" && formula_.empty()) {
    const auto master = shared_.find(shared_index_);
    if (master == shared_.end()) return "(shared formula written in an earlier row)";
    const std::int64_t rows = static_cast<std::int64_t>(row_.number) - static_cast<std::int64_t>(master->second.row);
    const std::int64_t columns = std::int64_t{column_} - std::int64_t{master->second.column};
    return "=" + translate_formula(master->second.text, rows, columns);
  }
  if (formula_.empty()) return {};  // a data table's cell (t="dataTable") names no formula
  return formula_type_ == "array" ? "{=" + formula_ + "}" : "=" + formula_;
}

// Whether the cell's style shows General, asked once per style (the answer reads the code).
bool SheetReader::general(std::string_view code) const {
  if (style_ >= formats_.size()) return is_general_format(code);
  if (general_.size() < formats_.size()) general_.assign(formats_.size(), -1);
  if (general_[style_] < 0) general_[style_] = is_general_format(code) ? 1 : 0;
  return general_[style_] == 1;
}

std::string SheetReader::show() const {
  if (type_ == "s") {
    std::size_t i = 0;
    const auto got = std::from_chars(value_.data(), value_.data() + value_.size(), i);
    if (got.ec != std::errc() || value_.empty()) return value_.empty() ? std::string() : "[no shared string " + value_ + "]";
    if (i >= strings_.ends.size()) return "[no shared string " + value_ + "]";
    return std::string(strings_.at(i));
  }
  if (type_ == "b") return value_ == "1" ? "TRUE" : value_ == "0" ? "FALSE" : value_;
  if (type_ == "str" || type_ == "inlineStr" || type_ == "e" || type_ == "d") return value_;
  if (value_.empty()) return {};
  const std::string_view code = style_ < formats_.size() ? std::string_view(formats_[style_]) : std::string_view();
  // Most numbers are integers shown as General, which shows them as written: no conversion.
  if (plain_integer(value_) && general(code)) return value_;
  char* end = nullptr;
  const double v = std::strtod(value_.c_str(), &end);
  if (end == value_.c_str() || *end != '\0') return value_;
  return format_number(v, code, date1904_);
}

}  // namespace mcpread::readers::sheets
