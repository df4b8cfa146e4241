#include "sheets/number_format.hpp"

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

constexpr auto kMonths = std::to_array<std::string_view>({"January", "February", "March", "April", "May", "June", "July",
                                                          "August", "September", "October", "November", "December"});
constexpr auto kDays = std::to_array<std::string_view>({"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday",
                                                        "Friday", "Saturday"});

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

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

// Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
void civil(std::int64_t z, int* y, unsigned* m, unsigned* d) {
  z += 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const auto doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  *d = doy - (153 * mp + 2) / 5 + 1;
  *m = mp < 10 ? mp + 3 : mp - 9;
  *y = static_cast<int>(yoe + era * 400 + (*m <= 2));
}

// "General" in any case ("GENERAL" is written too).
bool is_general(std::string_view s) {
  constexpr std::string_view kGeneral = "general";
  if (s.size() != kGeneral.size()) return false;
  for (std::size_t i = 0; i < s.size(); ++i)
    if (lower(s[i]) != kGeneral[i]) return false;
  return true;
}

std::string pad(std::int64_t v, int width) {
  std::string s = std::to_string(v < 0 ? -v : v);
  while (static_cast<int>(s.size()) < width) s.insert(s.begin(), '0');
  return (v < 0 ? "-" : "") + s;
}

struct DateToken {
  enum Kind { literal, year, month, day, hour, minute, second, ampm, elapsed_h, elapsed_m, elapsed_s } kind;
  int width = 0;     // letters written (yy, mmm, ...)
  std::string text;  // literal text, or the AM/PM spelling
  int decimals = 0;  // seconds: fraction digits shown (ss.00)
};

std::vector<DateToken> date_tokens(std::string_view s) {
  std::vector<DateToken> out;
  auto lit = [&](std::string_view t) {
    if (!out.empty() && out.back().kind == DateToken::literal) out.back().text += t;
    else out.push_back({DateToken::literal, 0, std::string(t), 0});
  };
  for (std::size_t i = 0; i < s.size();) {
    const char c = lower(s[i]);
    auto run = [&](char ch) {
      std::size_t j = i;
      while (j < s.size() && lower(s[j]) == ch) ++j;
      return static_cast<int>(j - i);
    };
    if (s[i] == '"') {
      const auto end = s.find('"', i + 1);
      lit(s.substr(i + 1, (end == std::string_view::npos ? s.size() : end) - i - 1));
      i = end == std::string_view::npos ? s.size() : end + 1;
    } else if (s[i] == '\\' && i + 1 < s.size()) {
      lit(s.substr(i + 1, 1));
      i += 2;
    } else if (s[i] == '_' || s[i] == '*') {
      i += 2;
    } else if (s[i] == '[') {
      const auto end = s.find(']', i);
      const std::string_view in = s.substr(i + 1, (end == std::string_view::npos ? s.size() : end) - i - 1);
      const char k = in.empty() ? 0 : lower(in[0]);
      if (k == 'h') out.push_back({DateToken::elapsed_h, static_cast<int>(in.size()), {}, 0});
      else if (k == 'm') out.push_back({DateToken::elapsed_m, static_cast<int>(in.size()), {}, 0});
      else if (k == 's') out.push_back({DateToken::elapsed_s, static_cast<int>(in.size()), {}, 0});
      else if (in.starts_with("$")) lit(in.substr(1, in.find('-') == std::string_view::npos ? in.size() - 1 : in.find('-') - 1));
      i = end == std::string_view::npos ? s.size() : end + 1;
    } else if (c == 'a' && i + 5 <= s.size() && lower(s[i + 1]) == 'm' && s[i + 2] == '/' && lower(s[i + 3]) == 'p' &&
               lower(s[i + 4]) == 'm') {
      out.push_back({DateToken::ampm, 5, std::string(s.substr(i, 5)), 0});
      i += 5;
    } else if (c == 'a' && i + 3 <= s.size() && s[i + 1] == '/' && lower(s[i + 2]) == 'p') {
      out.push_back({DateToken::ampm, 3, std::string(s.substr(i, 3)), 0});
      i += 3;
    } else if (c == 'y' || c == 'm' || c == 'd' || c == 'h' || c == 's') {
      const int n = run(c);
      DateToken::Kind k = c == 'y' ? DateToken::year : c == 'm' ? DateToken::month : c == 'd' ? DateToken::day
                        : c == 'h' ? DateToken::hour : DateToken::second;
      out.push_back({k, n, {}, 0});
      i += static_cast<std::size_t>(n);
      if (k == DateToken::second && i + 1 < s.size() && s[i] == '.' && s[i + 1] == '0') {
        int z = 0;
        for (++i; i < s.size() && s[i] == '0'; ++i) ++z;
        out.back().decimals = std::min(z, 3);
      }
    } else {
      lit(s.substr(i, 1));
      ++i;
    }
  }
  // m after an hour or before a second is minutes.
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (out[i].kind != DateToken::month || out[i].width > 2) continue;
    bool minute = false;
    for (std::size_t j = i; j-- > 0;)
      if (out[j].kind != DateToken::literal) {
        minute = out[j].kind == DateToken::hour || out[j].kind == DateToken::elapsed_h;
        break;
      }
    for (std::size_t j = i + 1; !minute && j < out.size(); ++j)
      if (out[j].kind != DateToken::literal) {
        minute = out[j].kind == DateToken::second || out[j].kind == DateToken::elapsed_s;
        break;
      }
    if (minute) out[i].kind = DateToken::minute;
  }
  return out;
}

