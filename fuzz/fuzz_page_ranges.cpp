// fuzz_page_ranges: the `pages` argument of PDF reads ("3", "1-5", "2,4,7-9", "10-"), parsed
// against several page counts. The input is the argument's text.
//
// Checked: a selection holds pages from 1 to the page count, each once; written back with
// format_page_ranges() it parses to the same selection; errors are non-empty sentences, in
// valid UTF-8 when the argument was (arguments come from JSON, so they always are).
#include "fuzz_check.hpp"
#include "mcpread/readers/utf8.hpp"
#include "paging/page_ranges.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace {

using mcpread::fuzz::check;
namespace readers = mcpread::readers;

void check_selection(std::string_view spec, int page_count) {
  const auto parsed = readers::parse_page_ranges(spec, page_count);
  if (const auto* error = std::get_if<std::string>(&parsed)) {
    check(!error->empty() && error->back() == '.', "a refusal is a sentence");
    if (readers::utf8::is_valid(spec)) check(readers::utf8::is_valid(*error), "a refusal is valid UTF-8");
    return;
  }
  const auto& pages = std::get<std::vector<int>>(parsed);
  check(!pages.empty(), "a selection holds at least one page");
  std::vector<bool> seen(static_cast<std::size_t>(page_count) + 1);
  for (int p : pages) {
    check(p >= 1 && p <= page_count, "selected pages exist");
    check(!seen[static_cast<std::size_t>(p)], "each page is selected once");
    seen[static_cast<std::size_t>(p)] = true;
  }
  const auto again = readers::parse_page_ranges(readers::format_page_ranges(pages), page_count);
  const auto* same = std::get_if<std::vector<int>>(&again);
  check(same != nullptr && *same == pages, "a formatted selection parses to itself");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view spec(reinterpret_cast<const char*>(data), size);
  for (int page_count : {0, 1, 2, 7, 20, 1000}) check_selection(spec, page_count);
  return 0;
}
