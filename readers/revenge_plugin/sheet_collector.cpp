#include "sheet_collector.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace mcpread_revenge {

namespace {

const librevenge::RVNGProperty* prop(const librevenge::RVNGPropertyList& props, const char* name) { return props[name]; }

// A whole number property within [0, limit], else `fallback`.
std::uint64_t whole(const librevenge::RVNGPropertyList& props, const char* name, std::uint64_t fallback,
                    std::uint64_t limit) {
  const librevenge::RVNGProperty* p = prop(props, name);
  if (p == nullptr) return fallback;
  const int v = p->getInt();
  return v < 0 || static_cast<std::uint64_t>(v) > limit ? fallback : static_cast<std::uint64_t>(v);
}

// A number as a spreadsheet shows it unformatted: up to 15 significant digits, no trailing zeros.
std::string number(double v) {
  if (!std::isfinite(v)) return std::isnan(v) ? "NaN" : v < 0 ? "-Infinity" : "Infinity";
  if (v == 0) v = 0;  // no "-0"
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.15g", v);
  return buf;
}

std::string two(std::uint64_t v) { return (v < 10 ? "0" : "") + std::to_string(v); }

// The value a cell holds, when its paragraphs show nothing: numbers, percentages, dates, times
// and booleans as the importers give them (libwps and libetonyek give the value and the numbering
// style apart; the style is not applied).
std::string value_of(const librevenge::RVNGPropertyList& props) {
  const librevenge::RVNGProperty* type = prop(props, "librevenge:value-type");
  const std::string kind = type != nullptr ? type->getStr().cstr() : "";
  const librevenge::RVNGProperty* value = prop(props, "librevenge:value");
  if (kind == "date" || kind == "time") {
    const std::uint64_t h = whole(props, "librevenge:hours", 0, 1u << 30), m = whole(props, "librevenge:minutes", 0, 59),
                        s = whole(props, "librevenge:seconds", 0, 59);
    // A time of day: Numbers gives the hours since its epoch, as its own converter shows them.
    const std::string time = two(h % 24) + ":" + two(m) + ":" + two(s);
    if (kind == "time") return time;
    const std::uint64_t y = whole(props, "librevenge:year", 0, 99999), mo = whole(props, "librevenge:month", 0, 12),
                        d = whole(props, "librevenge:day", 0, 31);
    std::string date = std::to_string(y) + "-" + two(mo) + "-" + two(d);
    return h == 0 && m == 0 && s == 0 ? date : date + " " + time;
  }
  if (value == nullptr) return {};
  if (kind == "boolean" || kind == "bool") return value->getDouble() != 0 ? "TRUE" : "FALSE";
  if (kind == "percentage") return number(value->getDouble() * 100) + "%";
  if (kind == "string" || kind == "text") return value->getStr().cstr();
  return number(value->getDouble());
}

}  // namespace

void SheetCollector::openSheet(const librevenge::RVNGPropertyList& props) {
  in_sheet_ = true;
  next_row_ = 0;
  if (sheets_.size() >= kMaxSheets) {
    cut_ = true;
    return;
  }
  Sheet sheet;
  const librevenge::RVNGProperty* name = prop(props, "librevenge:sheet-name");
  if (name == nullptr) name = prop(props, "librevenge:name");
  sheet.name = name != nullptr ? name->getStr().cstr() : "";
  if (sheet.name.empty()) sheet.name = "Sheet" + std::to_string(sheets_.size() + 1);
  sheets_.push_back(std::move(sheet));
}

void SheetCollector::openSheetRow(const librevenge::RVNGPropertyList& props) {
  row_ = next_row_;
  next_row_ = row_ + whole(props, "table:number-rows-repeated", 1, 1u << 20);
  next_column_ = 0;
}

void SheetCollector::openSheetCell(const librevenge::RVNGPropertyList& props) {
  in_cell_ = in_sheet_;
  cell_row_ = whole(props, "librevenge:row", row_, 1u << 20);
  cell_column_ = static_cast<std::uint32_t>(whole(props, "librevenge:column", next_column_, 16383));
  cell_repeat_ = static_cast<std::uint32_t>(
      std::clamp<std::uint64_t>(whole(props, "table:number-columns-repeated", 1, kMaxRepeat), 1, kMaxRepeat));
  next_column_ = cell_column_ + cell_repeat_;
  cell_text_.clear();
  cell_value_ = value_of(props);
}

void SheetCollector::openParagraph(const librevenge::RVNGPropertyList&) {
  if (keeps() && !cell_text_.empty()) cell_text_ += '\n';
}

void SheetCollector::text(const char* s) {
  if (!keeps()) return;
  cell_text_ += s;
  if (cell_text_.size() > kMaxSheetTextBytes) cut_ = true;
}

void SheetCollector::closeSheetCell() {
  if (!in_cell_) return;
  in_cell_ = false;
  std::string shown = cell_text_.empty() ? cell_value_ : cell_text_;
  if (shown.empty() || sheets_.empty() || cut_) return;
  for (std::uint32_t k = 0; k < cell_repeat_ && cell_column_ + k < 16384; ++k) {
    if (bytes_ + shown.size() > kMaxSheetTextBytes || cells_ >= kMaxSheetCells) {
      cut_ = true;
      return;
    }
    bytes_ += shown.size();
    ++cells_;
    sheets_.back().rows[cell_row_][cell_column_ + k] = shown;
  }
}

nlohmann::json SheetCollector::result() const {
  nlohmann::json sheets = nlohmann::json::array();
  for (const Sheet& sheet : sheets_) {
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& [row, cells] : sheet.rows) {
      nlohmann::json list = nlohmann::json::array();
      for (const auto& [column, text] : cells) list.push_back({column, text});
      rows.push_back({{"row", row + 1}, {"cells", std::move(list)}});
    }
    sheets.push_back({{"name", sheet.name}, {"rows", std::move(rows)}});
  }
  return {{"sheets", std::move(sheets)}, {"cut", cut_}};
}

}  // namespace mcpread_revenge
