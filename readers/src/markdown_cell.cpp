#include "markdown_cell.hpp"

#include "mcpread/readers/utf8.hpp"

#include <algorithm>

namespace mcpread::readers {

std::string column_name(std::uint32_t column) {
  std::string out;
  for (std::uint64_t c = std::uint64_t{column} + 1; c > 0; c = (c - 1) / 26)
    out.insert(out.begin(), static_cast<char>('A' + (c - 1) % 26));
  return out;
}

std::string cell_text(std::string_view text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.remove_suffix(1);
  std::string_view shown = text;
  bool cut = false;
  if (shown.size() > kMaxCellBytes) {
    shown = shown.substr(0, utf8::prefix_bytes(shown, kMaxCellBytes));
    cut = true;
  }
  std::string out;
  out.reserve(shown.size() + 8);
  for (std::size_t i = 0; i < shown.size(); ++i) {
    const char c = shown[i];
    if (c == '|') out += "\\|";
    else if (c == '\r' && i + 1 < shown.size() && shown[i + 1] == '\n') continue;
    else if (c == '\n' || c == '\r') out += "<br>";
    else if (c == '\t') out += ' ';
    else out += c;
  }
  if (cut) out += "\u2026 [" + std::to_string(utf8::count_chars(text.substr(shown.size()))) + " more characters]";
  return out;
}

void append_cell_text(std::string& out, std::string_view text) {
  // Most cells need nothing changed: one pass to tell, then one copy.
  if (text.size() <= kMaxCellBytes && (text.empty() || (text.back() != '\n' && text.back() != '\r')) &&
      std::none_of(text.begin(), text.end(), [](char c) { return c == '|' || c == '\n' || c == '\r' || c == '\t'; })) {
    out += text;
    return;
  }
  out += cell_text(text);
}

}  // namespace mcpread::readers
