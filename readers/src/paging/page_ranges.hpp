#pragma once
// The `pages` argument of paged readers (PDF pages, slides, chapters): "3", "1-5", "2,4,7-9",
// "10-" (to the end), parsed against a count, and page lists written back the way it takes them.
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace mcpread::readers {

// Parses a page selection against a page count: 1-based pages in the order given, duplicates
// removed. The error is a complete sentence, naming the units `unit` ("slide", "chapter").
std::variant<std::vector<int>, std::string> parse_page_ranges(std::string_view spec, int page_count,
                                                              std::string_view unit = "page");

// Consecutive ascending pages joined into ranges: {1,2,3,5,9,8} -> "1-3,5,9,8" with sep ",".
std::string format_page_ranges(const std::vector<int>& pages, const char* sep = ",");

}  // namespace mcpread::readers
