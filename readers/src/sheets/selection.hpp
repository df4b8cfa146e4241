#pragma once
// The `pages` argument of a spreadsheet: sheets by number ("2", "1-3", "4-") or by name
// ("Summary", "Data,Summary"), in the order asked. Internal to the readers library.
#include "sheets/sheet_table.hpp"

#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace mcpread::readers::sheets {

// 0-based sheet indices, or a sentence naming the sheets there are when `spec` names none of them.
std::variant<std::vector<std::size_t>, std::string> select_sheets(std::string_view spec,
                                                                  const std::vector<SheetInfo>& sheets,
                                                                  std::string_view path);

// 1 "Data", 2 "Summary" (hidden), ...: the sheets as a list for messages.
std::string sheet_list(const std::vector<SheetInfo>& sheets);

}  // namespace mcpread::readers::sheets
