#include "sheets/date_format.hpp"

#include "mcpread/common/ascii.hpp"

#include "sheets/number_format.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

namespace mcpread::readers::sheets {
namespace {

using common::ascii_lower;

constexpr auto kMonths = std::to_array<std::string_view>({"January", "February", "March", "April", "May", "June", "July",
                                                          "August", "September", "October", "November", "December"});
constexpr auto kDays = std::to_array<std::string_view>({"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday",
                                                        "Friday", "Saturday"});

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
    const char c = ascii_lower(s[i]);
    auto run = [&](char ch) {
      std::size_t j = i;
      while (j < s.size() && ascii_lower(s[j]) == ch) ++j;
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
      const char k = in.empty() ? 0 : ascii_lower(in[0]);
      if (k == 'h') out.push_back({DateToken::elapsed_h, static_cast<int>(in.size()), {}, 0});
      else if (k == 'm') out.push_back({DateToken::elapsed_m, static_cast<int>(in.size()), {}, 0});
      else if (k == 's') out.push_back({DateToken::elapsed_s, static_cast<int>(in.size()), {}, 0});
      else if (in.starts_with("$")) lit(in.substr(1, in.find('-') == std::string_view::npos ? in.size() - 1 : in.find('-') - 1));
      i = end == std::string_view::npos ? s.size() : end + 1;
    } else if (c == 'a' && i + 5 <= s.size() && ascii_lower(s[i + 1]) == 'm' && s[i + 2] == '/' && ascii_lower(s[i + 3]) == 'p' &&
               ascii_lower(s[i + 4]) == 'm') {
      out.push_back({DateToken::ampm, 5, std::string(s.substr(i, 5)), 0});
      i += 5;
    } else if (c == 'a' && i + 3 <= s.size() && s[i + 1] == '/' && ascii_lower(s[i + 2]) == 'p') {
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

}  // namespace

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
      case DateToken::year: out += t.width <= 2 ? zero_padded(y % 100, 2) : zero_padded(y, 4); break;
      case DateToken::month:
        if (t.width <= 2) out += zero_padded(m, t.width);
        else if (t.width == 3) out += kMonths[m - 1].substr(0, 3);
        else if (t.width == 5) out += kMonths[m - 1].substr(0, 1);
        else out += kMonths[m - 1];
        break;
      case DateToken::day:
        if (t.width <= 2) out += zero_padded(d, t.width);
        else if (t.width == 3) out += kDays[static_cast<std::size_t>(weekday)].substr(0, 3);
        else out += kDays[static_cast<std::size_t>(weekday)];
        break;
      case DateToken::hour: out += zero_padded(twelve ? (hour % 12 == 0 ? 12 : hour % 12) : hour, std::min(t.width, 2)); break;
      case DateToken::minute: out += zero_padded(minute, std::min(t.width, 2)); break;
      case DateToken::second:
        out += zero_padded(second, std::min(t.width, 2));
        if (t.decimals > 0) out += "." + zero_padded(frac, decimals);
        break;
      case DateToken::ampm: {
        const bool pm = hour >= 12;
        if (t.width == 3) out += pm ? (t.text[0] == 'a' ? "p" : "P") : (t.text[0] == 'a' ? "a" : "A");
        else out += pm ? (t.text[0] == 'a' ? "pm" : "PM") : (t.text[0] == 'a' ? "am" : "AM");
        break;
      }
      case DateToken::elapsed_h: out += zero_padded(days * 24 + hour, t.width); break;
      case DateToken::elapsed_m: out += zero_padded((days * 24 + hour) * 60 + minute, t.width); break;
      case DateToken::elapsed_s: out += zero_padded(((days * 24 + hour) * 60 + minute) * 60 + second, t.width); break;
    }
  }
  return out;
}

std::string zero_padded(std::int64_t v, int width) {
  std::string s = std::to_string(v < 0 ? -v : v);
  while (static_cast<int>(s.size()) < width) s.insert(s.begin(), '0');
  return (v < 0 ? "-" : "") + s;
}

}  // namespace mcpread::readers::sheets
