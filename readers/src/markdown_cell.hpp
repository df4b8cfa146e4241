#pragma once
// Tables of values as Markdown, for every reader that writes them (spreadsheets, CSV): a value as
// a cell (`|` escaped, line breaks as <br>, tabs as spaces, cut at kMaxCellBytes with a count of
// what was left out) and the letters naming a column. Internal to the readers library.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace mcpread::readers {

constexpr std::size_t kMaxCellBytes = 4096;  // a cell's text beyond this is cut

// A column's letters as spreadsheets name it: "A", "Z", "AA", "XFD" for 0, 25, 26, 16383.
std::string column_name(std::uint32_t column);

std::string cell_text(std::string_view text);
// The same appended to `out` (without a copy when the text needs no change).
void append_cell_text(std::string& out, std::string_view text);

}  // namespace mcpread::readers
