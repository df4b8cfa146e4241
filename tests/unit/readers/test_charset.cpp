#include "fixtures.hpp"
#include "mcpread/readers/charset.hpp"
#include "mcpread/readers/utf8.hpp"

#include <doctest/doctest.h>

#include <span>
#include <string>

using namespace std::string_literals;
using mcpread::readers::DetectedCharset;
using mcpread::readers::Utf8Converter;

using mcpread::test::iconv_encode;

namespace {

const std::string R = "\xEF\xBF\xBD";  // U+FFFD

// Real-language samples, long enough for uchardet to be confident.
const std::string kChinese =
    "中华人民共和国是世界上人口最多的国家之一，拥有悠久的历史和灿烂的文化。长江和黄河是中国最重要的"
    "两条河流，孕育了古老的中华文明。\n今天，中国的经济发展迅速，科技不断进步，人民的生活水平也在不断"
    "提高。北京是中国的首都，上海是最大的城市，也是重要的金融中心。\n";
const std::string kJapanese =
    "日本は東アジアに位置する島国です。首都は東京で、人口は約一億二千万人です。日本の文化は伝統と現代"
    "が融合しており、寿司やラーメンなどの料理は世界中で人気があります。\n春には桜が咲き、多くの人々が"
    "花見を楽しみます。秋には紅葉が美しく、山々が赤や黄色に染まります。\n";
const std::string kKorean =
    "대한민국은 동아시아의 한반도 남부에 위치한 민주공화국이다. 수도는 서울특별시이며, 인구는 약 "
    "오천만 명이다. 한국어를 공용어로 사용하며, 한글은 세종대왕이 창제한 고유의 문자이다.\n한국은 "
    "빠른 경제 성장을 이루었으며, 반도체와 자동차 산업이 발달하였다. 또한 한국의 음악과 드라마는 "
    "세계적으로 큰 인기를 얻고 있다.\n";
const std::string kFrench =
    "Le café du coin propose un menu “spécial” à 12 € — très apprécié des habitués. Les crêpes "
    "sont délicieuses, et l’été on peut s’asseoir dehors.\nVoilà pourquoi c’est l’endroit préféré "
    "de François et d’Hélène : on y mange bien, le service est rapide et l’ambiance est très "
    "agréable.\n";


DetectedCharset detect(const std::string& bytes) {
  return mcpread::readers::detect_charset(
      std::span(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size()));
}

std::string utf16_guess(const std::string& bytes) {
  return mcpread::readers::utf16_without_bom(
      std::span(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size()));
}

std::string convert_all(const char* from, const std::string& in) {
  Utf8Converter c(from);
  REQUIRE(c.ok());
  std::string out;
  c.convert(in, out, true);
  return out;
}

}  // namespace

TEST_CASE("charset detect_charset byte-order marks") {
  SUBCASE("UTF-8") {
    const auto d = detect("\xEF\xBB\xBFhello");
    CHECK(d.name == "UTF-8");
    CHECK(d.bom_bytes == 3);
    CHECK(d.ascii_compatible);
  }
  SUBCASE("UTF-16LE and UTF-16BE") {
    const auto le = detect("\xFF\xFEh\0i\0"s);
    CHECK(le.name == "UTF-16LE");
    CHECK(le.bom_bytes == 2);
    CHECK_FALSE(le.ascii_compatible);
    const auto be = detect("\xFE\xFF\0h\0i"s);
    CHECK(be.name == "UTF-16BE");
    CHECK(be.bom_bytes == 2);
    CHECK_FALSE(be.ascii_compatible);
  }
  SUBCASE("UTF-32LE is recognised before UTF-16LE, and UTF-32BE") {
    const auto le = detect("\xFF\xFE\0\0h\0\0\0"s);
    CHECK(le.name == "UTF-32LE");
    CHECK(le.bom_bytes == 4);
    CHECK_FALSE(le.ascii_compatible);
    const auto be = detect("\0\0\xFE\xFF\0\0\0h"s);
    CHECK(be.name == "UTF-32BE");
    CHECK(be.bom_bytes == 4);
  }
}

TEST_CASE("charset utf16_without_bom") {
  SUBCASE("little and big endian ASCII text") {
    CHECK(utf16_guess(iconv_encode("hello world\r\nsecond line\n", "UTF-16LE")) == "UTF-16LE");
    CHECK(utf16_guess(iconv_encode("hello world\r\nsecond line\n", "UTF-16BE")) == "UTF-16BE");
    CHECK(detect(iconv_encode("hello world\n", "UTF-16LE")).name == "UTF-16LE");
    CHECK(detect(iconv_encode("hello world\n", "UTF-16LE")).bom_bytes == 0);
  }
  SUBCASE("not UTF-16") {
    CHECK(utf16_guess("plain ascii text") == "");
    CHECK(utf16_guess("\0\0\0\0\0\0\0\0"s) == "");
    CHECK(utf16_guess("a\0b\0c\0\0d\0e"s) == "");  // NULs on both sides
    CHECK(utf16_guess("a\0"s) == "");             // too short to tell
  }
}

