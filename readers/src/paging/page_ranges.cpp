#include "paging/page_ranges.hpp"

#include <algorithm>
#include <cstdint>
#include <string_view>

namespace mcpread::readers {
namespace {

constexpr std::string_view examples = R"(use pages like "3", "1-5", "2,4,7-9" or "10-".)";

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

// A page number written in digits only, saturating far above any page count; -1 when the text
// is not one.
std::int64_t number(std::string_view s) {
  if (s.empty()) return -1;
  std::int64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return -1;
    v = std::min<std::int64_t>(v * 10 + (c - '0'), 1'000'000'000'000);
  }
  return v;
}

std::string count_of(int n, std::string_view unit) {
  return std::to_string(n) + " " + std::string(unit) + (n == 1 ? "" : "s");
}

std::string capital(std::string_view unit) {
  std::string out(unit);
  if (!out.empty() && out[0] >= 'a' && out[0] <= 'z') out[0] = static_cast<char>(out[0] - 'a' + 'A');
  return out;
}

}  // namespace

std::variant<std::vector<int>, std::string> parse_page_ranges(std::string_view spec, int page_count,
                                                              std::string_view unit) {
  // Models sometimes write ranges with an en dash or a hyphen-like sign; all mean "-".
  std::string s(spec);
  for (std::string_view dash : {"\u2013", "\u2014", "\u2212", "\u2010", "\u2011"})
    for (std::size_t p; (p = s.find(dash)) != std::string::npos;) s.replace(p, dash.size(), "-");
  std::vector<int> pages;
  std::vector<bool> seen(static_cast<std::size_t>(page_count > 0 ? page_count : 0) + 1);
  const auto missing = [&](std::string_view digits) {
    while (digits.size() > 1 && digits.front() == '0') digits.remove_prefix(1);
    return capital(unit) + " " + std::string(digits) + " does not exist: the document has " +
           count_of(page_count, unit) + ".";
  };
  std::string_view rest = s;
  bool any = false;
  while (true) {
    const auto comma = rest.find(',');
    const std::string_view item = trim(rest.substr(0, comma));
    if (!item.empty()) {
      any = true;
      const auto dash = item.find('-');
      const std::string_view first_text = trim(item.substr(0, dash));
      const std::string_view last_text =
          dash == std::string_view::npos ? first_text : trim(item.substr(dash + 1));
      const std::int64_t first = number(first_text);
      const std::int64_t last = dash != std::string_view::npos && last_text.empty()
                                    ? std::max<std::int64_t>(page_count, first)
                                    : number(last_text);
      if (first < 0 || last < 0 || (dash != std::string_view::npos && first_text.empty())) {
        return "'" + std::string(item) +
               "' is not a " + std::string(unit) + " number or range: " + std::string(examples);
      }
      if (first == 0 || last == 0) {
        return capital(unit) + "s are numbered from 1: '" + std::string(item) + "' names " + std::string(unit) + " 0.";
      }
      if (first > last) {
        return "'" + std::string(item) +
               "' is not a " + std::string(unit) + " range: use first-last with first \u2264 last.";
      }
      if (first > page_count) return missing(first_text);
      if (last > page_count) return missing(last_text);
      for (auto p = static_cast<int>(first); p <= static_cast<int>(last); ++p) {
        if (seen[static_cast<std::size_t>(p)]) continue;
        seen[static_cast<std::size_t>(p)] = true;
        pages.push_back(p);
      }
    }
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  if (!any) return "The pages argument is empty: " + std::string(examples);
  return pages;
}

std::string format_page_ranges(const std::vector<int>& pages, const char* sep) {
  std::string out;
  for (std::size_t i = 0; i < pages.size();) {
    std::size_t j = i;
    while (j + 1 < pages.size() && pages[j + 1] == pages[j] + 1) ++j;
    if (!out.empty()) out += sep;
    out += std::to_string(pages[i]);
    if (j > i) out += "-" + std::to_string(pages[j]);
    i = j + 1;
  }
  return out;
}

}  // namespace mcpread::readers
