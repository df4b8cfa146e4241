// Charsets as browsers decode them: WHATWG labels, ISO-2022 and HZ, UTF-16 without a BOM, text
// that libmagic takes for a program, and the charsets suggested for text that did not decode.
#include "charsets_here.hpp"
#include "fixtures.hpp"
#include "mcpread/readers/charset.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

using namespace std::string_literals;
using mcpread::readers::DetectedCharset;
using mcpread::readers::Utf8Converter;
using mcpread::test::iconv_encode;
using mcpread::test::pseudo_random;

namespace {

const std::string kJapanese =
    "日本は東アジアに位置する島国です。首都は東京で、人口は約一億二千万人です。日本の文化は伝統と現代"
    "が融合しており、寿司やラーメンなどの料理は世界中で人気があります。\n春には桜が咲き、多くの人々が"
    "花見を楽しみます。秋には紅葉が美しく、山々が赤や黄色に染まります。\n";
const std::string kKorean =
    "대한민국은 동아시아의 한반도 남부에 위치한 민주공화국이다. 수도는 서울특별시이며, 인구는 약 "
    "오천만 명이다. 한국어를 공용어로 사용하며, 한글은 세종대왕이 창제한 고유의 문자이다.\n한국은 "
    "빠른 경제 성장을 이루었으며, 반도체와 자동차 산업이 발달하였다.\n";
// Starts with 똠 (0x8C 0x63 in CP949, a syllable EUC-KR lacks): libmagic calls it a DOS program
// and uchardet 0.0.7 gives no answer.
const std::string kKoreanUhc =
    "똠방각하는 오늘도 펲시콜라를 마시며 햏자들과 함께 뷁을 외쳤다. 마을 사람들은 그 모습을 보고 "
    "웃었다.\n그러나 그는 개의치 않고 자신의 길을 걸어갔다. 하늘은 맑고 바람은 시원했다.\n";
const std::string kChinese =
    "中华人民共和国是世界上人口最多的国家之一，拥有悠久的历史和灿烂的文化。长江和黄河是中国最重要的"
    "两条河流，孕育了古老的中华文明。\n";
const std::string kTraditional =
    "臺灣位於東亞，是一個美麗的島嶼。這裡的人民熱情好客，夜市文化聞名於世界。臺北是最大的城市，"
    "擁有許多歷史悠久的廟宇與現代化的建築。\n許多旅客喜歡到阿里山看日出，或是到日月潭欣賞湖光山色。"
    "傳統的節慶活動，例如農曆新年與中秋節，都是家人團聚的重要時刻。\n";
const std::string kGreek =
    "Η Ελλάδα είναι μια χώρα της νοτιοανατολικής Ευρώπης με πλούσια ιστορία. Η πρωτεύουσα είναι η "
    "Αθήνα, όπου βρίσκεται η Ακρόπολη.\nΟι αρχαίοι φιλόσοφοι, όπως ο Σωκράτης και ο Πλάτωνας, "
    "έθεσαν τα θεμέλια της δυτικής σκέψης. Τα νησιά του Αιγαίου είναι γνωστά για τις όμορφες "
    "παραλίες τους.\n";
const std::string kFrench =
    "Le café du coin propose un menu spécial à 12 euros, très apprécié des habitués. Les crêpes "
    "sont délicieuses.\n";
const std::string kRussian =
    "Россия является самой большой страной в мире по площади. Её столица - город Москва, где "
    "находится Кремль.\nРусская литература известна во всём мире благодаря таким писателям, как "
    "Толстой, Достоевский и Чехов. Зимы здесь долгие и холодные.\n";

std::span<const unsigned char> bytes(const std::string& s) {
  return {reinterpret_cast<const unsigned char*>(s.data()), s.size()};
}

DetectedCharset detect(const std::string& s) { return mcpread::readers::detect_charset(bytes(s)); }

DetectedCharset resolve(const char* label) {
  DetectedCharset d;
  REQUIRE(mcpread::readers::resolve_encoding_name(label, &d));
  return d;
}

std::string convert_all(const std::string& from, const std::string& in) {
  Utf8Converter c(from);
  REQUIRE(c.ok());
  std::string out;
  c.convert(in, out, true);
  return out;
}

// HZ (RFC 1843): GB2312 pairs with their high bits cleared between "~{" and "~}".
std::string hz_encode(const std::string& utf8_text) {
  const std::string gb = iconv_encode(utf8_text, "GB2312");
  std::string out;
  bool in_gb = false;
  for (std::size_t i = 0; i < gb.size(); ++i) {
    const auto c = static_cast<unsigned char>(gb[i]);
    if (c >= 0x80) {
      if (!in_gb) out += "~{";
      in_gb = true;
      out += static_cast<char>(c & 0x7F);
      out += static_cast<char>(static_cast<unsigned char>(gb[++i]) & 0x7F);
    } else {
      if (in_gb) out += "~}";
      in_gb = false;
      out += c == '~' ? "~~" : std::string(1, static_cast<char>(c));
    }
  }
  if (in_gb) out += "~}";
  return out;
}

}  // namespace

