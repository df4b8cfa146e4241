#pragma once
// Percent-decoding (RFC 3986 %XX escapes), for file:// URIs (readers), URL query parameters
// (the HTTP transport) and the hrefs of documents (EPUB).
#include <optional>
#include <string>
#include <string_view>

namespace mcpread::common {

// 0-15 for a hexadecimal digit, -1 otherwise.
constexpr int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

enum class PercentMode {
  strict,  // a '%' not followed by two hexadecimal digits makes the whole text invalid
  query,   // URL queries (form encoding): '+' is a space, a stray '%' stays as it is
  href,    // a reference written in a document: a stray '%' stays as it is, '+' is a plus
};

// The decoded bytes (any, NUL included: the caller decides what it accepts); nullopt only in
// strict mode, for a malformed escape.
inline std::optional<std::string> percent_decode(std::string_view in, PercentMode mode) {
  std::string out;
  out.reserve(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    const char c = in[i];
    if (c != '%') {
      out.push_back(mode == PercentMode::query && c == '+' ? ' ' : c);
      continue;
    }
    const int hi = i + 2 < in.size() ? hex_digit(in[i + 1]) : -1;
    const int lo = hi >= 0 ? hex_digit(in[i + 2]) : -1;
    if (lo < 0) {
      if (mode == PercentMode::strict) return std::nullopt;
      out.push_back(c);
      continue;
    }
    out.push_back(static_cast<char>(hi * 16 + lo));
    i += 2;
  }
  return out;
}

}  // namespace mcpread::common
