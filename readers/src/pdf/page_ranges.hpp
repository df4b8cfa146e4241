#pragma once
// Page lists written the way the `pages` argument takes them.
#include <string>
#include <vector>

namespace mcpread::readers {

// Consecutive ascending pages joined into ranges: {1,2,3,5,9,8} -> "1-3,5,9,8" with sep ",".
std::string format_page_ranges(const std::vector<int>& pages, const char* sep = ",");

}  // namespace mcpread::readers
