// Which charset a file that did not decode cleanly is likelier to be in. Single-byte code pages
// decode any byte, so errors alone cannot rank them: the decoded text is also scored by how much
// it reads as words of one script, with lower-case letters not followed by capitals inside a
// word. Greek in CP737 read as CP866 gives Cyrillic words with capitals in the middle
// (0x98..0x9F are α..θ in one and Ш..Я in the other); read as CP437 it gives box drawing.
#include "charset_internal.hpp"
#include "mcpread/readers/hint.hpp"
#include "mcpread/readers/charset.hpp"
#include "utf8_internal.hpp"

#include <algorithm>
#include <array>

namespace mcpread::readers {
namespace {

struct Candidate {
  std::string_view label;    // what to pass as `encoding`
  std::string_view decoder;  // iconv name
};

constexpr std::array kCandidates{
    Candidate{"windows-1252", "WINDOWS-1252"}, Candidate{"windows-1250", "WINDOWS-1250"},
    Candidate{"windows-1251", "WINDOWS-1251"}, Candidate{"windows-1253", "WINDOWS-1253"},
    Candidate{"windows-1254", "WINDOWS-1254"}, Candidate{"windows-1255", "WINDOWS-1255"},
    Candidate{"windows-1256", "WINDOWS-1256"}, Candidate{"windows-1257", "WINDOWS-1257"},
    Candidate{"windows-1258", "WINDOWS-1258"}, Candidate{"koi8-r", "KOI8-R"},
    Candidate{"cp437", "CP437"},               Candidate{"cp850", "CP850"},
    Candidate{"cp852", "CP852"},               Candidate{"cp737", "CP737"},
    Candidate{"cp866", "IBM866"},
};

enum class Script { none, latin, greek, cyrillic, hebrew, arabic, thai };
enum class Case { none, upper, lower };

struct Letter {
  Script script = Script::none;
  Case letter_case = Case::none;
};

Letter classify(char32_t c) {
  if ((c >= 'A' && c <= 'Z')) return {Script::latin, Case::upper};
  if ((c >= 'a' && c <= 'z')) return {Script::latin, Case::lower};
  if (c >= 0xC0 && c <= 0xDE && c != 0xD7) return {Script::latin, Case::upper};
  if (c >= 0xDF && c <= 0xFF && c != 0xF7) return {Script::latin, Case::lower};
  if (c >= 0x100 && c <= 0x17F) {
    // Capitals come first in each pair, at even code points, except in Ĺ..ň and Ź..ž (odd);
    // ĸ and ſ have no capital.
    if (c == 0x138 || c == 0x17F) return {Script::latin, Case::lower};
    const bool odd_capitals = (c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E);
    return {Script::latin, (c % 2 == 1) == odd_capitals ? Case::upper : Case::lower};
  }
  if (c >= 0x180 && c <= 0x24F) return {Script::latin, Case::none};
  if (c == 0x386 || (c >= 0x388 && c <= 0x3AB)) return {Script::greek, Case::upper};
  if (c >= 0x3AC && c <= 0x3CE) return {Script::greek, Case::lower};
  if (c >= 0x400 && c <= 0x42F) return {Script::cyrillic, Case::upper};
  if (c >= 0x430 && c <= 0x45F) return {Script::cyrillic, Case::lower};
  if (c >= 0x490 && c <= 0x4FF) return {Script::cyrillic, c % 2 == 0 ? Case::upper : Case::lower};
  if (c >= 0x5D0 && c <= 0x5EA) return {Script::hebrew, Case::none};
  if (c >= 0x620 && c <= 0x64A) return {Script::arabic, Case::none};
  if (c >= 0xE01 && c <= 0xE4E) return {Script::thai, Case::none};
  return {};
}

// Punctuation that real text in these code pages has: no-break space, « », °, dashes, quotes, €.
bool neutral(char32_t c) {
  return c == 0xA0 || c == 0xAB || c == 0xBB || c == 0xB0 || c == 0xB7 || c == 0x20AC ||
         (c >= 0x2010 && c <= 0x203A);
}

char32_t decode_one(const unsigned char* p, std::size_t len) {
  switch (len) {
    case 2: return (static_cast<char32_t>(p[0] & 0x1F) << 6) | (p[1] & 0x3F);
    case 3:
      return (static_cast<char32_t>(p[0] & 0x0F) << 12) | (static_cast<char32_t>(p[1] & 0x3F) << 6) |
             (p[2] & 0x3F);
    case 4:
      return (static_cast<char32_t>(p[0] & 0x07) << 18) | (static_cast<char32_t>(p[1] & 0x3F) << 12) |
             (static_cast<char32_t>(p[2] & 0x3F) << 6) | (p[3] & 0x3F);
    default: return p[0];
  }
}

// Lower is likelier.
std::size_t implausibility(const std::string& text) {
  std::size_t bad = 0;
  std::array<std::size_t, 7> per_script{};
  Letter previous;  // the previous character when it was a letter of this word
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  for (std::size_t i = 0; i < n;) {
    const auto seq = utf8::detail::next_sequence(p + i, n - i);
    const char32_t c = seq.valid ? decode_one(p + i, seq.len) : 0xFFFD;
    i += seq.len;
    if (c == 0xFFFD) bad += 10;
    const Letter l = classify(c);
    if (l.script == Script::none) {
      if (c >= 0x80 && c != 0xFFFD && !neutral(c)) ++bad;  // box drawing, symbols, C1 controls
      previous = {};
      continue;
    }
    if (c >= 0x80) ++per_script[static_cast<std::size_t>(l.script)];
    if (previous.script != Script::none) {
      if (previous.script != l.script) bad += 2;
      if (previous.letter_case == Case::lower && l.letter_case == Case::upper) bad += 2;
    }
    previous = l;
  }
  // Non-ASCII letters outside the text's main script.
  std::size_t all = 0;
  std::size_t most = 0;
  for (std::size_t k : per_script) {
    all += k;
    most = std::max(most, k);
  }
  return bad + (all - most);
}

// More valid multi-byte UTF-8 sequences than invalid ones: UTF-8 with damage, where another
// charset would turn every good character into two wrong ones.
bool utf8_with_damage(std::span<const unsigned char> sample) {
  std::size_t valid = 0;
  std::size_t invalid = 0;
  const unsigned char* p = sample.data();
  for (std::size_t i = 0; i < sample.size();) {
    const auto seq = utf8::detail::next_sequence(p + i, sample.size() - i);
    if (p[i] >= 0x80) ++(seq.valid ? valid : invalid);
    i += seq.len;
  }
  return valid > invalid;
}

}  // namespace

namespace charset_detail {

std::size_t implausibility_of(std::span<const unsigned char> sample, const std::string& decoder) {
  return implausibility(decode_sample(sample, decoder, false).text);
}

std::string single_byte_decoder(std::string_view name) {
  for (const auto& c : kCandidates)
    if (c.decoder == name) return std::string(c.decoder);
  return {};
}

std::string likeliest_single_byte(std::span<const unsigned char> sample, std::size_t* score) {
  std::string best;
  *score = static_cast<std::size_t>(-1);
  for (const auto& c : kCandidates) {
    const std::size_t k = implausibility_of(sample, std::string(c.decoder));
    if (k < *score) {
      *score = k;
      best = c.decoder;
    }
  }
  return best;
}

}  // namespace charset_detail

std::vector<std::string> likely_charsets(std::span<const unsigned char> sample, std::size_t max) {
  struct Ranked {
    std::size_t score;
    std::size_t order;
  };
  std::vector<Ranked> ranked;
  for (std::size_t k = 0; k < kCandidates.size(); ++k) {
    const auto trial =
        charset_detail::decode_sample(sample, std::string(kCandidates[k].decoder), false);
    ranked.push_back({implausibility(trial.text), k});
  }
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const Ranked& a, const Ranked& b) { return a.score < b.score; });
  std::vector<std::string> out;
  for (std::size_t k = 0; k < ranked.size() && out.size() < max; ++k)
    out.emplace_back(kCandidates[ranked[k].order].label);
  return out;
}

// The footer line for U+FFFD in the shown lines: how many, and which charsets the file is
// likelier to be in, with the argument that reads it in the first.
std::string replacement_note(std::uint64_t count, const std::string& charset,
                             std::span<const unsigned char> sample, const Wording& wording) {
  std::string note = "[" + std::to_string(count) + (count == 1 ? " byte sequence" : " byte sequences") +
                     " not valid in " + charset + (count == 1 ? " is" : " are") +
                     " shown as U+FFFD.";
  if (charset == "UTF-8" && utf8_with_damage(sample)) return note + "]";
  std::vector<std::string> likely = likely_charsets(sample, 4);
  std::erase_if(likely, [&](const std::string& label) {
    DetectedCharset same;
    return resolve_encoding_name(label, &same) && same.name == charset;
  });
  if (likely.size() > 3) likely.resize(3);
  if (likely.empty()) return note + "]";
  note += " If the file is in another charset, the likeliest are ";
  for (std::size_t i = 0; i < likely.size(); ++i) {
    if (i > 0) note += i + 1 == likely.size() ? " and " : ", ";
    note += likely[i];
  }
  return note + ": " + wording.say({.encoding = likely[0]}, HintForm::call_again) + ".]";
}

}  // namespace mcpread::readers
