// Utf8Converter gives the same UTF-8 whether a text arrives in one piece or cut anywhere: the
// text reader converts a file chunk by chunk, and where its chunks end must never show in what
// the model reads. Every split point (and every pair of them for short inputs, and one byte at a
// time) of a table of inputs, valid and invalid, in each charset the reader may be asked for.
#include "charsets_here.hpp"
#include "fixtures.hpp"
#include "mcpread/readers/charset.hpp"

#include <doctest/doctest.h>

#include <array>
#include <string>
#include <string_view>
#include <vector>

using mcpread::readers::Utf8Converter;

using mcpread::test::iconv_encode;

namespace {

// `bytes` converted with the chunks ending at `cuts` (ascending, inside the input).
std::string convert_cut(const std::string& charset, std::string_view bytes, const std::vector<std::size_t>& cuts) {
  Utf8Converter converter(charset);
  REQUIRE(converter.ok());
  std::string out;
  std::size_t at = 0;
  for (const std::size_t cut : cuts) {
    converter.convert(bytes.substr(at, cut - at), out, false);
    at = cut;
  }
  converter.convert(bytes.substr(at), out, true);
  return out;
}


void check_every_split(const std::string& charset, const std::string& bytes) {
  if (!mcpread::test::decoded_here(charset)) {
    MCPREAD_NOT_DECODED_HERE(charset);
    return;
  }
  CAPTURE(charset);
  CAPTURE(bytes);
  const std::string whole = convert_cut(charset, bytes, {});
  std::vector<std::size_t> each_byte;
  for (std::size_t cut = 1; cut < bytes.size(); ++cut) {
    CAPTURE(cut);
    REQUIRE(convert_cut(charset, bytes, {cut}) == whole);
    if (bytes.size() <= 24)
      for (std::size_t second = cut + 1; second < bytes.size(); ++second)
        REQUIRE(convert_cut(charset, bytes, {cut, second}) == whole);
    each_byte.push_back(cut);
  }
  REQUIRE(convert_cut(charset, bytes, each_byte) == whole);
}

constexpr std::array kCharsets{
    "UTF-8",     "UTF-16LE",       "UTF-16BE", "UTF-16",      "UTF-32LE",    "UTF-32BE",
    "SHIFT_JIS", "CP932",          "EUC-JP",   "EUC-JISX0213", "GB18030",    "BIG5",
    "BIG5-HKSCS", "EUC-KR",        "CP949",    "JOHAB",       "ISO-2022-JP", "ISO-2022-JP-2",
    "ISO-2022-KR", "ISO-2022-CN-EXT", "UTF-7", "WINDOWS-1252", "KOI8-R",     "CP1258",
    "TCVN"};

const std::string kText =
    "Plain ASCII first.\n"
    "Français : « déjà vu », naïve café — 12 €.\n"
    "Русский текст и Ελληνικά.\n"
    "日本語のテキスト、漢字とカタカナ。\n"
    "中文文本，简体字。\n"
    "한국어 텍스트입니다.\n"
    "Tiếng Việt có dấu.\n"
    "Emoji 😀 and the end.\n";

}  // namespace

TEST_CASE("charset chunks: real text in every charset, cut anywhere") {
  for (const char* charset : kCharsets) {
    const std::string bytes = iconv_encode(kText, charset, true);
    CHECK(!bytes.empty());
    check_every_split(charset, bytes);
  }
}

TEST_CASE("charset chunks: invalid and incomplete input, cut anywhere") {
  // Inputs that once gave different text when cut (each found by fuzzing or a brute-force search
  // over every split point), and the usual suspects: a lead byte at the end, a lone surrogate, a
  // shift without a designation, an escape sequence that stops halfway.
  struct Row {
    const char* charset;
    std::string bytes;
  };
  const std::vector<Row> rows{
      {"CP949", "\xA2\xE8\x24\x6F"},                     // unassigned pair: iconv steps over it
      {"CP949", "\x35\xB6\x8C\x1B\x0D\xA2\xE8\x2B\x24"},
      {"ISO-2022-CN-EXT", "\xC3\x0E\x57"},               // SO without a designation
      {"ISO-2022-CN-EXT", "\x42\x82\x42\x1A\x0E\x08\xEE\x90\x03\x24\xE9\x9B"},
      {"UTF-7", "\x83\x39\xA5\x2B\x33\x42\x2B\xE9\x22\x10\x26"},  // a base64 run rolled back
      {"UTF-7", "a+ZeVnLIqe-b+ZeVn\n+AGEAYgBj-"},
      {"ISO-2022-JP", "\x1B$B0l\x1B(B\x1B$"},              // an escape cut at the end
      {"ISO-2022-JP", "\x1B$B\xFF\x30\x6C\x1B(Bx\n"},
      {"UTF-16LE", "a\0\x00\xD8" "b\0\x00\xDC\x00"},       // lone surrogates, odd length
      {"UTF-16BE", "\xD8\x00\xD8\x00\x00\x61"},
      {"UTF-32LE", "\x00\x00\x11\x00" "a\0\0\0\xFF"},     // above U+10FFFF, trailing byte
      {"UTF-8", "\xF4\x90\x80\x80\xE2\x82\xE2\x82\xAC\xC0\xAF\xED\xA0\x80"},
      {"SHIFT_JIS", "\x81\x7F\x82\xA0\xFC\xFC\x81"},
      {"GB18030", "\x81\x30\x81\x81\x30\x81\x30\xFF"},
      {"BIG5-HKSCS", "\x88\x62\x88\x64\xA4\x40\xFE"},
      {"EUC-JP", "\x8F\xA1\xA1\x8E\xE0\xA4\xA2\xA4"},
      // HZ, decoded by ICU: valid text, an unclosed GB run, a pair cut by "~}", a lone and a
      // trailing '~', bytes HZ never has.
      {"HZ-GB-2312", "ab~{Dc:C~}c~~d\n~{Dc~}~{:C"},
      {"HZ-GB-2312", "~{D~}x~\n~x~{\x7F\x20~}\xFF\xC4\xE3~"},
      {"HZ-GB-2312", "~{Dc:C\nnext~{Dc~\n"},
  };
  for (const auto& row : rows) check_every_split(row.charset, row.bytes);
}

TEST_CASE("charset chunks: a long stateful line is still converted as it comes") {
  // A converter for a stateful charset holds back the text after the last line end; a line far
  // longer than what it holds back is converted anyway, so memory stays bounded.
  Utf8Converter converter("ISO-2022-JP");
  REQUIRE(converter.ok());
  std::string out;
  const std::string chunk(32 * 1024, 'a');
  for (int i = 0; i < 4; ++i) converter.convert(chunk, out, false);
  CHECK(out.size() >= 2 * chunk.size());
  converter.convert("\n", out, true);
  CHECK(out == std::string(4 * chunk.size(), 'a') + "\n");
}
