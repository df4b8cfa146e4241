#include "rtf/rtf_text.hpp"

#include "mcpread/readers/utf8.hpp"
#include "utf8_internal.hpp"

#include <array>
#include <utility>

namespace mcpread::readers::rtf {
std::string codepage_name(int codepage) {
  static constexpr std::array<std::pair<int, const char*>, 24> kNames = {{
      {437, "CP437"},          {850, "CP850"},          {852, "CP852"},          {866, "IBM866"},
      {874, "WINDOWS-874"},    {932, "CP932"},          {936, "GB18030"},        {949, "CP949"},
      {950, "BIG5-HKSCS"},     {1250, "WINDOWS-1250"},  {1251, "WINDOWS-1251"},  {1252, "WINDOWS-1252"},
      {1253, "WINDOWS-1253"},  {1254, "WINDOWS-1254"},  {1255, "WINDOWS-1255"},  {1256, "WINDOWS-1256"},
      {1257, "WINDOWS-1257"},  {1258, "WINDOWS-1258"},  {10000, "MACINTOSH"},    {10007, "MAC-CYRILLIC"},
      {20866, "KOI8-R"},       {21866, "KOI8-U"},       {28591, "WINDOWS-1252"}, {65001, "UTF-8"},
  }};
  for (const auto& [number, name] : kNames)
    if (number == codepage) return name;
  return {};
}

int charset_codepage(int charset) {
  switch (charset) {
    case 77: return 10000;   // Mac Roman
    case 128: return 932;    // Shift JIS
    case 129: return 949;    // Hangul
    case 134: return 936;    // GB2312
    case 136: return 950;    // Big5
    case 161: return 1253;   // Greek
    case 162: return 1254;   // Turkish
    case 163: return 1258;   // Vietnamese
    case 177: return 1255;   // Hebrew
    case 178: return 1256;   // Arabic
    case 186: return 1257;   // Baltic
    case 204: return 1251;   // Russian
    case 222: return 874;    // Thai
    case 238: return 1250;   // Eastern European
    case 254: return 437;    // PC 437
    case 255: return 850;    // OEM
    default: return 0;       // ANSI (0), default (1), symbol (2) and the rest: the document's
  }
}

void TextDecoder::use_codepage(int codepage) {
  if (codepage == codepage_) return;
  decode_pending();
  codepage_ = codepage;
}

void TextDecoder::add_unit(std::int32_t unit) {
  decode_pending();
  const auto u = static_cast<char16_t>(unit < 0 ? unit + 65536 : unit);
  if (u == 0) units_.finish(ready_);  // \u0 is no character
  else units_.add(u, ready_);
}

void TextDecoder::decode_pending() {
  if (pending_.empty()) return;
  units_.finish(ready_);  // bytes between the halves of a pair
  const int codepage = codepage_ != 0 ? codepage_ : document_codepage_;
  std::string name = codepage_name(codepage);
  if (name.empty()) name = "WINDOWS-1252";  // a code page without a decoder here: the usual one
  if (name == "UTF-8") {
    ready_ += utf8::sanitized(pending_);
  } else {
    auto& converter = converters_[name];
    if (!converter) converter = std::make_unique<Utf8Converter>(name);
    if (converter->ok()) converter->convert(pending_, ready_, true);
    else ready_ += utf8::sanitized(pending_);  // no decoder on this system: ASCII survives
  }
  pending_.clear();
}

void TextDecoder::flush(std::string& out) {
  decode_pending();
  units_.finish(ready_);
  out += ready_;
  ready_.clear();
}

}  // namespace mcpread::readers::rtf