TEST_CASE("charset web: labels name the decoder browsers use") {
  const struct {
    const char* label;
    const char* decoder;
    const char* kept_label;  // "" when the label only spells the decoder's name
  } cases[] = {
      {"shift_jis", "CP932", "shift_jis"},      {"sjis", "CP932", "sjis"},
      {"MS_Kanji", "CP932", "MS_Kanji"},        {"windows-31j", "CP932", ""},
      {"euc-kr", "CP949", "euc-kr"},            {"ks_c_5601-1987", "CP949", "ks_c_5601-1987"},
      {"windows-949", "CP949", ""},             {"gb2312", "GB18030", "gb2312"},
      {"GBK", "GB18030", "GBK"},                {"x-gbk", "GB18030", "x-gbk"},
      {"gb_2312-80", "GB18030", "gb_2312-80"},  {"iso-8859-1", "WINDOWS-1252", "iso-8859-1"},
      {"latin1", "WINDOWS-1252", "latin1"},     {"ascii", "WINDOWS-1252", "ascii"},
      {"us-ascii", "WINDOWS-1252", "us-ascii"}, {"cp1252", "WINDOWS-1252", ""},
      {"iso-8859-9", "WINDOWS-1254", "iso-8859-9"}, {"iso-8859-11", "WINDOWS-874", "iso-8859-11"},
      {"tis-620", "WINDOWS-874", "tis-620"},    {"big5", "BIG5-HKSCS", "big5"},
      {"utf8", "UTF-8", ""},                    {"hz-gb-2312", "HZ-GB-2312", ""},
      {"iso-2022-kr", "ISO-2022-KR", ""},       {"cp737", "CP737", ""},
      {"latin2", "ISO-8859-2", ""},             {"cp1251", "WINDOWS-1251", ""},
      {"l9", "ISO-8859-15", ""},                {"mac", "MACINTOSH", ""},
  };
  for (const auto& c : cases) {
    CAPTURE(c.label);
    if (!mcpread::test::decoded_here(c.decoder)) {
      MCPREAD_NOT_DECODED_HERE(c.decoder);
      continue;
    }
    const auto d = resolve(c.label);
    CHECK(d.name == c.decoder);
    CHECK(d.label == c.kept_label);
  }
  CHECK(mcpread::readers::describe_charset(resolve("shift_jis")) ==
        "CP932 (the decoder browsers use for shift_jis)");
  CHECK(mcpread::readers::describe_charset(resolve("windows-31j")) == "CP932");
}

TEST_CASE("charset web: Shift_JIS keeps 0x5C a backslash and 0x7E a tilde") {
  // A Vim menu and a tutor's rule: JIS X 0201 would read them as "User¥ Manual" and "‾‾‾‾".
  const std::string sjis = "menu User\\ Manual \x83\x81\x83\x6A\x83\x85\x81\x5B\n~~~~\n";
  CHECK(convert_all(resolve("shift_jis").name, sjis) == "menu User\\ Manual メニュー\n~~~~\n");
  const auto d = detect(iconv_encode("User\\ Manual ~~~~\n" + kJapanese, "CP932"));
  CHECK(d.name == "CP932");
  CHECK(d.label == "SHIFT_JIS");
  CHECK(convert_all(d.name, iconv_encode("User\\ Manual ~~~~\n" + kJapanese, "CP932")) ==
        "User\\ Manual ~~~~\n" + kJapanese);
}

