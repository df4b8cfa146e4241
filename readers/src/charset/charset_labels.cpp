// Encoding labels as the WHATWG Encoding Standard maps them to decoders. Browsers decode a page
// labelled shift_jis with the Windows-31J table (so 0x5C is '\', not '¥'), euc-kr with
// windows-949, gb2312 with GBK and iso-8859-1 with windows-1252: files from the same places use
// the same supersets, and the narrower tables turn their extra characters into errors. The names
// here are iconv's; whatwg_decoder.cpp decodes those the standard defines with its decoders.
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
    // The other single-byte encodings, each decoded by the table of its own name (ISO-8859-8-I
    // is ISO-8859-8 in logical order, which is how text files hold it).
    Label{"CSISOLATIN2", "ISO-8859-2"}, Label{"ISO-8859-2", "ISO-8859-2"},
    Label{"ISO-IR-101", "ISO-8859-2"}, Label{"ISO8859-2", "ISO-8859-2"},
    Label{"ISO88592", "ISO-8859-2"}, Label{"ISO-8859-2:1987", "ISO-8859-2"},
    Label{"L2", "ISO-8859-2"}, Label{"LATIN2", "ISO-8859-2"},
    Label{"CSISOLATIN3", "ISO-8859-3"}, Label{"ISO-8859-3", "ISO-8859-3"},
    Label{"ISO-IR-109", "ISO-8859-3"}, Label{"ISO8859-3", "ISO-8859-3"},
    Label{"ISO88593", "ISO-8859-3"}, Label{"ISO-8859-3:1988", "ISO-8859-3"},
    Label{"L3", "ISO-8859-3"}, Label{"LATIN3", "ISO-8859-3"},
    Label{"CSISOLATIN4", "ISO-8859-4"}, Label{"ISO-8859-4", "ISO-8859-4"},
    Label{"ISO-IR-110", "ISO-8859-4"}, Label{"ISO8859-4", "ISO-8859-4"},
    Label{"ISO88594", "ISO-8859-4"}, Label{"ISO-8859-4:1988", "ISO-8859-4"},
    Label{"L4", "ISO-8859-4"}, Label{"LATIN4", "ISO-8859-4"},
    Label{"CSISOLATINCYRILLIC", "ISO-8859-5"}, Label{"CYRILLIC", "ISO-8859-5"},
    Label{"ISO-8859-5", "ISO-8859-5"}, Label{"ISO-IR-144", "ISO-8859-5"},
    Label{"ISO8859-5", "ISO-8859-5"}, Label{"ISO88595", "ISO-8859-5"},
    Label{"ISO-8859-5:1988", "ISO-8859-5"},
    Label{"ARABIC", "ISO-8859-6"}, Label{"ASMO-708", "ISO-8859-6"},
    Label{"CSISO88596E", "ISO-8859-6"}, Label{"CSISO88596I", "ISO-8859-6"},
    Label{"CSISOLATINARABIC", "ISO-8859-6"}, Label{"ECMA-114", "ISO-8859-6"},
    Label{"ISO-8859-6", "ISO-8859-6"}, Label{"ISO-8859-6-E", "ISO-8859-6"},
    Label{"ISO-8859-6-I", "ISO-8859-6"}, Label{"ISO-IR-127", "ISO-8859-6"},
    Label{"ISO8859-6", "ISO-8859-6"}, Label{"ISO88596", "ISO-8859-6"},
    Label{"ISO-8859-6:1987", "ISO-8859-6"},
    Label{"CSISOLATINGREEK", "ISO-8859-7"}, Label{"ECMA-118", "ISO-8859-7"},
    Label{"ELOT-928", "ISO-8859-7"}, Label{"GREEK", "ISO-8859-7"}, Label{"GREEK8", "ISO-8859-7"},
    Label{"ISO-8859-7", "ISO-8859-7"}, Label{"ISO-IR-126", "ISO-8859-7"},
    Label{"ISO8859-7", "ISO-8859-7"}, Label{"ISO88597", "ISO-8859-7"},
    Label{"ISO-8859-7:1987", "ISO-8859-7"}, Label{"SUN-EU-GREEK", "ISO-8859-7"},
    Label{"CSISO88598E", "ISO-8859-8"}, Label{"CSISOLATINHEBREW", "ISO-8859-8"},
    Label{"HEBREW", "ISO-8859-8"}, Label{"ISO-8859-8", "ISO-8859-8"},
    Label{"ISO-8859-8-E", "ISO-8859-8"}, Label{"ISO-IR-138", "ISO-8859-8"},
    Label{"ISO8859-8", "ISO-8859-8"}, Label{"ISO88598", "ISO-8859-8"},
    Label{"ISO-8859-8:1988", "ISO-8859-8"}, Label{"VISUAL", "ISO-8859-8"},
    Label{"CSISO88598I", "ISO-8859-8"}, Label{"ISO-8859-8-I", "ISO-8859-8"},
    Label{"LOGICAL", "ISO-8859-8"},
    Label{"CSISOLATIN6", "ISO-8859-10"}, Label{"ISO-8859-10", "ISO-8859-10"},
    Label{"ISO-IR-157", "ISO-8859-10"}, Label{"ISO8859-10", "ISO-8859-10"},
    Label{"ISO885910", "ISO-8859-10"}, Label{"L6", "ISO-8859-10"}, Label{"LATIN6", "ISO-8859-10"},
    Label{"ISO-8859-13", "ISO-8859-13"}, Label{"ISO8859-13", "ISO-8859-13"},
    Label{"ISO885913", "ISO-8859-13"},
    Label{"ISO-8859-14", "ISO-8859-14"}, Label{"ISO8859-14", "ISO-8859-14"},
    Label{"ISO885914", "ISO-8859-14"},
    Label{"CSISOLATIN9", "ISO-8859-15"}, Label{"ISO-8859-15", "ISO-8859-15"},
    Label{"ISO8859-15", "ISO-8859-15"}, Label{"ISO885915", "ISO-8859-15"},
    Label{"L9", "ISO-8859-15"},
    Label{"ISO-8859-16", "ISO-8859-16"},
    Label{"CP1250", "WINDOWS-1250"}, Label{"WINDOWS-1250", "WINDOWS-1250"},
    Label{"X-CP1250", "WINDOWS-1250"},
    Label{"CP1251", "WINDOWS-1251"}, Label{"WINDOWS-1251", "WINDOWS-1251"},
    Label{"X-CP1251", "WINDOWS-1251"},
    Label{"CP1253", "WINDOWS-1253"}, Label{"WINDOWS-1253", "WINDOWS-1253"},
    Label{"X-CP1253", "WINDOWS-1253"},
    Label{"CP1255", "WINDOWS-1255"}, Label{"WINDOWS-1255", "WINDOWS-1255"},
    Label{"X-CP1255", "WINDOWS-1255"},
    Label{"CP1256", "WINDOWS-1256"}, Label{"WINDOWS-1256", "WINDOWS-1256"},
    Label{"X-CP1256", "WINDOWS-1256"},
    Label{"CP1257", "WINDOWS-1257"}, Label{"WINDOWS-1257", "WINDOWS-1257"},
    Label{"X-CP1257", "WINDOWS-1257"},
    Label{"CP1258", "WINDOWS-1258"}, Label{"WINDOWS-1258", "WINDOWS-1258"},
    Label{"X-CP1258", "WINDOWS-1258"},
    Label{"CSMACINTOSH", "MACINTOSH"}, Label{"MAC", "MACINTOSH"}, Label{"MACINTOSH", "MACINTOSH"},
    Label{"X-MAC-ROMAN", "MACINTOSH"},
    Label{"X-MAC-CYRILLIC", "MAC-CYRILLIC"}, Label{"X-MAC-UKRAINIAN", "MAC-CYRILLIC"},
};

