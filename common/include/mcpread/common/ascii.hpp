#pragma once
// ASCII case, for the names formats and protocols define as case-insensitive ASCII (file
// extensions, charset labels, HTTP header values, sheet and style names): std::tolower depends on
// the C locale, and a byte above 0x7F (part of a UTF-8 sequence) must never change.
#include <string>
#include <string_view>

namespace mcpread::common {

constexpr char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

inline std::string ascii_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = ascii_lower(c);
  return out;
}

// Equal once ASCII letters are lower-cased ("Content-Type" and "content-type").
constexpr bool ascii_iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
  return true;
}

}  // namespace mcpread::common
