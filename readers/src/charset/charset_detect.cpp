// Which charset a sample of a file is in: byte-order marks, UTF-16 without one, UTF-8, the
// 7-bit ISO-2022 and HZ encodings, then uchardet. Every answer names the decoder browsers use
// for it (charset_labels.cpp): uchardet's "SHIFT_JIS" is decoded as CP932.
#include "charset_internal.hpp"
#include "mcpread/readers/charset.hpp"
#include "utf8_internal.hpp"

#include <uchardet/uchardet.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <utility>

namespace mcpread::readers {

using charset_detail::upper;

namespace {

bool is_text_ascii(unsigned char c) { return c == 0x09 || c == 0x0A || c == 0x0D || (c >= 0x20 && c < 0x7F); }

// Mostly valid UTF-8: no invalid sequence, or at least 95% of the non-ASCII sequences valid.
// An incomplete sequence at the very end (the sample was cut there) does not count.
bool mostly_utf8(std::span<const unsigned char> s) {
  std::size_t valid = 0;
  std::size_t invalid = 0;
  std::size_t i = 0;
  const std::size_t n = s.size();
  while (i < n) {
    while (i + 8 <= n && utf8::detail::ascii8(s.data() + i)) i += 8;
    if (i >= n) break;
    if (s[i] < 0x80) {
      ++i;
      continue;
    }
    const auto seq = utf8::detail::next_sequence(s.data() + i, n - i);
    if (seq.valid) {
      ++valid;
    } else if (!seq.truncated) {
      ++invalid;
    }
    i += seq.len;
  }
  if (invalid == 0) return true;
  return valid * 100 >= 95 * (valid + invalid);
}

std::string ask_uchardet(std::span<const unsigned char> sample) {
  uchardet_t ud = uchardet_new();
  if (ud == nullptr) return {};
  std::string guess;
  if (uchardet_handle_data(ud, reinterpret_cast<const char*>(sample.data()), sample.size()) == 0) {
    uchardet_data_end(ud);
    const char* cs = uchardet_get_charset(ud);
    if (cs != nullptr) guess = cs;
  }
  uchardet_delete(ud);
  return guess;
}

// No byte with bit 7 set; eight bytes at a time (every text read asks).
bool all_seven_bit(std::span<const unsigned char> s) {
  std::uint64_t any = 0;
  std::size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    std::uint64_t w;
    std::memcpy(&w, s.data() + i, sizeof w);
    any |= w;
  }
  for (; i < s.size(); ++i) any |= s[i];
  return (any & 0x8080808080808080ull) == 0;
}

// memchr finds each candidate first byte: called on every 7-bit text read (for the ISO-2022 and
// HZ escapes), where a byte-wise std::search was a tenth of the read's instructions.
bool contains(std::span<const unsigned char> s, std::string_view what) {
  if (what.empty()) return true;
  const auto* p = s.data();
  const auto* end = s.data() + s.size();
  while (static_cast<std::size_t>(end - p) >= what.size()) {
    const void* hit = std::memchr(p, static_cast<unsigned char>(what[0]), static_cast<std::size_t>(end - p) - what.size() + 1);
    if (hit == nullptr) return false;
    p = static_cast<const unsigned char*>(hit);
    if (std::memcmp(p, what.data(), what.size()) == 0) return true;
    ++p;
  }
  return false;
}

// glibc's ISO-2022-JP knows ASCII, JIS X 0201 Roman and JIS X 0208; half-width katakana
// (ESC ( I) and JIS X 0213 need ISO-2022-JP-3, JIS X 0212 and the other ISO-2022-JP-2 sets
// need that one.
std::string iso2022_jp_variant(std::span<const unsigned char> s) {
  for (std::string_view esc : {"\x1B(I", "\x1B$(O", "\x1B$(P", "\x1B$(Q"})
    if (contains(s, esc)) return "ISO-2022-JP-3";
  for (std::string_view esc : {"\x1B$(D", "\x1B$A", "\x1B$(C", "\x1B.A", "\x1B.F"})
    if (contains(s, esc)) return "ISO-2022-JP-2";
  return "ISO-2022-JP";
}

std::string web_key(std::string s) {
  std::replace(s.begin(), s.end(), '_', '-');
  return s;
}

// Maps a uchardet answer to a decoder; empty name when the answer is of no use.
DetectedCharset from_uchardet(std::string_view guess, std::span<const unsigned char> sample) {
  const std::string g = upper(guess);
  if (g.empty() || g == "ASCII" || g == "UTF-8" || g.starts_with("UTF-") || g.starts_with("X-ISO-10646"))
    return {};
  std::string name;
  std::string label;  // kept when the web reads this label with another decoder
  if (g == "ISO-2022-JP") {
    name = iso2022_jp_variant(sample);
  } else if (g == "ISO-2022-CN") {
    name = contains(sample, "\x1B$+") ? "ISO-2022-CN-EXT" : "ISO-2022-CN";
  } else if (auto web = charset_detail::web_decoder(web_key(g)); !web.empty()) {
    name = web;
    if (!charset_detail::spelling_of_decoder(web_key(g))) label = g;
  } else if (charset_detail::iconv_knows(g)) {
    name = g;
  } else if (g.starts_with("X-") && charset_detail::iconv_knows(g.substr(2))) {
    name = g.substr(2);
  } else {
    return {};
  }
  return named_charset(name, 0, label);
}

// Hangul syllables, compatibility jamo (ㄱ, ㅠ) and circled Hangul (㉯).
bool hangul(char32_t c) {
  return (c >= 0xAC00 && c <= 0xD7A3) || (c >= 0x3131 && c <= 0x318E) ||
         (c >= 0x3200 && c <= 0x321E) || (c >= 0x3260 && c <= 0x327E);
}

// CJK ideographs, the main and extension blocks (HKSCS adds many in extension B).
bool ideograph(char32_t c) {
  return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x20000 && c <= 0x2FFFF);
}

