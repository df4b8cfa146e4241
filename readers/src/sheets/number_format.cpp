#include "sheets/number_format.hpp"

#include "sheets/date_format.hpp"

#include "mcpread/common/ascii.hpp"
#include "mcpread/common/compat.hpp"

#include <algorithm>
#include <array>
#include <cfloat>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace mcpread::readers::sheets {
namespace {

using common::ascii_lower;

constexpr auto kBuiltin = std::to_array<std::string_view>({
    "General", "0", "0.00", "#,##0", "#,##0.00", "#,##0_);(#,##0)", "#,##0_);[Red](#,##0)",
    "#,##0.00_);(#,##0.00)", "#,##0.00_);[Red](#,##0.00)", "0%", "0.00%", "0.00E+00", "# ?/?", "# ?\?/?\?",
    "yyyy-mm-dd", "d-mmm-yy", "d-mmm", "mmm-yy", "h:mm AM/PM", "h:mm:ss AM/PM", "h:mm", "h:mm:ss",
    "yyyy-mm-dd hh:mm", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "#,##0 ;(#,##0)",
    "#,##0 ;[Red](#,##0)", "#,##0.00;(#,##0.00)", "#,##0.00;[Red](#,##0.00)",
    "_(* #,##0_);_(* (#,##0);_(* \"-\"_);_(@_)", "_(\"$\"* #,##0_);_(\"$\"* (#,##0);_(\"$\"* \"-\"_);_(@_)",
    "_(* #,##0.00_);_(* (#,##0.00);_(* \"-\"??_);_(@_)",
    "_(\"$\"* #,##0.00_);_(\"$\"* (#,##0.00);_(\"$\"* \"-\"??_);_(@_)", "mm:ss", "[h]:mm:ss", "mmss.0",
    "##0.0E+0", "@"});

// The sections of a code split at `;` outside quotes, escapes and brackets.
std::vector<std::string_view> sections(std::string_view code) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  bool quoted = false;
  int bracket = 0;
  for (std::size_t i = 0; i < code.size(); ++i) {
    const char c = code[i];
    if (quoted) {
      quoted = c != '"';
    } else if (c == '"') {
      quoted = true;
    } else if (c == '\\') {
      ++i;
    } else if (c == '[') {
      ++bracket;
    } else if (c == ']') {
      bracket = bracket > 0 ? bracket - 1 : 0;
    } else if (c == ';' && bracket == 0) {
      out.push_back(code.substr(start, i - start));
      start = i + 1;
    }
  }
  out.push_back(code.substr(start));
  return out;
}

// "General" in any case ("GENERAL" is written too).
bool is_general(std::string_view s) {
  constexpr std::string_view kGeneral = "general";
  if (s.size() != kGeneral.size()) return false;
  for (std::size_t i = 0; i < s.size(); ++i)
    if (ascii_lower(s[i]) != kGeneral[i]) return false;
  return true;
}

std::string group_thousands(const std::string& digits) {
  std::string out;
  const std::size_t n = digits.size();
  for (std::size_t i = 0; i < n; ++i) {
    out += digits[i];
    if (const std::size_t left = n - 1 - i; left > 0 && left % 3 == 0) out += ',';
  }
  return out;
}

// A number section: literals around one number written with 0 # ? placeholders.
std::string format_plain(double value, std::string_view s, bool explicit_sign_section) {
  std::string prefix, suffix;
  int int_zeros = 0, required_decimals = 0, decimals = 0, exp_digits = 0, trailing_commas = 0;
  bool digits = false, in_decimals = false, thousands = false, percent = false, sci = false, after = false;
  auto lit = [&](std::string_view t) { (digits ? suffix : prefix) += t; if (digits) after = true; };
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '"') {
      const auto end = s.find('"', i + 1);
      lit(s.substr(i + 1, (end == std::string_view::npos ? s.size() : end) - i - 1));
      i = end == std::string_view::npos ? s.size() : end;
    } else if (c == '\\' && i + 1 < s.size()) {
      lit(s.substr(++i, 1));
    } else if (c == '_' || c == '*') {
      ++i;
    } else if (c == '[') {
      const auto end = s.find(']', i);
      const std::string_view in = s.substr(i + 1, (end == std::string_view::npos ? s.size() : end) - i - 1);
      if (in.starts_with("$")) lit(in.substr(1, in.find('-') == std::string_view::npos ? in.size() - 1 : in.find('-') - 1));
      i = end == std::string_view::npos ? s.size() : end;
    } else if ((c == '0' || c == '#' || c == '?') && after && !sci) {
      return general_number(value);  // digits split by literals ("000-00-0000"): beyond this formatter
    } else if (c == '0' || c == '#' || c == '?') {
      if (sci) {
        ++exp_digits;
        continue;
      }
      digits = true;
      if (in_decimals) {
        ++decimals;
        if (c == '0') required_decimals = decimals;
      } else if (c == '0') {
        ++int_zeros;
      }
    } else if (c == '.' && !in_decimals && !after && !sci) {
      in_decimals = true;
      digits = true;
    } else if (c == ',' && digits && !in_decimals && !after) {
      if (i + 1 < s.size() && (s[i + 1] == '0' || s[i + 1] == '#' || s[i + 1] == '?')) thousands = true;
      else ++trailing_commas;
    } else if ((c == 'E' || c == 'e') && digits && i + 1 < s.size() && (s[i + 1] == '+' || s[i + 1] == '-')) {
      sci = true;
      in_decimals = false;
      ++i;
    } else if (c == '%') {
      percent = true;
      lit("%");
    } else if (c == '@') {
      lit(general_number(value));
    } else {
      lit(s.substr(i, 1));
    }
  }
  if (!digits) return prefix + suffix;  // a section of text only ("-" for zero in accounting)
  const bool negative = value < 0 && !explicit_sign_section;
  double v = std::fabs(value);
  if (percent) v *= 100;
  for (int k = 0; k < trailing_commas; ++k) v /= 1000;
  std::string number;
  if (sci) {
    int exponent = v == 0 ? 0 : static_cast<int>(std::floor(std::log10(v)));
    double mantissa = v == 0 ? 0 : v / std::pow(10.0, exponent);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, mantissa);
    if (std::string_view(buf).starts_with("10")) {  // rounded up to the next power
      ++exponent;
      std::snprintf(buf, sizeof buf, "%.*f", decimals, mantissa / 10);
    }
    number = std::string(buf) + (exponent < 0 ? "E-" : "E+") + zero_padded(std::abs(exponent), std::max(exp_digits, 1));
  } else {
    // Halves round away from zero, as Excel rounds (printf rounds them to even), and a value a
    // rounding error below a half (1.005 stored as 1.00499...) rounds up as its decimal form does.
    const double scale = std::pow(10.0, decimals);
    if (v * scale < 9e15) v = std::round(v * scale * (1 + 4 * DBL_EPSILON)) / scale;
    char buf[400];
    const auto done = compat::double_to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, decimals);  // as "%.*f"
    std::string text = done.ec == std::errc() ? std::string(buf, done.ptr) : general_number(v);
    const auto dot = text.find('.');
    std::string whole = text.substr(0, dot);
    std::string frac = dot == std::string::npos ? "" : text.substr(dot + 1);
    while (static_cast<int>(frac.size()) > required_decimals && !frac.empty() && frac.back() == '0') frac.pop_back();
    if (whole == "0" && int_zeros == 0) whole.clear();
    while (static_cast<int>(whole.size()) < int_zeros) whole.insert(whole.begin(), '0');
    if (thousands) whole = group_thousands(whole);
    number = whole + (frac.empty() && decimals == 0 ? "" : frac.empty() ? "" : "." + frac);
    if (number.empty()) number = "0";
  }
  std::string out = prefix + number + suffix;
  while (!out.empty() && out.back() == ' ') out.pop_back();
  while (!out.empty() && out.front() == ' ') out.erase(out.begin());
  return negative ? "-" + out : out;
}

}  // namespace