TEST_CASE("charset detect_charset UTF-8") {
  SUBCASE("ASCII and valid UTF-8") {
    CHECK(detect("just ascii\n").name == "UTF-8");
    CHECK(detect(kChinese).name == "UTF-8");
    CHECK(detect("").name == "UTF-8");
  }
  SUBCASE("a sample cut inside the final character stays UTF-8") {
    const std::string cut = kJapanese.substr(0, kJapanese.size() - 2);  // "。\n" minus 1 byte
    CHECK(detect(cut.substr(0, cut.size() - 1)).name == "UTF-8");
  }
  SUBCASE("mostly valid UTF-8 with a stray bad byte stays UTF-8") {
    CHECK(detect(kFrench + "\xFF" + kFrench).name == "UTF-8");
    CHECK(detect(kFrench + "\xFF").bom_bytes == 0);
    std::string twenty_to_one;  // 20 valid sequences, 1 invalid: 95.2% valid
    for (int i = 0; i < 20; ++i) twenty_to_one += "d\xC3\xA9j\xC3\xA0 ";
    CHECK(detect(twenty_to_one.substr(0, twenty_to_one.size() / 2) + "\xFF").name == "UTF-8");
  }
  SUBCASE("legacy text with a few accidental UTF-8 sequences is not UTF-8") {
    CHECK(detect(iconv_encode(kFrench, "WINDOWS-1252") + "caf\xC3\xA9").name == "WINDOWS-1252");
  }
}

TEST_CASE("charset detect_charset legacy charsets via uchardet") {
  SUBCASE("Chinese GB18030") {
    const auto d = detect(iconv_encode(kChinese, "GB18030"));
    CHECK(d.name == "GB18030");
    CHECK(d.ascii_compatible);
    CHECK(d.bom_bytes == 0);
  }
  SUBCASE("Japanese Shift_JIS, decoded as Windows-31J, and EUC-JP") {
    const auto sjis = detect(iconv_encode(kJapanese, "SHIFT_JIS"));
    CHECK(sjis.name == "CP932");
    CHECK(sjis.label == "SHIFT_JIS");
    CHECK(detect(iconv_encode(kJapanese, "EUC-JP")).name == "EUC-JP");
    CHECK(detect(iconv_encode(kJapanese, "EUC-JP")).label == "");
  }
  SUBCASE("Korean EUC-KR, decoded as windows-949") {
    const auto d = detect(iconv_encode(kKorean, "EUC-KR"));
    CHECK(d.name == "CP949");
    CHECK(d.label == "");  // uchardet answers UHC, another name of CP949
    CHECK(d.ascii_compatible);
  }
  SUBCASE("Western European Windows-1252") {
    CHECK(detect(iconv_encode(kFrench, "WINDOWS-1252")).name == "WINDOWS-1252");
  }
  SUBCASE("bytes nobody recognises fall back to UTF-8") {
    CHECK(detect("\xFF\xFE\xFD\xFC\xFB").name == "UTF-16LE");  // FF FE is a BOM
    CHECK(detect("\xFD\xFC\xFB\xFA").name == "UTF-8");
  }
}