TEST_CASE("charset web: uchardet's answers are read with the web's decoders") {
  SUBCASE("Big5 as Big5-HKSCS") {
    const auto d = detect(iconv_encode(kTraditional, "BIG5"));
    CHECK(d.name == "BIG5-HKSCS");
    CHECK(d.label == "BIG5");
  }
  SUBCASE("GB2312 as GB18030") {
    const auto d = detect(iconv_encode(kChinese, "GB2312"));
    CHECK(d.name == "GB18030");
    CHECK(d.label == "");
  }
  SUBCASE("a single-byte answer gives way to a DOS code page that reads far better") {
    const std::string line = kGreek.substr(0, kGreek.find('\n') + 1);
    const auto greek = detect(iconv_encode(line, "CP737"));  // uchardet: WINDOWS-1252
    CHECK(greek.name == "CP737");
    CHECK(convert_all(greek.name, iconv_encode(line, "CP737")) == line);
    CHECK(detect(iconv_encode(kFrench + kFrench + kFrench, "CP437")).name == "CP437");
    CHECK(detect(iconv_encode(kRussian, "KOI8-R")).name == "KOI8-R");  // uchardet was right
    CHECK(detect(iconv_encode(kGreek, "WINDOWS-1253")).name == "ISO-8859-7");
  }
  SUBCASE("CP949 text uchardet does not know, by its Hangul") {
    const auto d = detect(iconv_encode(kKoreanUhc, "CP949"));
    CHECK(d.name == "CP949");
    CHECK(d.label == "");
    CHECK(d.ascii_compatible);
  }
}

TEST_CASE("charset web: ISO-2022 and HZ by their escapes") {
  SUBCASE("ISO-2022-JP") {
    const std::string jis = iconv_encode(kJapanese, "ISO-2022-JP");
    const auto d = detect(jis);
    CHECK(d.name == "ISO-2022-JP");
    CHECK_FALSE(d.ascii_compatible);
    CHECK(convert_all(d.name, jis) == kJapanese);
  }
  SUBCASE("ISO-2022-JP with half-width katakana needs ISO-2022-JP-3") {
    const std::string jis = iconv_encode(kJapanese + "ｶﾀｶﾅ\n", "ISO-2022-JP-3");
    const auto d = detect(jis);
    CHECK(d.name == "ISO-2022-JP-3");
    if (mcpread::test::decoded_here(d.name)) CHECK(convert_all(d.name, jis) == kJapanese + "ｶﾀｶﾅ\n");
    else MCPREAD_NOT_DECODED_HERE(d.name);
  }
  SUBCASE("ISO-2022-KR") {
    const std::string kr = iconv_encode(kKorean, "ISO-2022-KR");
    const auto d = detect(kr);
    CHECK(d.name == "ISO-2022-KR");
    if (mcpread::test::decoded_here(d.name)) CHECK(convert_all(d.name, kr) == kKorean);
    else MCPREAD_NOT_DECODED_HERE(d.name);
  }
  SUBCASE("HZ-GB-2312, decoded by ICU") {
    const std::string hz = hz_encode(kChinese + "~ tilde\n" + kChinese);
    const auto d = detect(hz);
    CHECK(d.name == "HZ-GB-2312");
    CHECK_FALSE(d.ascii_compatible);
    if (mcpread::test::decoded_here(d.name)) CHECK(convert_all(d.name, hz) == kChinese + "~ tilde\n" + kChinese);
    else MCPREAD_NOT_DECODED_HERE(d.name);
  }
  SUBCASE("HZ split into chunks anywhere decodes the same") {
    if (!mcpread::test::decoded_here("HZ-GB-2312")) {
      MCPREAD_NOT_DECODED_HERE("HZ-GB-2312");
      return;
    }
    const std::string hz = hz_encode(kChinese);
    for (std::size_t cut = 1; cut < 40; ++cut) {
      CAPTURE(cut);
      Utf8Converter c("HZ-GB-2312");
      std::string out;
      c.convert(hz.substr(0, cut), out, false);
      c.convert(hz.substr(cut), out, true);
      CHECK(out == kChinese);
    }
  }
  SUBCASE("a converter that cannot be made says why") {
    Utf8Converter none("NO-SUCH-CHARSET");
    CHECK_FALSE(none.ok());
    CHECK(none.error() == "The C library's iconv has no decoder for NO-SUCH-CHARSET.");
    Utf8Converter hz("HZ-GB-2312");
#if defined(_WIN32)
    CHECK_FALSE(hz.ok());
    CHECK(hz.error() == "Decoding this charset needs ICU, which the Windows build of mcp-read does not include; "
                        "convert the file to UTF-8 (for example with iconv -f HZ-GB-2312 -t UTF-8) and read that.");
#else
    CHECK(hz.ok());
    CHECK(hz.error() == "");
#endif
  }
  SUBCASE("plain ASCII with a tilde brace or an escape stays UTF-8") {
    CHECK(detect("x = a~{b}; printf(\"\\x1B[0m\")\n").name == "UTF-8");
    CHECK(detect("colour: \x1B[31mred\x1B[0m\n").name == "UTF-8");
  }
}

