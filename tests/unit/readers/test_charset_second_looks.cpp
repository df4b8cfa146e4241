// Second looks at what uchardet answers: KOI8-U where it says KOI8-R, JIS X 0213 where EUC-JP or
// Windows-31J leave errors, Johab, Big5-HKSCS and single-byte code pages where it has no answer,
// and windows-1252 where it says the Mac's Central European table.
#include "charsets_here.hpp"
#include "fixtures.hpp"
#include "mcpread/readers/charset.hpp"

#include <doctest/doctest.h>

#include <span>
#include <string>

using mcpread::readers::DetectedCharset;
using mcpread::test::iconv_encode;

namespace {

const std::string kUkrainian =
    "Україна є державою у Східній Європі. Її столиця - місто Київ, де живе майже три мільйони "
    "людей.\nІнформація про історію країни, її мову та культуру є в бібліотеці. Ґанок старої "
    "хати пофарбовано в зелений колір.\n";
const std::string kRussian =
    "Россия является самой большой страной в мире по площади. Её столица - город Москва, где "
    "находится Кремль.\nРусская литература известна во всём мире благодаря таким писателям, как "
    "Толстой, Достоевский и Чехов. Зимы здесь долгие и холодные.\n";
// Japanese with characters JIS X 0208 lacks: か゚ (a sound mark on kana) and 𡚴.
const std::string kJapaneseX0213 =
    "日本は東アジアに位置する島国です。首都は東京で、人口は約一億二千万人です。春には桜が咲き、多くの人々が"
    "花見を楽しみます。\n鼻濁音は、か゚のように書きます。𡚴という字もあります。\n";
const std::string kKorean =
    "대한민국은 동아시아의 한반도 남부에 위치한 민주공화국이다. 수도는 서울특별시이며, 인구는 약 "
    "오천만 명이다.\n한국은 빠른 경제 성장을 이루었으며, 반도체와 자동차 산업이 발달하였다.\n";
const std::string kGreek =
    "Η Ελλάδα είναι μια χώρα της νοτιοανατολικής Ευρώπης με πλούσια ιστορία. Η πρωτεύουσα είναι "
    "η Αθήνα, όπου βρίσκεται η Ακρόπολη.\nΟι αρχαίοι φιλόσοφοι, όπως ο Σωκράτης και ο Πλάτωνας, "
    "έθεσαν τα θεμέλια της δυτικής σκέψης. Τα νησιά του Αιγαίου είναι γνωστά για τις όμορφες "
    "παραλίες τους.\n";

DetectedCharset detect(const std::string& s) {
  return mcpread::readers::detect_charset(
      std::span(reinterpret_cast<const unsigned char*>(s.data()), s.size()));
}

}  // namespace

TEST_CASE("charset second looks: KOI8-U where uchardet says KOI8-R") {
  SUBCASE("і ї є ґ between Cyrillic letters are Ukrainian") {
    CHECK(detect(iconv_encode(kUkrainian, "KOI8-U")).name == "KOI8-U");
  }
  SUBCASE("Russian stays KOI8-R, box drawing and all") {
    CHECK(detect(iconv_encode(kRussian, "KOI8-R")).name == "KOI8-R");
    CHECK(detect(iconv_encode("╔════╗ ╓──╖\n║ Да ║ ╙──╜\n╚════╝\n" + kRussian, "KOI8-R")).name == "KOI8-R");
  }
}

TEST_CASE("charset second looks: JIS X 0213 where EUC-JP or Windows-31J leave errors") {
  SUBCASE("EUC-JISX0213") {
    if (!mcpread::test::decoded_here("EUC-JISX0213")) {
      MCPREAD_NOT_DECODED_HERE("EUC-JISX0213");
      return;
    }
    const auto d = detect(iconv_encode(kJapaneseX0213, "EUC-JISX0213"));
    CHECK(d.name == "EUC-JISX0213");
    CHECK(d.label == "");
  }
  SUBCASE("Shift_JISX0213") {
    if (mcpread::test::decoded_here("SHIFT_JISX0213"))
      CHECK(detect(iconv_encode(kJapaneseX0213, "SHIFT_JISX0213")).name == "SHIFT_JISX0213");
    else MCPREAD_NOT_DECODED_HERE("SHIFT_JISX0213");
  }
  SUBCASE("Japanese that EUC-JP reads whole stays EUC-JP") {
    const std::string plain = kJapaneseX0213.substr(0, kJapaneseX0213.find('\n') + 1);
    CHECK(detect(iconv_encode(plain, "EUC-JISX0213")).name == "EUC-JP");
  }
}

