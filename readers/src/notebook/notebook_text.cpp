#include "notebook_text.hpp"

#include "mcpread/readers/utf8.hpp"

#include <algorithm>
#include <array>
#include <cstdint>

namespace mcpread::readers::notebook_text {

namespace {

bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
unsigned char byte(char c) { return static_cast<unsigned char>(c); }

bool is_base64_char(char c) {
  return is_alpha(c) || is_digit(c) || c == '+' || c == '/' || c == '=' || c == '-' || c == '_';
}

}  // namespace

std::string clean_terminal(std::string_view in) {
  std::string out;
  out.reserve(in.size());
  std::size_t line_start = 0;
  bool pending_cr = false;
  const std::size_t n = in.size();
  std::size_t i = 0;
  // Skips a CSI sequence's parameters, intermediates and final byte from in[j].
  const auto skip_csi = [&](std::size_t j) {
    while (j < n && byte(in[j]) >= 0x30 && byte(in[j]) <= 0x3F) ++j;
    while (j < n && byte(in[j]) >= 0x20 && byte(in[j]) <= 0x2F) ++j;
    if (j < n && byte(in[j]) >= 0x40 && byte(in[j]) <= 0x7E) ++j;
    return j;
  };
  while (i < n) {
    const char c = in[i];
    if (c == '\x1b') {
      if (i + 1 >= n) break;
      const char k = in[i + 1];
      if (k == '[') {
        i = skip_csi(i + 2);
      } else if (k == ']' || k == 'P' || k == '_' || k == '^' || k == 'X') {
        // OSC / DCS / APC / PM / SOS: up to BEL or ST (ESC \).
        std::size_t j = i + 2;
        while (j < n && in[j] != '\x07' && !(in[j] == '\x1b' && j + 1 < n && in[j + 1] == '\\')) ++j;
        i = j >= n ? n : (in[j] == '\x07' ? j + 1 : j + 2);
      } else if (byte(k) >= 0x20 && byte(k) <= 0x2F) {
        // ESC ( B and the like: a final byte, if it is one (never part of a UTF-8 sequence).
        i += (i + 2 < n && byte(in[i + 2]) >= 0x20 && byte(in[i + 2]) <= 0x7E) ? 3 : 2;
      } else if (byte(k) >= 0x30 && byte(k) <= 0x7E) {
        i += 2;  // ESC 7, ESC M, ...
      } else {
        i += 1;
      }
      continue;
    }
    if (byte(c) == 0xC2 && i + 1 < n && byte(in[i + 1]) == 0x9B) {  // 8-bit CSI as UTF-8
      i = skip_csi(i + 2);
      continue;
    }
    if (c == '\r') {
      if (i + 1 < n && in[i + 1] == '\n') {
        ++i;
        continue;
      }
      pending_cr = true;
      ++i;
      continue;
    }
    if (c == '\n') {
      out += '\n';
      line_start = out.size();
      pending_cr = false;
      ++i;
      continue;
    }
    if (c == '\b') {
      if (out.size() > line_start && byte(out.back()) < 0x80) out.pop_back();
      ++i;
      continue;
    }
    if ((byte(c) < 0x20 && c != '\t') || c == '\x7f') {
      ++i;
      continue;
    }
    if (pending_cr) {
      out.resize(line_start);
      pending_cr = false;
    }
    out += c;
    ++i;
  }
  return out;
}

std::string scrub_data_uris(std::string_view in) {
  static constexpr std::size_t kMinRun = 64;
  std::string out;
  std::size_t copied = 0;
  std::size_t pos = 0;
  while ((pos = in.find("data:", pos)) != std::string_view::npos) {
    std::size_t j = pos + 5;
    while (j < in.size() && (is_alpha(in[j]) || is_digit(in[j]) || in[j] == '/' || in[j] == '+' ||
                             in[j] == '.' || in[j] == '-'))
      ++j;
    // Parameters such as ";charset=utf-8" may come before ";base64,".
    const std::size_t rel = in.substr(j, 72).find(";base64,");
    const std::size_t b = rel == std::string_view::npos ? rel : j + rel;
    if (b == std::string_view::npos ||
        in.substr(j, b - j).find_first_of(" \t\n\"'<>()") != std::string_view::npos) {
      pos = j;
      continue;
    }
    const std::size_t payload = b + 8;
    std::size_t k = payload;
    while (k < in.size() && (is_base64_char(in[k]) || in[k] == '\n' || in[k] == '\r')) ++k;
    if (k - payload < kMinRun) {
      pos = k;
      continue;
    }
    out.append(in.substr(copied, payload - copied));
    out += "[\u2026 " + std::to_string(k - payload) + " base64 characters omitted \u2026]";
    copied = pos = k;
  }
  if (copied == 0) return std::string(in);
  out.append(in.substr(copied));
  return out;
}

Cut middle_cut(std::string_view s, std::size_t head, std::size_t tail_begin) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  head = std::min(head, s.size());
  tail_begin = std::clamp(tail_begin, head, s.size());
  head = utf8::fit_bytes(s, head);
  while (tail_begin < s.size() && (p[tail_begin] & 0xC0) == 0x80) ++tail_begin;
  // A line boundary is near when within a fifth of the part kept, or 40 bytes (at most half).
  const auto window = [](std::size_t part) { return std::max(part / 5, std::min<std::size_t>(40, part / 2)); };
  Cut cut{head, tail_begin};
  if (head > 0 && s[head - 1] != '\n') {
    const std::size_t nl = s.rfind('\n', head - 1);
    if (nl != std::string_view::npos && nl + 1 >= head - window(head)) cut.head_end = nl + 1;
  }
  if (tail_begin > 0 && tail_begin < s.size() && s[tail_begin - 1] != '\n') {
    const std::size_t nl = s.find('\n', tail_begin);
    if (nl != std::string_view::npos && nl + 1 <= tail_begin + window(s.size() - tail_begin))
      cut.tail_begin = nl + 1;
  }
  return cut;
}

std::string trim_output(std::string_view text, std::size_t max_chars, bool* trimmed) {
  *trimmed = false;
  if (max_chars == 0) return std::string(text);
  const std::size_t total = utf8::count_chars(text);
  if (total <= max_chars) return std::string(text);
  *trimmed = true;
  const std::size_t head_chars = max_chars / 2;
  const std::size_t tail_chars = max_chars - head_chars;
  const Cut cut = middle_cut(text, utf8::prefix_bytes(text, head_chars),
                             utf8::prefix_bytes(text, total - tail_chars));
  const std::size_t omitted =
      utf8::count_chars(text.substr(cut.head_end, cut.tail_begin - cut.head_end));
  std::string out(text.substr(0, cut.head_end));
  if (!out.empty() && out.back() != '\n') out += '\n';
  out += "[\u2026 " + std::to_string(omitted) + " characters of this output omitted \u2026]\n";
  out.append(text.substr(cut.tail_begin));
  return out;
}

std::string fence_for(std::string_view body) {
  std::size_t longest = 0;
  std::size_t run = 0;
  for (char c : body) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return std::string(std::max<std::size_t>(3, longest + 1), '`');
}

}  // namespace mcpread::readers::notebook_text
