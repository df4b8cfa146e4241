#pragma once
// How deeply JSON text nests arrays and objects, found without parsing it: parsing, copying and
// printing a json value recurse once per level, so text nested too deeply is refused first.
#include <algorithm>
#include <cstddef>
#include <string_view>

namespace mcpread {

// The deepest nesting of arrays and objects in `text` (brackets inside strings do not count).
// Stops scanning once the depth passes `stop_after`, returning a value above it.
inline std::size_t json_nesting_depth(std::string_view text, std::size_t stop_after) {
  std::size_t depth = 0;
  std::size_t deepest = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size() && deepest <= stop_after; ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

}  // namespace mcpread