std::string_view builtin_format(unsigned id) { return id < kBuiltin.size() ? kBuiltin[id] : std::string_view(); }

bool is_date_format(std::string_view code) {
  const auto parts = sections(code);
  const std::string_view s = parts.front();
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = ascii_lower(s[i]);
    if (s[i] == '"') {
      const auto end = s.find('"', i + 1);
      if (end == std::string_view::npos) return false;
      i = end;
    } else if (s[i] == '\\' || s[i] == '_' || s[i] == '*') {
      ++i;
    } else if (s[i] == '[') {
      const auto end = s.find(']', i);
      const char k = i + 1 < s.size() ? ascii_lower(s[i + 1]) : 0;
      if (k == 'h' || k == 'm' || k == 's') return true;
      if (end == std::string_view::npos) return false;
      i = end;
    } else if (c == 'y' || c == 'd' || c == 'h' || c == 's' || c == 'm') {
      return true;
    } else if (c == '0' || c == '#' || c == '?') {
      return false;
    }
  }
  return false;
}

std::string general_number(double value) {
  if (std::isnan(value)) return "#NUM!";
  if (std::isinf(value)) return "#NUM!";
  char buf[64];
  // As printf's "%.15g" (the standard says so), without its locale and format-string cost: this
  // runs for every number shown.
  const auto done = compat::double_to_chars(buf, buf + sizeof buf, value, std::chars_format::general, 15);
  std::string s(buf, done.ptr);
  if (const auto e = s.find('e'); e != std::string::npos) {
    s[e] = 'E';
    // "1.5E+020" never happens with %g, but "1E+20" wants no leading zeros in the exponent.
    std::size_t digits = e + 2;
    while (digits + 1 < s.size() && s[digits] == '0') s.erase(digits, 1);
  }
  return s == "-0" ? "0" : s;
}

bool is_general_format(std::string_view code) { return code.empty() || is_general(code) || code == "@"; }

std::string format_number(double value, std::string_view code, bool date1904) {
  if (is_general_format(code)) return general_number(value);
  const auto parts = sections(code);
  std::string_view s = parts[0];
  bool explicit_sign = false;
  if (value < 0 && parts.size() >= 2) {
    s = parts[1];
    explicit_sign = true;
  } else if (value == 0 && parts.size() >= 3) {
    s = parts[2];
  }
  // Conditions ("[>100]") and fractions are beyond this formatter: General, which loses nothing.
  for (std::size_t i = 0; i + 1 < s.size(); ++i)
    if (s[i] == '[' && (s[i + 1] == '<' || s[i + 1] == '>' || s[i + 1] == '=')) return general_number(value);
  if (s.find('/') != std::string_view::npos && s.find('?') != std::string_view::npos) return general_number(value);
  if (is_general(s)) return general_number(explicit_sign ? -value : value);
  if (is_date_format(s)) return format_date(value, s, date1904);
  return format_plain(value, s, explicit_sign);
}

std::string excel_error_text(unsigned code) {
  switch (code) {
    case 0x00: return "#NULL!";
    case 0x07: return "#DIV/0!";
    case 0x0F: return "#VALUE!";
    case 0x17: return "#REF!";
    case 0x1D: return "#NAME?";
    case 0x24: return "#NUM!";
    case 0x2A: return "#N/A";
    case 0x2B: return "#GETTING_DATA";
    default: return "#ERROR!";
  }
}

}  // namespace mcpread::readers::sheets
