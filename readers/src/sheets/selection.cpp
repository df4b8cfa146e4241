#include "sheets/selection.hpp"

#include <algorithm>
#include <charconv>

namespace mcpread::readers::sheets {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool same_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return (x >= 'A' && x <= 'Z' ? x | 0x20 : x) == (y >= 'A' && y <= 'Z' ? y | 0x20 : y);
         });
}

// The sheet named `name`: exactly, else ignoring ASCII case.
std::optional<std::size_t> by_name(std::string_view name, const std::vector<SheetInfo>& sheets) {
  for (std::size_t i = 0; i < sheets.size(); ++i)
    if (sheets[i].name == name) return i;
  for (std::size_t i = 0; i < sheets.size(); ++i)
    if (same_ignoring_case(sheets[i].name, name)) return i;
  return std::nullopt;
}

std::optional<std::size_t> number(std::string_view s) {
  std::size_t v = 0;
  const auto got = std::from_chars(s.data(), s.data() + s.size(), v);
  if (got.ec != std::errc() || got.ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace

std::string sheet_list(const std::vector<SheetInfo>& sheets) {
  std::string out;
  const std::size_t shown = std::min<std::size_t>(sheets.size(), 50);
  for (std::size_t i = 0; i < shown; ++i)
    out += (i == 0 ? "" : ", ") + std::to_string(i + 1) + " \"" + sheets[i].name + "\"" +
           (sheets[i].hidden ? " (hidden)" : "");
  if (shown < sheets.size()) out += " and " + std::to_string(sheets.size() - shown) + " more";
  return out;
}

std::variant<std::vector<std::size_t>, std::string> select_sheets(std::string_view spec,
                                                                  const std::vector<SheetInfo>& sheets,
                                                                  std::string_view path) {
  std::vector<std::size_t> out;
  spec = trim(spec);
  if (spec.empty()) {
    for (std::size_t i = 0; i < sheets.size(); ++i) out.push_back(i);
    return out;
  }
  auto add = [&](std::size_t i) {
    if (std::find(out.begin(), out.end(), i) == out.end()) out.push_back(i);
  };
  if (const auto whole = by_name(spec, sheets)) {  // a name holding a comma or a dash
    add(*whole);
    return out;
  }
  const std::size_t n = sheets.size();
  for (std::size_t at = 0; at <= spec.size();) {
    std::size_t end = spec.find(',', at);
    if (end == std::string_view::npos) end = spec.size();
    const std::string_view item = trim(spec.substr(at, end - at));
    at = end + 1;
    if (item.empty()) continue;
    if (const auto named = by_name(item, sheets)) {
      add(*named);
      continue;
    }
    const auto dash = item.find('-');
    const auto first = number(trim(item.substr(0, dash)));
    const auto last = dash == std::string_view::npos ? first
                      : trim(item.substr(dash + 1)).empty() ? std::optional<std::size_t>(n)
                                                            : number(trim(item.substr(dash + 1)));
    if (!first || !last || *first < 1 || *last > n || *first > *last) {
      const bool numeric = first.has_value();
      return "pages=\"" + std::string(spec) + "\" " +
             (numeric ? "asks for sheets " + std::string(item) + ", but " + std::string(path) + " has " +
                            std::to_string(n) + (n == 1 ? " sheet" : " sheets")
                      : "names no sheet of " + std::string(path)) +
             ". Its sheets: " + sheet_list(sheets) + ". Give sheets by number (\"2\", \"1-3\") or by name.";
    }
    for (std::size_t i = *first; i <= *last; ++i) add(i - 1);
  }
  if (out.empty()) return select_sheets({}, sheets, path);
  return out;
}

}  // namespace mcpread::readers::sheets