TEST_CASE("charset second looks: where uchardet has no answer") {
  SUBCASE("Johab, by its Hangul") {
    if (mcpread::test::decoded_here("JOHAB")) CHECK(detect(iconv_encode(kKorean, "JOHAB")).name == "JOHAB");
    else MCPREAD_NOT_DECODED_HERE("JOHAB");
  }
  SUBCASE("Big5-HKSCS with Jyutping letters, where GB18030 reads only rare characters") {
    // HKSCS's lead bytes 0x87..0xA0 are GBK's rare extension area: a GB18030 reading made
    // mostly of it is no Chinese text; romanised letters with tone marks are.
    const auto d = detect(iconv_encode("鵮罓洆 Ê̄ê̄ 𠄌\n", "BIG5-HKSCS"));
    CHECK(d.name == "BIG5-HKSCS");
    CHECK(d.label == "");
  }
  SUBCASE("a GB18030 reading made of GBK's rare additions only is no Chinese text") {
    // 丂侫傿凜匘咵嘑圙塇 in GB18030, and nothing else reads these pairs cleanly.
    CHECK(detect("\x81\x40\x82\x41\x83\x42\x84\x43\x85\x44\x86\x45\x87\x46\x88\x47\x89\x48\n").name == "UTF-8");
  }
  SUBCASE("a reading with invalid sequences is never chosen") {
    // 0xFF 0xFF is no pair in Johab, nor in any other CJK charset.
    CHECK(detect(iconv_encode(kKorean, "JOHAB") + "\xFF\xFF\n").name == "UTF-8");
  }
  SUBCASE("Greek in CP737, which reads without a fault in it") {
    const auto d = detect(iconv_encode(kGreek, "CP737"));
    CHECK(d.name == "CP737");
    CHECK(d.label == "");
  }
  SUBCASE("a few high bytes are too little to pick a code page by") {
    CHECK(detect("data \x80\x81\x82\x83\x84\x85 end\n").name == "UTF-8");
    CHECK(detect("ok \xB0\xB1\xB2 \xDB\xDC\xDD\n").name == "UTF-8");
  }
}

TEST_CASE("charset second looks: a rarer Latin answer gives way to a code page that reads better") {
  SUBCASE("Afrikaans menu lines uchardet takes for Mac Central European") {
    // ê and ë come out as Í and Ž there, capitals inside words.
    const std::string afrikaans =
        "menutrans &Open\\.\\.\\.<Tab>:e\t\t&Open\\.\\.\\.<Tab>:e\n"
        "menutrans Sp&lit-Open\\.\\.\\.<Tab>:sp\t&Verdeel\\ venster\\.\\.\\.<Tab>:sp\n"
        "menutrans &Close<Tab>:close\t\t&Sluit<Tab>:close\nmenutrans &Save<Tab>:w\t\t\t&Skryf<Tab>:w\n"
        "menutrans &File\t\t\t\t&Lêer\nmenutrans &Copy\t\t\t&Kopiëer\n"
        "menutrans Select\\ &Line\t\tKies\\ een\\ &Reël\n    tmenu ToolBar.Open\t\tMaak leêr oop\n";
    CHECK(detect(iconv_encode(afrikaans, "WINDOWS-1252")).name == "WINDOWS-1252");
  }
  SUBCASE("Czech and Hungarian in Latin-2 stay Latin-2") {
    // ž and ň are lower case (odd code points where capitals are even elsewhere in Latin
    // Extended-A): read so, windows-1252's ¾ and ò are no better.
    const std::string czech =
        "Vim je velmi výkonný editor, který má příliš mnoho příkazů na to, aby mohly být všechny "
        "vysvětlené ve výuce jako tato. Tato výuka obsahuje dostatečné množství příkazů na to, aby "
        "bylo možné používat Vim jako víceúčelový editor.\nPřibližný čas potřebný ke zvládnutí této "
        "výuky je 25-30 minut. Kurzor se posune, jak je znázorněno níže; třeba i do kůlny.\n";
    CHECK(detect(iconv_encode(czech, "ISO-8859-2")).name == "ISO-8859-2");
    const std::string hungarian =
        "A Vim egy nagyon hatékony szerkesztő, amelynek rengeteg utasítása van, túl sok ahhoz, hogy "
        "egy ilyen oktató mindet elmagyarázza. Ez az oktató úgy készült, hogy elég utasítást "
        "mutasson be ahhoz, hogy könnyen használhasd a Vimet általános célú szerkesztőként.\n";
    CHECK(detect(iconv_encode(hungarian, "ISO-8859-2")).name == "ISO-8859-2");
  }
}