// True when `decoder` decodes the sample without an error and at least 60% of the non-ASCII
// characters it gives are `script`'s.
bool decodes_to(std::span<const unsigned char> sample, const char* decoder, bool (*script)(char32_t)) {
  const auto trial = charset_detail::decode_sample(sample, decoder, false);
  if (trial.replacements > 0) return false;
  std::size_t non_ascii = 0;
  std::size_t in_script = 0;
  const auto* p = reinterpret_cast<const unsigned char*>(trial.text.data());
  const std::size_t n = trial.text.size();
  for (std::size_t i = 0; i < n;) {
    const auto seq = utf8::detail::next_sequence(p + i, n - i);
    if (p[i] >= 0x80) {
      ++non_ascii;
      char32_t c = seq.len == 4 ? p[i] & 0x07 : seq.len == 3 ? p[i] & 0x0F : p[i] & 0x1F;
      for (std::size_t k = 1; k < seq.len; ++k) c = (c << 6) | (p[i + k] & 0x3F);
      if (script(c)) ++in_script;
    }
    i += seq.len;
  }
  return non_ascii >= 8 && in_script * 10 >= non_ascii * 6;
}

// Decoded code units of UTF-16 text, as opposed to arbitrary 16-bit data: no C0 controls other
// than whitespace, no unpaired surrogates, no noncharacters, little private use.
bool plausible_utf16(std::span<const unsigned char> s, bool big_endian) {
  std::size_t private_use = 0;
  const std::size_t units = s.size() / 2;
  bool want_low = false;
  for (std::size_t i = 0; i < units; ++i) {
    const unsigned hi = s[2 * i + (big_endian ? 0 : 1)];
    const unsigned lo = s[2 * i + (big_endian ? 1 : 0)];
    const char16_t u = static_cast<char16_t>(hi << 8 | lo);
    const bool low = u >= 0xDC00 && u <= 0xDFFF;
    if (want_low != low) return false;
    want_low = u >= 0xD800 && u <= 0xDBFF;
    if (u < 0x20 && !(u == '\t' || u == '\n' || u == '\r' || u == '\f')) return false;
    if (u == 0x7F || u == 0xFFFE || u == 0xFFFF) return false;
    if (u >= 0xE000 && u <= 0xF8FF) ++private_use;
  }
  return private_use * 100 <= units;
}

// uchardet knows no DOS code page but CP866 and takes short Greek CP737 text for windows-1252:
// a single-byte answer among the ranked code pages gives way to one whose text reads far better
// (a quarter of the implausibility, or less). Its other single-byte answers (the ISO-8859
// parts, the Mac's tables) give way to a ranked code page that reads clearly better (half the
// implausibility, and two faults fewer: a single © read otherwise decides nothing): short
// Afrikaans in Latin-1 is no Mac Central European text when ê comes out as Í there.
DetectedCharset second_opinion(DetectedCharset d, std::span<const unsigned char> s) {
  const bool ranked = !charset_detail::single_byte_decoder(d.name).empty();
  if (!ranked && !d.name.starts_with("ISO-8859-") && !d.name.starts_with("MAC")) return d;
  s = s.first(std::min<std::size_t>(s.size(), 4096));  // 16 trial decodes: keep them cheap
  const std::size_t answer = charset_detail::implausibility_of(s, d.name);
  std::size_t score = 0;
  std::string best = charset_detail::likeliest_single_byte(s, &score);
  if (best.empty() || best == d.name) return d;
  if (ranked ? score * 4 + 4 > answer : score * 2 + 2 > answer) return d;
  return named_charset(std::move(best));
}

