#include "sheets/formula_text.hpp"

#include "mcpread/readers/utf8.hpp"
#include "sheets/sheet_table.hpp"

#include <algorithm>

namespace mcpread::readers::sheets {
namespace {

bool letter(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
bool digit(char c) { return c >= '0' && c <= '9'; }
// What a name, a function, a number or a reference is made of: a reference is such a run whole.
bool word_char(char c) {
  return letter(c) || digit(c) || c == '_' || c == '.' || c == '$' || c == '\\' || static_cast<unsigned char>(c) >= 0x80;
}

// One end of a reference: "$B7", "C" (of "C:C") or "$3" (of "3:5").
struct RefPart {
  enum Kind { cell, whole_column, whole_row } kind = cell;
  bool fixed_column = false, fixed_row = false;
  std::uint32_t column = 0;
  std::uint64_t row = 0;
};

bool parse_part(std::string_view s, RefPart* p) {
  std::size_t i = 0;
  const bool dollar_first = i < s.size() && s[i] == '$';
  if (dollar_first) ++i;
  const std::size_t letters_at = i;
  while (i < s.size() && letter(s[i]) && i - letters_at < 4) ++i;
  const std::size_t letters = i - letters_at;
  if (letters > 3) return false;
  const bool dollar_second = i < s.size() && s[i] == '$';
  if (dollar_second) ++i;
  const std::size_t digits_at = i;
  while (i < s.size() && digit(s[i])) ++i;
  const std::size_t digits = i - digits_at;
  if (i != s.size() || (letters == 0 && digits == 0)) return false;
  if (letters > 0 && digits > 0) {
    p->kind = RefPart::cell;
    p->fixed_column = dollar_first;
    p->fixed_row = dollar_second;
    return parse_reference(std::string(s.substr(letters_at, letters)) + std::string(s.substr(digits_at)), &p->column, &p->row);
  }
  if (dollar_second) return false;  // "$A$" or "$$1"
  std::uint64_t row = 0;
  if (letters > 0) {
    p->kind = RefPart::whole_column;
    p->fixed_column = dollar_first;
    return parse_reference(std::string(s.substr(letters_at, letters)) + "1", &p->column, &row);
  }
  p->kind = RefPart::whole_row;
  p->fixed_row = dollar_first;
  std::uint32_t column = 0;
  return parse_reference("A" + std::string(s.substr(digits_at)), &column, &p->row);
}

// The part moved, or false when it leaves the sheet.
bool moved(RefPart p, std::int64_t rows, std::int64_t columns, std::string* out) {
  const std::int64_t column = static_cast<std::int64_t>(p.column) + (p.fixed_column ? 0 : columns);
  const std::int64_t row = static_cast<std::int64_t>(p.row) + (p.fixed_row ? 0 : rows);
  if (p.kind != RefPart::whole_row) {
    if (column < 0 || column >= static_cast<std::int64_t>(kMaxColumns)) return false;
    *out += (p.fixed_column ? "$" : "") + column_name(static_cast<std::uint32_t>(column));
  }
  if (p.kind != RefPart::whole_column) {
    if (row < 1 || row > static_cast<std::int64_t>(kMaxRows)) return false;
    *out += (p.fixed_row ? "$" : "") + std::to_string(row);
  }
  return true;
}

// From `at` (a quote) past its closing quote; a doubled quote stands for one inside.
std::size_t past_quoted(std::string_view s, std::size_t at) {
  const char q = s[at];
  std::size_t i = at + 1;
  while (i < s.size()) {
    if (s[i] == q && (i + 1 >= s.size() || s[i + 1] != q)) return i + 1;
    i += s[i] == q ? 2 : 1;
  }
  return s.size();
}

// From `at` (a '[') past its matching ']': structured references nest, and escape with '\''.
std::size_t past_brackets(std::string_view s, std::size_t at) {
  int depth = 0;
  for (std::size_t i = at; i < s.size(); ++i) {
    if (s[i] == '\'') ++i;
    else if (s[i] == '[') ++depth;
    else if (s[i] == ']' && --depth == 0) return i + 1;
  }
  return s.size();
}

std::string_view word_at(std::string_view s, std::size_t at) {
  std::size_t end = at;
  while (end < s.size() && word_char(s[end])) ++end;
  return s.substr(at, end - at);
}

// An ODF reference's inside ("$Sheet2.$A$1:.B3") in A1 form ("Sheet2!$A$1:B3").
std::string a1_reference(std::string_view inside) {
  std::string out, first_sheet;
  std::size_t start = 0;
  for (int part = 0; start <= inside.size(); ++part) {
    std::size_t end = start, dot = std::string_view::npos;
    while (end < inside.size() && inside[end] != ':') {
      if (inside[end] == '\'') {
        end = past_quoted(inside, end);
        continue;
      }
      if (inside[end] == '.') dot = end;
      ++end;
    }
    const std::string_view text = inside.substr(start, end - start);
    if (part > 0) out += ':';
    if (dot == std::string_view::npos) {
      out += text;  // "#REF!", a name
    } else {
      std::string_view sheet = text.substr(0, dot - start);
      if (sheet.starts_with('$')) sheet.remove_prefix(1);  // an absolute sheet: A1 form has none
      if (!sheet.empty() && (part == 0 || sheet != first_sheet)) out += std::string(sheet) + "!";
      if (part == 0) first_sheet = sheet;
      out += text.substr(dot - start + 1);
    }
    start = end + 1;
  }
  return out;
}

}  // namespace

std::string translate_formula(std::string_view f, std::int64_t rows, std::int64_t columns) {
  std::string out;
  out.reserve(f.size() + 8);
  std::size_t i = 0;
  while (i < f.size()) {
    const char c = f[i];
    if (c == '"' || c == '\'') {  // a string, a quoted sheet name: kept
      const std::size_t end = past_quoted(f, i);
      out += f.substr(i, end - i);
      i = end;
      continue;
    }
    if (c == '[') {  // a structured reference, an external workbook's number: kept
      const std::size_t end = past_brackets(f, i);
      out += f.substr(i, end - i);
      i = end;
      continue;
    }
    if (!word_char(c)) {
      out += c;
      ++i;
      continue;
    }
    const std::string_view word = word_at(f, i);
    std::size_t after = i + word.size();
    const char next = after < f.size() ? f[after] : '\0';
    RefPart first, second;
    // A function ("LOG10("), a sheet ("A1!"), a table ("T1[") looks like a reference: it is none.
    if (next == '(' || next == '!' || next == '[' || !parse_part(word, &first)) {
      out += word;
      i = after;
      continue;
    }
    if (first.kind != RefPart::cell) {  // "C" or "3": a reference only as "C:D" or "3:5"
      const std::string_view other = next == ':' ? word_at(f, after + 1) : std::string_view();
      if (other.empty() || !parse_part(other, &second) || second.kind != first.kind) {
        out += word;
        i = after;
        continue;
      }
      std::string from, to;
      out += moved(first, rows, columns, &from) && moved(second, rows, columns, &to) ? from + ":" + to : "#REF!";
      i = after + 1 + other.size();
      continue;
    }
    std::string one;
    out += moved(first, rows, columns, &one) ? one : "#REF!";
    i = after;
  }
  return out;
}

std::string a1_formula(std::string_view f) {
  // The namespace prefix ("of:", "oooc:", "msoxl:"), which says the syntax.
  const std::size_t colon = f.find(':');
  std::string_view prefix;
  if (colon != std::string_view::npos && colon > 0 && colon + 1 < f.size() && f[colon + 1] == '=' &&
      std::all_of(f.begin(), f.begin() + static_cast<std::ptrdiff_t>(colon), letter)) {
    prefix = f.substr(0, colon);
    f.remove_prefix(colon + 1);
  }
  if (f.starts_with('=')) f.remove_prefix(1);
  if (f.empty()) return {};
  if (prefix == "msoxl") return "=" + std::string(f);  // Excel's own syntax already
  std::string out = "=";
  out.reserve(f.size() + 8);
  int braces = 0;
  std::size_t i = 0;
  while (i < f.size()) {
    const char c = f[i];
    if (c == '"') {
      const std::size_t end = past_quoted(f, i);
      out += f.substr(i, end - i);
      i = end;
      continue;
    }
    if (c == '[') {
      std::size_t end = i + 1;
      while (end < f.size() && f[end] != ']') end = f[end] == '\'' ? past_quoted(f, end) : end + 1;
      out += a1_reference(f.substr(i + 1, std::min(end, f.size()) - i - 1));
      i = end + 1;
      continue;
    }
    if (c == '{') ++braces;
    else if (c == '}' && braces > 0) --braces;
    // Arguments and an inline array's columns are parted by ';' in ODF, by ',' in A1 form; an
    // array's rows by '|' and ';'.
    out += c == ';' ? ',' : c == '|' && braces > 0 ? ';' : c;
    ++i;
  }
  return out;
}

std::string formula_cell_text(std::string_view formula) {
  if (formula.empty()) return {};
  std::string text;
  text.reserve(formula.size());
  for (std::size_t i = 0; i < formula.size(); ++i) {
    const char c = formula[i];
    if (c == '\r' && i + 1 < formula.size() && formula[i + 1] == '\n') continue;
    text += c == '\n' || c == '\r' || c == '\t' ? ' ' : c;
  }
  const auto longest_run = [](std::string_view s) {
    std::size_t best = 0, run = 0;
    for (const char c : s) best = std::max(best, run = c == '`' ? run + 1 : 0);
    return best;
  };
  // What fits in a table cell (kMaxCellBytes) with the fences and the note of the cut.
  const std::size_t room = kMaxCellBytes - 80;
  std::size_t keep = utf8::fit_bytes(text, room);
  std::size_t run = longest_run(std::string_view(text).substr(0, keep));
  if (2 * (run + 2) > room / 2) {  // backticks enough to need a fence as long as the text
    keep = utf8::fit_bytes(text, room / 3);
    run = longest_run(std::string_view(text).substr(0, keep));
  }
  const std::string fence(run + 1, '`');
  const std::string pad = run > 0 ? " " : "";
  std::string out = fence + pad + text.substr(0, keep) + pad + fence;
  if (keep < text.size())
    out += "\u2026 [" + std::to_string(utf8::count_chars(std::string_view(text).substr(keep))) + " more characters]";
  return out;
}

}  // namespace mcpread::readers::sheets
