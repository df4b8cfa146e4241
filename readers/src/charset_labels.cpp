// Encoding labels as the WHATWG Encoding Standard maps them to decoders. Browsers decode a page
// labelled shift_jis with the Windows-31J table (so 0x5C is '\', not '¥'), euc-kr with
// windows-949, gb2312 with GBK and iso-8859-1 with windows-1252: files from the same places use
// the same supersets, and the narrower tables turn their extra characters into errors.
#include "charset_internal.hpp"

#include <array>

namespace mcpread::readers::charset_detail {
namespace {

struct Label {
  std::string_view key;      // upper case, '_' and ' ' written as '-'
  std::string_view decoder;  // iconv name, or ICU's for HZ-GB-2312
};

// The labels of https://encoding.spec.whatwg.org/#names-and-labels for the encodings that have
// a decoder here, plus common spellings (SJIS, MS932, UHC) that mean the same. iso-2022-kr,
// which the standard maps to its replacement decoder, is decoded as what it is.
constexpr std::array kLabels{
    Label{"UTF-8", "UTF-8"},           Label{"UTF8", "UTF-8"},
    Label{"UTF-8-SIG", "UTF-8"},       Label{"UNICODE-1-1-UTF-8", "UTF-8"},
    Label{"UNICODE11UTF8", "UTF-8"},   Label{"UNICODE20UTF8", "UTF-8"},
    Label{"X-UNICODE20UTF8", "UTF-8"},
    Label{"UTF-16", "UTF-16"},         Label{"UTF16", "UTF-16"},
    Label{"UTF-16LE", "UTF-16LE"},     Label{"UTF16LE", "UTF-16LE"},
    Label{"UCS-2", "UTF-16LE"},        Label{"UNICODE", "UTF-16LE"},
    Label{"UNICODEFEFF", "UTF-16LE"},  Label{"ISO-10646-UCS-2", "UTF-16LE"},
    Label{"UTF-16BE", "UTF-16BE"},     Label{"UTF16BE", "UTF-16BE"},
    Label{"UNICODEFFFE", "UTF-16BE"},
    Label{"UTF-32", "UTF-32"},         Label{"UTF32", "UTF-32"},
    Label{"UTF-32LE", "UTF-32LE"},     Label{"UTF32LE", "UTF-32LE"},
    Label{"UTF-32BE", "UTF-32BE"},     Label{"UTF32BE", "UTF-32BE"},
    // windows-1252
    Label{"ANSI-X3.4-1968", "WINDOWS-1252"}, Label{"ASCII", "WINDOWS-1252"},
    Label{"US-ASCII", "WINDOWS-1252"}, Label{"CP1252", "WINDOWS-1252"},
    Label{"CP-1252", "WINDOWS-1252"},  Label{"CP819", "WINDOWS-1252"},
    Label{"CSISOLATIN1", "WINDOWS-1252"}, Label{"IBM819", "WINDOWS-1252"},
    Label{"ISO-8859-1", "WINDOWS-1252"}, Label{"ISO-IR-100", "WINDOWS-1252"},
    Label{"ISO8859-1", "WINDOWS-1252"}, Label{"ISO88591", "WINDOWS-1252"},
    Label{"ISO-8859-1:1987", "WINDOWS-1252"}, Label{"L1", "WINDOWS-1252"},
    Label{"LATIN1", "WINDOWS-1252"},   Label{"LATIN-1", "WINDOWS-1252"},
    Label{"WINDOWS-1252", "WINDOWS-1252"},
    Label{"WIN1252", "WINDOWS-1252"},  Label{"X-CP1252", "WINDOWS-1252"},
    Label{"ANSI", "WINDOWS-1252"},
    // windows-1254
    Label{"CP1254", "WINDOWS-1254"},   Label{"CSISOLATIN5", "WINDOWS-1254"},
    Label{"ISO-8859-9", "WINDOWS-1254"}, Label{"ISO-IR-148", "WINDOWS-1254"},
    Label{"ISO8859-9", "WINDOWS-1254"}, Label{"ISO88599", "WINDOWS-1254"},
    Label{"ISO-8859-9:1989", "WINDOWS-1254"}, Label{"L5", "WINDOWS-1254"},
    Label{"LATIN5", "WINDOWS-1254"},   Label{"WINDOWS-1254", "WINDOWS-1254"},
    Label{"X-CP1254", "WINDOWS-1254"},
    // windows-874
    Label{"DOS-874", "WINDOWS-874"},   Label{"ISO-8859-11", "WINDOWS-874"},
    Label{"ISO8859-11", "WINDOWS-874"}, Label{"ISO885911", "WINDOWS-874"},
    Label{"TIS-620", "WINDOWS-874"},   Label{"WINDOWS-874", "WINDOWS-874"},
    Label{"CP874", "WINDOWS-874"},
    // Shift_JIS, decoded as Windows-31J
    Label{"CSSHIFTJIS", "CP932"},      Label{"MS-KANJI", "CP932"},
    Label{"SHIFT-JIS", "CP932"},       Label{"SJIS", "CP932"},
    Label{"S-JIS", "CP932"},           Label{"SHIFTJIS", "CP932"},
    Label{"WINDOWS-31J", "CP932"},     Label{"X-SJIS", "CP932"},
    Label{"CP932", "CP932"},           Label{"MS932", "CP932"},
    // EUC-KR, decoded as windows-949 (UHC)
    Label{"CSEUCKR", "CP949"},         Label{"CSKSC56011987", "CP949"},
    Label{"EUC-KR", "CP949"},          Label{"EUCKR", "CP949"},
    Label{"ISO-IR-149", "CP949"},      Label{"KOREAN", "CP949"},
    Label{"KS-C-5601-1987", "CP949"},  Label{"KS-C-5601-1989", "CP949"},
    Label{"KSC5601", "CP949"},         Label{"KSC-5601", "CP949"},
    Label{"WINDOWS-949", "CP949"},     Label{"CP949", "CP949"},
    Label{"UHC", "CP949"},             Label{"MS949", "CP949"},
    // GBK, decoded as GB18030 (its superset)
    Label{"CHINESE", "GB18030"},       Label{"CSGB2312", "GB18030"},
    Label{"CSISO58GB231280", "GB18030"}, Label{"GB2312", "GB18030"},
    Label{"GB-2312", "GB18030"},       Label{"GB-2312-80", "GB18030"},
    Label{"GBK", "GB18030"},           Label{"ISO-IR-58", "GB18030"},
    Label{"X-GBK", "GB18030"},         Label{"CP936", "GB18030"},
    Label{"MS936", "GB18030"},         Label{"WINDOWS-936", "GB18030"},
    Label{"EUC-CN", "GB18030"},        Label{"EUCCN", "GB18030"},
    Label{"GB18030", "GB18030"},       Label{"GB-18030", "GB18030"},
    // Big5, decoded as Big5-HKSCS
    Label{"BIG5", "BIG5-HKSCS"},       Label{"BIG-5", "BIG5-HKSCS"},
    Label{"BIG5-HKSCS", "BIG5-HKSCS"}, Label{"CN-BIG5", "BIG5-HKSCS"},
    Label{"CSBIG5", "BIG5-HKSCS"},     Label{"X-X-BIG5", "BIG5-HKSCS"},
    // Japanese
    Label{"CSEUCPKDFMTJAPANESE", "EUC-JP"}, Label{"EUC-JP", "EUC-JP"},
    Label{"EUCJP", "EUC-JP"},          Label{"X-EUC-JP", "EUC-JP"},
    Label{"UJIS", "EUC-JP"},
    Label{"CSISO2022JP", "ISO-2022-JP"}, Label{"ISO-2022-JP", "ISO-2022-JP"},
    Label{"CSISO2022KR", "ISO-2022-KR"}, Label{"ISO-2022-KR", "ISO-2022-KR"},
    Label{"HZ-GB-2312", "HZ-GB-2312"}, Label{"HZ", "HZ-GB-2312"},
    // Cyrillic
    Label{"866", "IBM866"},            Label{"CP866", "IBM866"},
    Label{"CSIBM866", "IBM866"},       Label{"IBM866", "IBM866"},
    Label{"KOI8-R", "KOI8-R"},         Label{"KOI8R", "KOI8-R"},
    Label{"KOI", "KOI8-R"},            Label{"KOI8", "KOI8-R"},
    Label{"CSKOI8R", "KOI8-R"},        Label{"KOI8-U", "KOI8-U"},
    Label{"KOI8U", "KOI8-U"},          Label{"KOI8-RU", "KOI8-U"},
};

// Other names of the decoder itself rather than of a narrower charset it stands in for: a
// report need not say that cp1252 was read as WINDOWS-1252.
constexpr std::array<std::string_view, 22> kSpellings{
    "UTF8",       "UTF-8-SIG",   "UTF16",    "UTF16LE",  "UTF16BE",   "UTF32",
    "UTF32LE",    "UTF32BE",     "CP1252",   "CP-1252",  "WIN1252",   "X-CP1252",
    "CP1254",     "X-CP1254",    "CP874",    "DOS-874",  "WINDOWS-31J", "MS932",
    "WINDOWS-949", "MS949",      "UHC",      "GB-18030",
};

}  // namespace

bool spelling_of_decoder(std::string_view key) {
  for (auto s : kSpellings)
    if (s == key) return true;
  return false;
}

std::string_view web_decoder(std::string_view key) {
  for (const auto& label : kLabels)
    if (label.key == key) return label.decoder;
  return {};
}

bool decoded_by_icu(std::string_view name) { return name == "HZ-GB-2312"; }

}  // namespace mcpread::readers::charset_detail