// Other names of the decoder itself rather than of a narrower charset it stands in for: a
// report need not say that cp1252 was read as WINDOWS-1252.
constexpr auto kSpellings = std::to_array<std::string_view>({
    "UTF8",       "UTF-8-SIG",   "UTF16",    "UTF16LE",  "UTF16BE",   "UTF32",
    "UTF32LE",    "UTF32BE",     "CP1252",   "CP-1252",  "WIN1252",   "X-CP1252",
    "CP1254",     "X-CP1254",    "CP874",    "DOS-874",  "WINDOWS-31J", "MS932",
    "WINDOWS-949", "MS949",      "UHC",      "GB-18030",
});

}  // namespace

bool spelling_of_decoder(std::string_view key) {
  for (auto s : kSpellings)
    if (s == key) return true;
  // Every label of these names the table its decoder uses: none stands for a narrower charset.
  const std::string_view decoder = web_decoder(key);
  if (decoder.starts_with("ISO-8859-") || decoder == "MACINTOSH" || decoder == "MAC-CYRILLIC") return true;
  return decoder.starts_with("WINDOWS-125") && decoder != "WINDOWS-1252" && decoder != "WINDOWS-1254";
}

std::string_view web_decoder(std::string_view key) {
  for (const auto& label : kLabels)
    if (label.key == key) return label.decoder;
  return {};
}

bool decoded_by_icu(std::string_view name) { return name == "HZ-GB-2312"; }

}  // namespace mcpread::readers::charset_detail