// The multi-byte CJK decoders uchardet's answers map to.
bool cjk_multibyte(std::string_view name) {
  for (std::string_view cjk : {"EUC-JP", "CP932", "SHIFT_JIS", "CP949", "EUC-KR", "GB18030", "GBK", "GB2312",
                               "BIG5", "BIG5-HKSCS", "EUC-TW"})
    if (name == cjk) return true;
  return false;
}

// KOI8-U is KOI8-R with і ї є ґ (and their capitals) where KOI8-R has box drawing, which
// uchardet does not know: those bytes next to Cyrillic letters are Ukrainian letters, not a
// table's border (which sits next to other box drawing and blanks).
DetectedCharset koi8_variant(DetectedCharset d, std::span<const unsigned char> s) {
  if (d.name != "KOI8-R") return d;
  auto ukrainian = [](unsigned char c) {
    return c == 0xA4 || c == 0xA6 || c == 0xA7 || c == 0xAD || c == 0xB4 || c == 0xB6 || c == 0xB7 || c == 0xBD;
  };
  auto letter = [](unsigned char c) { return c >= 0xC0 || c == 0xA3 || c == 0xB3; };  // а..Ъ, ё, Ё
  std::size_t in_words = 0;
  std::size_t apart = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (!ukrainian(s[i])) continue;
    const bool next_to_letter = (i > 0 && letter(s[i - 1])) || (i + 1 < s.size() && letter(s[i + 1]));
    ++(next_to_letter ? in_words : apart);
  }
  if (in_words > 0 && in_words >= apart) return named_charset("KOI8-U");
  return d;
}

// A charset the file declares in its first lines, when it decodes the sample cleanly (a
// declaration can be stale or wrong, and then detection decides). Declarations of UTF-8, which
// is recognised by its own structure, and of encodings that are not ASCII-compatible (the
// declaration itself would not be readable as ASCII in them) are left to detection.
DetectedCharset declared(std::span<const unsigned char> s) {
  const std::string label = charset_detail::declared_charset(s);
  DetectedCharset d;
  if (label.empty() || !resolve_encoding_name(label, &d)) return {};
  if (d.name == "UTF-8" || !d.ascii_compatible) return {};
  if (charset_detail::decode_sample(s, d.name, false).replacements > 0) return {};
  return d;
}

// With no answer from uchardet: the single-byte code page whose text reads best, when it reads
// well (at most one fault per ten non-ASCII bytes, of at least 16: a few bytes read well in
// some code page by chance). uchardet 0.0.7 has no answer for a Greek CP737 tutor, whose text
// reads without a single fault in CP737.
DetectedCharset best_single_byte(std::span<const unsigned char> s) {
  s = s.first(std::min<std::size_t>(s.size(), 4096));  // 15 trial decodes: keep them cheap
  const auto non_ascii = static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](unsigned char c) { return c >= 0x80; }));
  std::size_t score = 0;
  std::string best = charset_detail::likeliest_single_byte(s, &score);
  if (best.empty() || non_ascii < 16 || score * 10 > non_ascii) return {};
  return named_charset(std::move(best));
}

}  // namespace

DetectedCharset named_charset(std::string name, std::size_t bom, std::string label) {
  DetectedCharset d;
  d.ascii_compatible = charset_ascii_compatible(name);
  if (label == name) label.clear();
  d.name = std::move(name);
  d.label = std::move(label);
  d.bom_bytes = bom;
  return d;
}

std::string utf16_without_bom(std::span<const unsigned char> sample) {
  const std::size_t pairs = sample.size() / 2;
  if (pairs < 2) return {};
  // UTF-16 text of any kind has zero bytes; most files have none, and memchr says so fast.
  if (std::memchr(sample.data(), 0, sample.size()) == nullptr) return {};
  std::size_t le_text = 0;  // "a\0": ASCII text in the low byte, first
  std::size_t be_text = 0;  // "\0a"
  std::size_t nul_even = 0;
  std::size_t nul_odd = 0;
  std::array<bool, 256> seen_even{};
  std::array<bool, 256> seen_odd{};
  for (std::size_t i = 0; i < pairs; ++i) {
    const unsigned char a = sample[2 * i];
    const unsigned char b = sample[2 * i + 1];
    seen_even[a] = true;
    seen_odd[b] = true;
    if (a == 0) ++nul_even;
    if (b == 0) ++nul_odd;
    if (b == 0 && is_text_ascii(a)) ++le_text;
    if (a == 0 && is_text_ascii(b)) ++be_text;
  }
  // Mostly ASCII text (>= 70% of the code units) with NULs on one side only (<= 5% on the other).
  if (le_text * 10 >= pairs * 7 && nul_even * 20 <= pairs) return "UTF-16LE";
  if (be_text * 10 >= pairs * 7 && nul_odd * 20 <= pairs) return "UTF-16BE";
  // Text in other scripts (CJK, Cyrillic...): zero bytes only where ASCII characters have their
  // high byte, and fewer distinct values there (one script's blocks) than in the low byte.
  // (A zero low byte is no evidence against: U+4E00 is 一.) The decoded code units must then
  // read as text, which arbitrary 16-bit data does not.
  if (pairs < 32) return {};
  const auto distinct = [](const std::array<bool, 256>& seen) {
    return static_cast<std::size_t>(std::count(seen.begin(), seen.end(), true));
  };
  if (nul_even >= nul_odd && distinct(seen_even) * 3 <= distinct(seen_odd) * 2 &&
      plausible_utf16(sample.first(pairs * 2), true))
    return "UTF-16BE";
  if (nul_odd >= nul_even && distinct(seen_odd) * 3 <= distinct(seen_even) * 2 &&
      plausible_utf16(sample.first(pairs * 2), false))
    return "UTF-16LE";
  return {};
}

