#include "ocr_scripts.hpp"

#include "tess_api.hpp"

#include <algorithm>
#include <array>
#include <string_view>

namespace mcpread::readers::ocr {
namespace {

struct Script {
  std::string_view name;                    // as osd.traineddata names it
  std::array<std::string_view, 8> readers;  // languages that read it; the first is suggested
};

constexpr Script scripts[] = {
    {"Cyrillic", {"rus", "ukr", "bul", "srp", "bel", "mkd", "kaz", "script/Cyrillic"}},
    {"Greek", {"ell", "grc", "script/Greek"}},
    {"Arabic", {"ara", "fas", "urd", "pus", "uig", "script/Arabic"}},
    {"Hebrew", {"heb", "yid", "script/Hebrew"}},
    {"Han", {"chi_sim", "chi_tra", "jpn", "chi_sim_vert", "chi_tra_vert", "jpn_vert", "script/HanS", "script/HanT"}},
    {"Japanese", {"jpn", "jpn_vert", "script/Japanese"}},
    {"Katakana", {"jpn", "jpn_vert", "script/Japanese"}},
    {"Hiragana", {"jpn", "jpn_vert", "script/Japanese"}},
    {"Hangul", {"kor", "kor_vert", "script/Hangul"}},
    {"Korean", {"kor", "kor_vert", "script/Hangul"}},
    {"Devanagari", {"hin", "mar", "nep", "san", "script/Devanagari"}},
    {"Bengali", {"ben", "asm", "script/Bengali"}},
    {"Tamil", {"tam", "script/Tamil"}},
    {"Telugu", {"tel", "script/Telugu"}},
    {"Kannada", {"kan", "script/Kannada"}},
    {"Malayalam", {"mal", "script/Malayalam"}},
    {"Gujarati", {"guj", "script/Gujarati"}},
    {"Gurmukhi", {"pan", "script/Gurmukhi"}},
    {"Thai", {"tha", "script/Thai"}},
    {"Armenian", {"hye", "script/Armenian"}},
    {"Georgian", {"kat", "kat_old", "script/Georgian"}},
    {"Ethiopic", {"amh", "tir", "script/Ethiopic"}},
    {"Khmer", {"khm", "script/Khmer"}},
    {"Lao", {"lao", "script/Lao"}},
    {"Myanmar", {"mya", "script/Myanmar"}},
    {"Sinhala", {"sin", "script/Sinhala"}},
    {"Tibetan", {"bod", "script/Tibetan"}},
};

}  // namespace

std::string script_note(const std::string& script, const std::vector<std::string>& used) {
  const auto* s = std::find_if(std::begin(scripts), std::end(scripts), [&](const Script& x) { return x.name == script; });
  if (s == std::end(scripts)) return {};
  for (const auto& lang : used)
    if (std::find(s->readers.begin(), s->readers.end(), lang) != s->readers.end()) return {};
  std::string langs;
  for (const auto& lang : used) langs += (langs.empty() ? "" : ", ") + lang;
  const std::string suggested(s->readers[0]);
#if defined(_WIN32)
  const std::string where = traineddata_hint({suggested});
#else
  const std::string where = "Debian's " + language_package(suggested);
#endif
  return "The page looks like " + script + " script, which " + langs + (used.size() == 1 ? " does" : " do") +
         " not read: install its language data (e.g. " + where + ") and pass ocr_lang=\"" + suggested + "\".";
}

}  // namespace mcpread::readers::ocr
