#include "sheets/selection.hpp"

#include "mcpread/common/ascii.hpp"

#include <algorithm>
#include <charconv>

namespace mcpread::readers::sheets {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// The sheet named `name`: exactly, else ignoring ASCII case.
std::optional<std::size_t> by_name(std::string_view name, const std::vector<SheetInfo>& sheets) {
  for (std::size_t i = 0; i < sheets.size(); ++i)
    if (sheets[i].name == name) return i;
  for (std::size_t i = 0; i < sheets.size(); ++i)
    if (common::ascii_iequals(sheets[i].name, name)) return i;
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
  const std::size_t n = sheets.size();
  // An item as sheet numbers: "2", "1-3", "4-" (to the last); nullopt when it is no number.
  struct Range {
    std::size_t first, last;
    bool valid;
  };
  const auto range_of = [&](std::string_view item) -> std::optional<Range> {
    const auto dash = item.find('-');
    const auto first = number(trim(item.substr(0, dash)));
    const auto last = dash == std::string_view::npos ? first
                      : trim(item.substr(dash + 1)).empty() ? std::optional<std::size_t>(n)
                                                            : number(trim(item.substr(dash + 1)));
    if (!first || !last) return std::nullopt;
    return Range{*first, *last, *first >= 1 && *last <= n && *first <= *last};
  };
  const auto items = [&] {
    std::vector<std::string_view> out_items;
    for (std::size_t at = 0; at <= spec.size();) {
      std::size_t end = spec.find(',', at);
      if (end == std::string_view::npos) end = spec.size();
      if (const auto item = trim(spec.substr(at, end - at)); !item.empty()) out_items.push_back(item);
      at = end + 1;
    }
    return out_items;
  }();
  // Numbers first ("1" is the first sheet even when another sheet is named "1"); names for what
  // is no valid number: the whole spec naming a sheet (names may hold commas and dashes), else
  // each item by name or number.
  bool all_numbers = true;
  for (const auto item : items) {
    const auto r = range_of(item);
    all_numbers = all_numbers && r && r->valid;
  }
  std::string bad_item;
  bool numeric = false;
  if (all_numbers) {
    for (const auto item : items)
      for (std::size_t i = range_of(item)->first; i <= range_of(item)->last; ++i) add(i - 1);
  } else if (const auto whole = by_name(spec, sheets)) {
    add(*whole);
  } else {
    for (const auto item : items) {
      if (const auto named = by_name(item, sheets)) {
        add(*named);
      } else if (const auto r = range_of(item); r && r->valid) {
        for (std::size_t i = r->first; i <= r->last; ++i) add(i - 1);
      } else {
        bad_item = std::string(item);
        numeric = r.has_value();
        break;
      }
    }
  }
  if (!bad_item.empty())
    return "pages=\"" + std::string(spec) + "\" " +
           (numeric ? "asks for sheets " + bad_item + ", but " + std::string(path) + " has " + std::to_string(n) +
                          (n == 1 ? " sheet" : " sheets")
                    : "names no sheet of " + std::string(path)) +
           ". Its sheets: " + sheet_list(sheets) + ". Give sheets by number (\"2\", \"1-3\") or by name.";
  if (out.empty()) return select_sheets({}, sheets, path);
  return out;
}

}  // namespace mcpread::readers::sheets