TEST_CASE("charset web: UTF-16 without a BOM by where its zero bytes are") {
  for (const char* order : {"UTF-16BE", "UTF-16LE"}) {
    CAPTURE(order);
    CHECK(mcpread::readers::utf16_without_bom(bytes(iconv_encode(kJapanese, order))) == order);
    CHECK(mcpread::readers::utf16_without_bom(bytes(iconv_encode(kKorean, order))) == order);
    CHECK(detect(iconv_encode(kJapanese, order)).name == order);
  }
  // 16-bit big-endian numbers: zero high bytes, but the low bytes are controls.
  std::string numbers;
  for (int i = 0; i < 200; ++i) numbers += "\0"s + static_cast<char>(i % 32);
  CHECK(mcpread::readers::utf16_without_bom(bytes(numbers)) == "");
}

TEST_CASE("charset web: text in files that look binary") {
  auto text_charset = [](const std::string& s) {
    return mcpread::readers::text_charset_of_binary(bytes(s)).name;
  };
  SUBCASE("text") {
    CHECK(text_charset(iconv_encode(kKoreanUhc, "CP949")) == "CP949");
    CHECK(text_charset(iconv_encode("마을 " + kKorean, "CP949")) == "CP949");
    if (mcpread::test::decoded_here("ISO-2022-KR"))
      CHECK(text_charset(iconv_encode(kKorean, "ISO-2022-KR")) == "ISO-2022-KR");
    else MCPREAD_NOT_DECODED_HERE("ISO-2022-KR");
    CHECK(text_charset(iconv_encode(kJapanese, "UTF-16BE")) == "UTF-16BE");
    CHECK(text_charset(iconv_encode(kJapanese, "UTF-16LE")) == "UTF-16LE");
  }
  SUBCASE("binaries") {
    CHECK(text_charset(pseudo_random(65536, 1)) == "");
    CHECK(text_charset(pseudo_random(300, 7)) == "");
    CHECK(text_charset("\x7F" "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0>\0\x01\0\0\0"s) == "");
    CHECK(text_charset("\x89PNG\r\n\x1A\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0"s) == "");
    CHECK(text_charset("PK\x03\x04\x14\0\0\0\x08\0"s + pseudo_random(2000, 3)) == "");
    CHECK(text_charset("\x8C\xC8\x8E\xD8\xB8\x00\x4C\xCD\x21"s) == "");  // a tiny DOS program
  }
}

TEST_CASE("charset web: likely charsets for text that did not decode") {
  using mcpread::readers::likely_charsets;
  CHECK(likely_charsets(bytes(iconv_encode(kGreek, "CP737"))) ==
        std::vector<std::string>{"cp737", "cp866", "cp852"});
  CHECK(likely_charsets(bytes(iconv_encode(kRussian, "IBM866"))) ==
        std::vector<std::string>{"cp866", "cp737", "cp852"});
  CHECK(likely_charsets(bytes(iconv_encode(kRussian, "WINDOWS-1251")), 2) ==
        std::vector<std::string>{"windows-1251", "windows-1252"});
  CHECK(likely_charsets(bytes(iconv_encode(kRussian, "KOI8-R")), 1) ==
        std::vector<std::string>{"koi8-r"});
  CHECK(likely_charsets(bytes(iconv_encode(kGreek, "WINDOWS-1253")), 1) ==
        std::vector<std::string>{"windows-1253"});
  CHECK(likely_charsets(bytes(iconv_encode(kFrench, "CP850")), 2) ==
        std::vector<std::string>{"cp437", "cp850"});  // the same for these letters
}