DetectedCharset detect_charset(std::span<const unsigned char> s) {
  auto starts = [&](std::initializer_list<unsigned char> bom) {
    return s.size() >= bom.size() && std::equal(bom.begin(), bom.end(), s.begin());
  };
  if (starts({0xEF, 0xBB, 0xBF})) return named_charset("UTF-8", 3);
  if (starts({0xFF, 0xFE, 0x00, 0x00})) return named_charset("UTF-32LE", 4);
  if (starts({0x00, 0x00, 0xFE, 0xFF})) return named_charset("UTF-32BE", 4);
  if (starts({0xFF, 0xFE})) return named_charset("UTF-16LE", 2);
  if (starts({0xFE, 0xFF})) return named_charset("UTF-16BE", 2);
  if (auto utf16 = utf16_without_bom(s); !utf16.empty()) return named_charset(std::move(utf16));
  const bool seven_bit = all_seven_bit(s);
  // ISO-2022 and HZ text is 7-bit, so it is valid UTF-8 too: its escape sequences (which
  // uchardet's escape prober knows) decide first.
  if (seven_bit && (contains(s, "\x1B") || contains(s, "~{"))) {
    const std::string g = upper(ask_uchardet(s));
    if (g.starts_with("ISO-2022") || g == "HZ-GB-2312") return from_uchardet(g, s);
  }
  if (mostly_utf8(s)) return named_charset("UTF-8");
  if (auto d = declared(s); !d.name.empty()) return d;
  if (auto d = from_uchardet(ask_uchardet(s), s); !d.name.empty()) {
    if (cjk_multibyte(d.name)) {
      if (auto cjk = charset_detail::cjk_reading(s, d.name); !cjk.empty()) return named_charset(std::move(cjk));
    }
    return koi8_variant(second_opinion(std::move(d), s), s);
  }
  // uchardet 0.0.7 gives no answer for much CP949 text (it knows EUC-KR's KS X 1001 pairs, not
  // the 8,822 syllables UHC adds), nor for Big5 with HKSCS characters, nor for Johab.
  if (decodes_to(s, "CP949", hangul)) return named_charset("CP949");
  if (decodes_to(s, "BIG5-HKSCS", ideograph)) return named_charset("BIG5-HKSCS");
  if (auto cjk = charset_detail::cjk_reading(s, {}); !cjk.empty()) return named_charset(std::move(cjk));
  if (auto d = best_single_byte(s); !d.name.empty()) return d;
  return named_charset("UTF-8");  // unknown: show as UTF-8, bad bytes as U+FFFD
}

DetectedCharset text_charset_of_binary(std::span<const unsigned char> s) {
  if (s.empty()) return {};
  if (std::memchr(s.data(), 0, s.size()) != nullptr) {
    if (auto utf16 = utf16_without_bom(s); !utf16.empty()) return named_charset(std::move(utf16));
    return {};
  }
  DetectedCharset d = detect_charset(s);
  if (d.name == "UTF-8") return {};  // the caller found it not to be clean UTF-8
  const auto trial = charset_detail::decode_sample(s, d.name, false);
  if (trial.replacements > 0) return {};
  // What decoding leaves must read as text: controls other than whitespace and escape (which
  // terminals and man pages use) are rare.
  std::size_t controls = 0;
  std::size_t chars = 0;
  const auto* p = reinterpret_cast<const unsigned char*>(trial.text.data());
  const std::size_t n = trial.text.size();
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned char c = p[i];
    if ((c & 0xC0) != 0x80) ++chars;
    const bool c1 = c == 0xC2 && i + 1 < n && p[i + 1] >= 0x80 && p[i + 1] <= 0x9F;
    if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != 0x1B) || c == 0x7F || c1)
      ++controls;
  }
  if (controls * 200 > chars) return {};
  return d;
}

}  // namespace mcpread::readers