std::string format_date(double value, std::string_view section, bool date1904) {
  const std::vector<DateToken> tokens = date_tokens(section);
  int decimals = 0;
  bool twelve = false;
  for (const auto& t : tokens) {
    if (t.kind == DateToken::second) decimals = std::max(decimals, t.decimals);
    if (t.kind == DateToken::ampm) twelve = true;
  }
  if (value < 0 || value > 2958465.99999) return general_number(value);  // past 9999-12-31: Excel shows ####
  const double scale = std::pow(10.0, decimals);
  const auto ticks = static_cast<std::int64_t>(std::llround(value * 86400.0 * scale));
  const std::int64_t per_day = 86400 * static_cast<std::int64_t>(scale);
  const std::int64_t days = ticks / per_day;
  const std::int64_t in_day = ticks % per_day;
  const std::int64_t secs = in_day / static_cast<std::int64_t>(scale);
  const std::int64_t frac = in_day % static_cast<std::int64_t>(scale);
  int y = 1900;
  unsigned m = 1, d = 0;
  std::int64_t weekday_days = 0;
  if (date1904) {
    civil(days - 24107, &y, &m, &d);  // 1904-01-01 is day -24107 from 1970
    weekday_days = days - 24107;
  } else if (days == 60) {
    y = 1900, m = 2, d = 29;  // Lotus's leap day, which Excel keeps
    weekday_days = -25509;
  } else if (days == 0) {
    y = 1900, m = 1, d = 0;
    weekday_days = -25568;
  } else {
    const std::int64_t unix_days = days - (days < 60 ? 25568 : 25569);
    civil(unix_days, &y, &m, &d);
    weekday_days = unix_days;
  }
  const int weekday = static_cast<int>(((weekday_days % 7) + 11) % 7);  // 1970-01-01 was a Thursday
  const std::int64_t hour = secs / 3600, minute = secs / 60 % 60, second = secs % 60;
  std::string out;
  for (const auto& t : tokens) {
    switch (t.kind) {
      case DateToken::literal: out += t.text; break;
      case DateToken::year: out += t.width <= 2 ? pad(y % 100, 2) : pad(y, 4); break;
      case DateToken::month:
        if (t.width <= 2) out += pad(m, t.width);
        else if (t.width == 3) out += kMonths[m - 1].substr(0, 3);
        else if (t.width == 5) out += kMonths[m - 1].substr(0, 1);
        else out += kMonths[m - 1];
        break;
      case DateToken::day:
        if (t.width <= 2) out += pad(d, t.width);
        else if (t.width == 3) out += kDays[static_cast<std::size_t>(weekday)].substr(0, 3);
        else out += kDays[static_cast<std::size_t>(weekday)];
        break;
      case DateToken::hour: out += pad(twelve ? (hour % 12 == 0 ? 12 : hour % 12) : hour, std::min(t.width, 2)); break;
      case DateToken::minute: out += pad(minute, std::min(t.width, 2)); break;
      case DateToken::second:
        out += pad(second, std::min(t.width, 2));
        if (t.decimals > 0) out += "." + pad(frac, decimals);
        break;
      case DateToken::ampm: {
        const bool pm = hour >= 12;
        if (t.width == 3) out += pm ? (t.text[0] == 'a' ? "p" : "P") : (t.text[0] == 'a' ? "a" : "A");
        else out += pm ? (t.text[0] == 'a' ? "pm" : "PM") : (t.text[0] == 'a' ? "am" : "AM");
        break;
      }
      case DateToken::elapsed_h: out += pad(days * 24 + hour, t.width); break;
      case DateToken::elapsed_m: out += pad((days * 24 + hour) * 60 + minute, t.width); break;
      case DateToken::elapsed_s: out += pad(((days * 24 + hour) * 60 + minute) * 60 + second, t.width); break;
    }
  }
  return out;
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
    number = std::string(buf) + (exponent < 0 ? "E-" : "E+") + pad(std::abs(exponent), std::max(exp_digits, 1));
  } else {
    // Halves round away from zero, as Excel rounds (printf rounds them to even), and a value a
    // rounding error below a half (1.005 stored as 1.00499...) rounds up as its decimal form does.
    const double scale = std::pow(10.0, decimals);
    if (v * scale < 9e15) v = std::round(v * scale * (1 + 4 * DBL_EPSILON)) / scale;
    char buf[400];
    const auto done = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, decimals);  // as "%.*f"
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
    const char c = lower(s[i]);
    if (s[i] == '"') {
      const auto end = s.find('"', i + 1);
      if (end == std::string_view::npos) return false;
      i = end;
    } else if (s[i] == '\\' || s[i] == '_' || s[i] == '*') {
      ++i;
    } else if (s[i] == '[') {
      const auto end = s.find(']', i);
      const char k = i + 1 < s.size() ? lower(s[i + 1]) : 0;
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
  const auto done = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::general, 15);
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

}  // namespace mcpread::readers::sheets