TEST_CASE("charset resolve_encoding_name") {
  DetectedCharset d;
  SUBCASE("aliases are case-insensitive") {
    const std::pair<const char*, const char*> cases[] = {
        {"utf8", "UTF-8"},           {"UTF-8", "UTF-8"},          {"latin1", "WINDOWS-1252"},
        {"Latin-1", "WINDOWS-1252"}, {"iso-8859-1", "WINDOWS-1252"}, {"cp1252", "WINDOWS-1252"},
        {"Windows-1252", "WINDOWS-1252"}, {"sjis", "CP932"},       {"Shift_JIS", "CP932"},
        {"gbk", "GB18030"},          {"GB2312", "GB18030"},       {"gb18030", "GB18030"},
        {"big5", "BIG5-HKSCS"},      {"euc-kr", "CP949"},         {"EUC-JP", "EUC-JP"},
        {"utf-16", "UTF-16"},        {"utf-16le", "UTF-16LE"},    {"UTF16BE", "UTF-16BE"},
        {" koi8-r ", "KOI8-R"},      {"cp1251", "WINDOWS-1251"},  {"latin2", "ISO-8859-2"},
        {"ISO_8859-2", "ISO-8859-2"}, {"iso-8859-8-i", "ISO-8859-8"}, {"x-mac-roman", "MACINTOSH"},
    };
    for (const auto& [alias, name] : cases) {
      CAPTURE(alias);
      REQUIRE(mcpread::readers::resolve_encoding_name(alias, &d));
      CHECK(d.name == name);
      CHECK(d.bom_bytes == 0);
    }
  }
  SUBCASE("ascii_compatible is false for wide and stateful encodings") {
    REQUIRE(mcpread::readers::resolve_encoding_name("utf-16le", &d));
    CHECK_FALSE(d.ascii_compatible);
    REQUIRE(mcpread::readers::resolve_encoding_name("UTF-32", &d));
    CHECK_FALSE(d.ascii_compatible);
    REQUIRE(mcpread::readers::resolve_encoding_name("ISO-2022-JP", &d));
    CHECK_FALSE(d.ascii_compatible);
    REQUIRE(mcpread::readers::resolve_encoding_name("IBM037", &d));  // EBCDIC
    CHECK_FALSE(d.ascii_compatible);
    REQUIRE(mcpread::readers::resolve_encoding_name("shift_jis", &d));
    CHECK(d.ascii_compatible);
    REQUIRE(mcpread::readers::resolve_encoding_name("latin1", &d));
    CHECK(d.ascii_compatible);
  }
  SUBCASE("unknown names are refused") {
    CHECK_FALSE(mcpread::readers::resolve_encoding_name("klingon-8", &d));
    CHECK_FALSE(mcpread::readers::resolve_encoding_name("", &d));
    CHECK_FALSE(mcpread::readers::resolve_encoding_name("UTF-8//TRANSLIT", &d));
  }
}

TEST_CASE("charset Utf8Converter") {
  SUBCASE("converts whole input") {
    CHECK(convert_all("GB18030", iconv_encode(kChinese, "GB18030")) == kChinese);
    CHECK(convert_all("SHIFT_JIS", iconv_encode(kJapanese, "SHIFT_JIS")) == kJapanese);
    CHECK(convert_all("WINDOWS-1252", "caf\xE9 \x93q\x94 \x80") == "café “q” €");
    CHECK(convert_all("UTF-16LE", "h\0\xE9\0-N"s) == "hé中");
  }
  SUBCASE("a multi-byte sequence split across chunks is carried over") {
    const std::string gb = iconv_encode("中文", "GB18030");  // D6 D0 CE C4
    Utf8Converter c("GB18030");
    std::string out;
    c.convert(gb.substr(0, 1), out, false);
    CHECK(out == "");
    c.convert(gb.substr(1, 2), out, false);
    CHECK(out == "中");
    c.convert(gb.substr(3), out, true);
    CHECK(out == "中文");
  }
  SUBCASE("a UTF-16 code unit split across chunks") {
    const std::string u16 = iconv_encode("a😀b", "UTF-16LE");
    Utf8Converter c("UTF-16LE");
    std::string out;
    for (char byte : u16) c.convert(std::string(1, byte), out, false);
    c.convert("", out, true);
    CHECK(out == "a😀b");
  }
  SUBCASE("invalid input becomes U+FFFD and conversion goes on") {
    CHECK(convert_all("SHIFT_JIS", "a\xA0" "b") == "a" + R + "b");
    CHECK(convert_all("UTF-16LE", "a\0\x00\xDC" "b\0"s) == "a" + R + "b");  // lone low surrogate
    CHECK(convert_all("UTF-8", "x\xFFy") == "x" + R + "y");
  }
  SUBCASE("an incomplete sequence at the end is flushed as U+FFFD") {
    CHECK(convert_all("GB18030", "ab\xD6") == "ab" + R);
    CHECK(convert_all("UTF-16LE", "a\0b"s) == "a" + R);
  }
  SUBCASE("the converter is reusable after a last flush") {
    Utf8Converter c("GB18030");
    std::string out;
    c.convert("\xD6", out, true);
    c.convert("\xD6\xD0", out, true);
    CHECK(out == R + "中");
  }
  SUBCASE("an unknown charset is not ok") {
    Utf8Converter c("NO-SUCH-CHARSET");
    CHECK_FALSE(c.ok());
    std::string out;
    c.convert("ok\xFF", out, true);
    CHECK(out == "ok" + R);
  }
  SUBCASE("output is always valid UTF-8") {
    std::string junk;
    for (int i = 0; i < 256; ++i) junk += static_cast<char>(i);
    for (const char* cs : {"GB18030", "SHIFT_JIS", "EUC-KR", "BIG5", "UTF-16LE", "UTF-32BE"}) {
      CAPTURE(cs);
      CHECK(mcpread::readers::utf8::is_valid(convert_all(cs, junk + junk)));
    }
  }
}
