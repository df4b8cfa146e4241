#pragma once
// The encoding an XML declaration names (`<?xml version="1.0" encoding="ISO-8859-1"?>`), read the
// way XML 1.0 writes it (EncodingDecl: blanks, `encoding`, `=` between optional blanks, the name
// in matching quotes): for the charset a text file claims, and for whether an XLSX part may be
// handed to a UTF-8-only parser.
#include <optional>
#include <string_view>

namespace mcpread::common {

// What the declaration at the very start of `head` gives as its encoding: nullopt when there is
// no declaration there or it names no encoding; an empty name when `encoding` is written but not
// as XML writes it (no '=', no quotes or no closing quote: the claim cannot be trusted).
constexpr std::optional<std::string_view> xml_declared_encoding(std::string_view head) {
  if (!head.starts_with("<?xml")) return std::nullopt;
  const std::string_view decl = head.substr(0, head.find("?>"));
  const std::size_t at = decl.find("encoding");
  if (at == std::string_view::npos) return std::nullopt;
  const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  std::size_t i = at + 8;
  while (i < decl.size() && blank(decl[i])) ++i;
  if (i >= decl.size() || decl[i] != '=') return std::string_view();
  ++i;
  while (i < decl.size() && blank(decl[i])) ++i;
  if (i >= decl.size() || (decl[i] != '"' && decl[i] != '\'')) return std::string_view();
  const std::size_t close = decl.find(decl[i], i + 1);
  if (close == std::string_view::npos) return std::string_view();
  return decl.substr(i + 1, close - i - 1);
}

}  // namespace mcpread::common
