// Second looks at multi-byte CJK text that uchardet leaves undecided or gets wrong. uchardet
// 0.0.7 knows EUC-JP and Shift_JIS but not their JIS X 0213 supersets (so a file with 𡚴 or か゚
// comes back with errors), and has no prober for Johab. A reading that leaves invalid sequences
// is never chosen over one that leaves none; among clean readings, the one whose characters are
// most its language's wins.
#include "charset_internal.hpp"
#include "utf8_internal.hpp"

#include <array>
#include <string_view>

namespace mcpread::readers::charset_detail {
namespace {

enum class Language { chinese, japanese, korean };

struct Candidate {
  const char* decoder;
  Language language;
};

// The stricter decoders first (fewer byte pairs are valid in them, so a clean reading is
// stronger evidence): they win a tie. GB18030 accepts almost any pair of high bytes and comes last.
constexpr std::array kCandidates{
    Candidate{"JOHAB", Language::korean},        Candidate{"EUC-JISX0213", Language::japanese},
    Candidate{"EUC-JP", Language::japanese},     Candidate{"CP949", Language::korean},
    Candidate{"BIG5-HKSCS", Language::chinese},  Candidate{"CP932", Language::japanese},
    Candidate{"SHIFT_JISX0213", Language::japanese}, Candidate{"GB18030", Language::chinese},
};

bool hangul_syllable(char32_t c) { return c >= 0xAC00 && c <= 0xD7A3; }
// Half-width katakana (U+FF66..U+FF9F) are left out: Windows-31J reads any byte 0xA1..0xDF as
// one, so they are what random high bytes become.
bool kana(char32_t c) { return (c >= 0x3040 && c <= 0x30FF) || (c >= 0x31F0 && c <= 0x31FF); }
bool han(char32_t c) {
  return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0xF900 && c <= 0xFAFF) ||
         (c >= 0x20000 && c <= 0x2FFFF);
}
// CJK punctuation, full-width forms and the combining sound marks (か゚).
bool cjk_punctuation(char32_t c) {
  return (c >= 0x3000 && c <= 0x303F) || (c >= 0xFF01 && c <= 0xFF65) || c == 0x309A || c == 0x3099;
}

// Latin letters with tone marks (ā, Ê̄): Pinyin and Jyutping in Chinese text, which is why
// GB2312 and HKSCS encode them.
bool romanisation(char32_t c) {
  return (c >= 0xC0 && c <= 0x24F && c != 0xD7 && c != 0xF7) || (c >= 0x300 && c <= 0x36F);
}

// True when at least half of the multi-byte characters of a GB18030 reading are GB2312's (lead
// and trail bytes 0xA1..0xFE): the 6,763 characters of GB2312 are nearly all of what Chinese
// text uses, and GBK's rarer additions and the four-byte sequences are what other charsets'
// bytes become when read as GB18030.
bool mostly_gb2312(std::span<const unsigned char> s) {
  std::size_t core = 0;
  std::size_t other = 0;
  for (std::size_t i = 0; i + 1 < s.size();) {
    if (s[i] < 0x81) {
      ++i;
      continue;
    }
    if (s[i + 1] >= 0x30 && s[i + 1] <= 0x39) {  // four bytes
      ++other;
      i += 4;
      continue;
    }
    ++(s[i] >= 0xA1 && s[i + 1] >= 0xA1 ? core : other);
    i += 2;
  }
  return core >= other;
}

char32_t code_point(const unsigned char* p, std::size_t len) {
  char32_t c = len == 4 ? p[0] & 0x07 : len == 3 ? p[0] & 0x0F : len == 2 ? p[0] & 0x1F : p[0];
  for (std::size_t k = 1; k < len; ++k) c = (c << 6) | (p[k] & 0x3F);
  return c;
}

// How much of the non-ASCII text is `language`'s, in thousandths; 0 for a reading with C1
// controls or private-use characters, for Japanese without kana and Korean without Hangul
// (what real text in those languages always has), and for fewer than 8 characters (too little
// to tell).
std::size_t plausibility(const std::string& text, Language language) {
  std::size_t non_ascii = 0;
  std::size_t fitting = 0;
  std::size_t kana_seen = 0;
  std::size_t hangul_seen = 0;
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  for (std::size_t i = 0; i < n;) {
    const auto seq = utf8::detail::next_sequence(p + i, n - i);
    const char32_t c = code_point(p + i, seq.len);
    i += seq.len;
    if (c < 0x80) continue;
    ++non_ascii;
    if (c < 0xA0 || (c >= 0xE000 && c <= 0xF8FF)) return 0;
    if (kana(c)) ++kana_seen;
    if (hangul_syllable(c)) ++hangul_seen;
    const bool fits = han(c) || cjk_punctuation(c) ||
                      (language == Language::japanese && kana(c)) ||
                      (language == Language::korean && hangul_syllable(c)) ||
                      (language == Language::chinese && romanisation(c));
    if (fits) ++fitting;
  }
  if (non_ascii < 8) return 0;
  if (language == Language::japanese && kana_seen == 0) return 0;
  if (language == Language::korean && hangul_seen == 0) return 0;
  return fitting * 1000 / non_ascii;
}

bool clean(std::span<const unsigned char> sample, const char* decoder) {
  return decode_sample(sample, decoder, false).replacements == 0;
}

}  // namespace

std::string cjk_reading(std::span<const unsigned char> sample, const std::string& answer) {
  if (!answer.empty() && clean(sample, answer.c_str())) return {};
  // JIS X 0213 is a superset of JIS X 0208: Japanese that EUC-JP or Windows-31J cannot read
  // may be in its EUC or Shift_JIS form.
  if (answer == "EUC-JP" && clean(sample, "EUC-JISX0213")) return "EUC-JISX0213";
  if (answer == "CP932" && clean(sample, "SHIFT_JISX0213")) return "SHIFT_JISX0213";
  // At least 60% of the non-ASCII characters must fit the language.
  std::size_t best_score = 600;
  std::string best;
  for (const auto& c : kCandidates) {
    // Most candidates fail within the first few KiB: only the rest are tried on the whole sample.
    if (sample.size() > 4096 && !clean(sample.first(4096), c.decoder)) continue;
    const auto trial = decode_sample(sample, c.decoder, false);
    if (trial.replacements > 0) continue;
    if (std::string_view(c.decoder) == "GB18030" && !mostly_gb2312(sample)) continue;
    const std::size_t score = plausibility(trial.text, c.language);
    if (score > best_score || (best.empty() && score == best_score)) {
      best_score = score;
      best = c.decoder;
    }
  }
  return best;
}

}  // namespace mcpread::readers::charset_detail
