#include "notebook_text.hpp"

#include "mcpread/readers/utf8.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

namespace mcpread::readers::notebook_text {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }
bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }
unsigned char byte(char c) { return static_cast<unsigned char>(c); }

bool starts_with_ci(std::string_view s, std::size_t at, std::string_view prefix) {
  if (s.size() - std::min(at, s.size()) < prefix.size()) return false;
  for (std::size_t k = 0; k < prefix.size(); ++k)
    if (lower(s[at + k]) != prefix[k]) return false;
  return true;
}

void append_code_point(std::uint32_t cp, std::string& out) {
  if (cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) cp = 0xFFFD;
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// The entity at in[i] == '&': its text and length, or 0 when it is not one we know.
std::size_t decode_entity(std::string_view in, std::size_t i, std::string& text) {
  const std::size_t semi = in.find(';', i + 1);
  if (semi == std::string_view::npos || semi - i > 12) return 0;
  const std::string_view name = in.substr(i + 1, semi - i - 1);
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 7> named = {{
      {"lt", "<"}, {"gt", ">"}, {"amp", "&"}, {"quot", "\""}, {"apos", "'"}, {"nbsp", " "},
      {"#39", "'"}}};
  for (const auto& [n, t] : named) {
    if (name == n) {
      text = t;
      return semi - i + 1;
    }
  }
  if (name.size() < 2 || name[0] != '#') return 0;
  const bool hex = name[1] == 'x' || name[1] == 'X';
  const std::string_view digits = name.substr(hex ? 2 : 1);
  if (digits.empty() || digits.size() > 7) return 0;
  std::uint32_t cp = 0;
  for (char c : digits) {
    std::uint32_t d = 0;
    if (is_digit(c))
      d = static_cast<std::uint32_t>(c - '0');
    else if (hex && lower(c) >= 'a' && lower(c) <= 'f')
      d = static_cast<std::uint32_t>(lower(c) - 'a' + 10);
    else
      return 0;
    cp = cp * (hex ? 16u : 10u) + d;
  }
  text.clear();
  append_code_point(cp == 0xA0 ? 0x20 : cp, text);
  return semi - i + 1;
}

// Tags after which (or before which) the text continues on a new line.
bool is_block_tag(std::string_view name) {
  static constexpr std::array<std::string_view, 30> blocks = {
      "p",      "div",     "tr",    "table",  "thead",      "tbody",  "tfoot",  "ul",
      "ol",     "li",      "dl",    "dt",     "dd",         "h1",     "h2",     "h3",
      "h4",     "h5",      "h6",    "pre",    "blockquote", "section", "article", "header",
      "footer", "caption", "hr",    "title",  "figure",     "details"};
  return std::find(blocks.begin(), blocks.end(), name) != blocks.end();
}

// Blank-line runs collapsed to one, trailing blanks removed from each line, blank lines removed
// at both ends.
std::string tidy_lines(std::string_view in) {
  std::string out;
  std::size_t blank_run = 0;
  std::size_t pos = 0;
  while (pos <= in.size()) {
    std::size_t end = in.find('\n', pos);
    if (end == std::string_view::npos) end = in.size();
    std::string_view line = in.substr(pos, end - pos);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
    if (line.empty()) {
      ++blank_run;
    } else {
      if (!out.empty()) out += blank_run > 0 ? "\n\n" : "\n";
      out += line;
      blank_run = 0;
    }
    pos = end + 1;
  }
  return out;
}

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

std::string html_to_text(std::string_view in) {
  std::string out;
  out.reserve(in.size() / 2);
  bool pending_space = false;
  int pre = 0;
  const auto emit = [&](std::string_view t) {
    if (pending_space && !out.empty() && out.back() != '\n' && out.back() != ' ' && out.back() != '\t')
      out += ' ';
    pending_space = false;
    out += t;
  };
  const auto newline = [&] {
    while (!out.empty() && (out.back() == ' ' || out.back() == '\t')) out.pop_back();
    out += '\n';
    pending_space = false;
  };
  // Block tags start a new line, but do not stack blank lines.
  const auto block_break = [&] {
    while (!out.empty() && (out.back() == ' ' || out.back() == '\t')) out.pop_back();
    if (!out.empty() && out.back() != '\n') out += '\n';
    pending_space = false;
  };
  const std::size_t n = in.size();
  std::size_t i = 0;
  while (i < n) {
    const char c = in[i];
    if (c == '<') {
      if (in.compare(i, 4, "<!--") == 0) {
        const std::size_t end = in.find("-->", i + 4);
        i = end == std::string_view::npos ? n : end + 3;
        continue;
      }
      std::size_t j = i + 1;
      const bool closing = j < n && in[j] == '/';
      if (closing) ++j;
      if (j < n && !closing && (in[j] == '!' || in[j] == '?')) {  // <!DOCTYPE ...>, <?xml ...?>
        const std::size_t end = in.find('>', j);
        i = end == std::string_view::npos ? n : end + 1;
        continue;
      }
      if (j >= n || !is_alpha(in[j])) {  // a lone "<", as in "a < b"
        emit("<");
        ++i;
        continue;
      }
      std::string name;
      while (j < n && (is_alpha(in[j]) || is_digit(in[j]) || in[j] == '-' || in[j] == ':'))
        name += lower(in[j++]);
      // The end of the tag, skipping quoted attribute values.
      char quote = 0;
      while (j < n && (quote || in[j] != '>')) {
        if (quote) {
          if (in[j] == quote) quote = 0;
        } else if (in[j] == '"' || in[j] == '\'') {
          quote = in[j];
        }
        ++j;
      }
      if (j >= n) {  // unterminated: not a tag after all
        emit("<");
        ++i;
        continue;
      }
      const bool self_closing = in[j - 1] == '/';
      i = j + 1;
      if (!closing && !self_closing && (name == "script" || name == "style")) {
        std::size_t k = i;
        while (k < n && !(in[k] == '<' && starts_with_ci(in, k + 1, "/" + name))) ++k;
        const std::size_t end = k < n ? in.find('>', k) : std::string_view::npos;
        i = end == std::string_view::npos ? n : end + 1;
        continue;
      }
      if (name == "pre") pre = std::max(0, pre + (closing ? -1 : 1));
      if (name == "br") {
        newline();
      } else if (name == "li" && !closing) {
        block_break();
        out += "- ";
      } else if (is_block_tag(name)) {
        block_break();
      } else if ((name == "td" || name == "th") && closing) {
        out += '\t';
        pending_space = false;
      }
      continue;
    }
    if (c == '&') {
      std::string text;
      if (const std::size_t len = decode_entity(in, i, text); len > 0) {
        emit(text);
        i += len;
        continue;
      }
      emit("&");
      ++i;
      continue;
    }
    if (is_space(c)) {
      if (pre > 0) {
        if (c == '\n') newline();
        else if (c != '\r') out += c;
      } else {
        pending_space = true;
      }
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < n && in[j] != '<' && in[j] != '&' && !is_space(in[j])) ++j;
    emit(in.substr(i, j - i));
    i = j;
  }
  return tidy_lines(out);
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

// Table-driven, four digits at a time when no whitespace or padding intervenes: notebooks hold
// megabytes of image base64, and decoding it a character at a time through push_back was a
// quarter of a notebook read's time.
std::optional<std::string> base64_decode(std::string_view in) {
  // 0-63: the digit's value (standard and URL-safe alphabets); kSpace: skipped; kPad: '=';
  // kBad: anything else.
  static constexpr std::uint8_t kSpace = 64, kPad = 65, kBad = 66;
  static constexpr std::array<std::uint8_t, 256> table = [] {
    std::array<std::uint8_t, 256> t{};
    t.fill(kBad);
    for (int i = 0; i < 26; ++i) {
      t[static_cast<std::size_t>('A' + i)] = static_cast<std::uint8_t>(i);
      t[static_cast<std::size_t>('a' + i)] = static_cast<std::uint8_t>(26 + i);
    }
    for (int i = 0; i < 10; ++i)
      t[static_cast<std::size_t>('0' + i)] = static_cast<std::uint8_t>(52 + i);
    t['+'] = t['-'] = 62;
    t['/'] = t['_'] = 63;
    t['='] = kPad;
    for (const char c : {' ', '\t', '\n', '\r', '\f'}) t[static_cast<unsigned char>(c)] = kSpace;
    return t;
  }();
  std::string out(in.size() / 4 * 3 + 3, '\0');
  char* o = out.data();
  const auto* p = reinterpret_cast<const unsigned char*>(in.data());
  const auto* const end = p + in.size();
  std::uint32_t acc = 0;
  int bits = 0;
  bool padding = false;
  while (p < end) {
    if (bits == 0 && !padding && end - p >= 4) {
      const std::uint32_t a = table[p[0]], b = table[p[1]], c = table[p[2]], d = table[p[3]];
      if ((a | b | c | d) < 64) {
        const std::uint32_t v = a << 18 | b << 12 | c << 6 | d;
        o[0] = static_cast<char>(v >> 16);
        o[1] = static_cast<char>(v >> 8);
        o[2] = static_cast<char>(v);
        o += 3;
        p += 4;
        continue;
      }
    }
    const std::uint8_t v = table[*p++];
    if (v == kSpace) continue;
    if (v == kPad) {
      padding = true;
      continue;
    }
    if (v == kBad || padding) return std::nullopt;  // not base64, or data after the padding
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      *o++ = static_cast<char>((acc >> bits) & 0xFF);
    }
  }
  out.resize(static_cast<std::size_t>(o - out.data()));
  return out;
}

Cut middle_cut(std::string_view s, std::size_t head, std::size_t tail_begin) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  head = std::min(head, s.size());
  tail_begin = std::clamp(tail_begin, head, s.size());
  while (head > 0 && head < s.size() && (p[head] & 0xC0) == 0x80) --head;
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
