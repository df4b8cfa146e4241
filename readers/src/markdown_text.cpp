#include "markdown_text.hpp"

namespace mcpread::readers {

namespace {

// Where the "." or ")" of an ordered-list marker at `at` (a line's start, spaces skipped) is, or npos.
std::size_t marker_end(std::string_view text, std::size_t at) {
  while (at < text.size() && (text[at] == ' ' || text[at] == '\t')) ++at;
  std::size_t digits = 0;
  while (at + digits < text.size() && text[at + digits] >= '0' && text[at + digits] <= '9') ++digits;
  const std::size_t mark = at + digits;
  if (digits == 0 || digits > 9 || mark >= text.size() || (text[mark] != '.' && text[mark] != ')')) return std::string_view::npos;
  const std::size_t next = mark + 1;
  if (next < text.size() && text[next] != ' ' && text[next] != '\t' && text[next] != '\n' && text[next] != '\r')
    return std::string_view::npos;
  return mark;
}

}  // namespace

std::string escape_list_numbers(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  std::size_t line = 0;
  while (line <= text.size()) {
    std::size_t end = text.find('\n', line);
    if (end == std::string_view::npos) end = text.size();
    const std::size_t mark = marker_end(text.substr(0, end), line);
    if (mark != std::string_view::npos) {
      out.append(text, line, mark - line);
      out += '\\';
      out.append(text, mark, end - mark);
    } else {
      out.append(text, line, end - line);
    }
    if (end == text.size()) break;
    out += '\n';
    line = end + 1;
  }
  return out;
}

}  // namespace mcpread::readers
