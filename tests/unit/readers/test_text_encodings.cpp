// The text reader on encodings: invalid UTF-8, UTF-16, legacy charsets and the encoding option.
#include "text_test_util.hpp"

#include <doctest/doctest.h>

#include <string>

using mcpread::readers::CancelToken;
using mcpread::test::tool_worded;  // reads worded as the server words them
using mcpread::readers::TextOptions;
using mcpread::test::iconv_encode;
using mcpread::test::TempDir;
using namespace mcpread::test::text_util;

TEST_CASE("text UTF-8 handling") {
  TempDir dir;
  SUBCASE("invalid bytes become U+FFFD and the footer says so") {
    const std::string good = repeat("d\xC3\xA9j\xC3\xA0 vu ", 30);  // 60 valid, 2 bad
    const auto o = read(dir, good + "\n" + "bad \xFF\xC3 end\n");
    CHECK(text_of(o) == "     1\t" + good + "\n     2\tbad " + R + R +
                            " end\n\n[Lines 1-2 of 2. End of file.]\n"
                            "[2 byte sequences not valid in UTF-8 are shown as U+FFFD.]");
    CHECK(o.meta["charset"] == "UTF-8");
  }
  SUBCASE("invalid bytes outside the shown lines are not reported") {
    TextOptions opt;
    opt.limit = 1;
    opt.encoding = "utf-8";
    const auto o = read(dir, "fine\n\xFF\xFF\n", opt);
    CHECK(text_of(o) == "     1\tfine\n\n[Lines 1-1 of 2. To read more, call read again with offset=2.]");
  }
  SUBCASE("a UTF-8 byte-order mark is skipped") {
    const auto o = read(dir, "\xEF\xBB\xBFhello\nw\xC3\xB6rld\n");
    CHECK(text_of(o) == "     1\thello\n     2\twörld\n\n[Lines 1-2 of 2. End of file.]");
    CHECK(o.meta["bom"] == true);
    CHECK(o.meta["charset"] == "UTF-8");
  }
}

TEST_CASE("text UTF-16") {
  TempDir dir;
  const std::string body = "héllo 中文\r\nline two\nlast";
  const std::string expected =
      "     1\théllo 中文\n     2\tline two\n     3\tlast\n\n[Lines 1-3 of 3. End of file.]\n";
  SUBCASE("little endian with BOM") {
    const auto o = read(dir, "\xFF\xFE" + iconv_encode(body, "UTF-16LE"));
    CHECK(text_of(o) == expected + "[Decoded from UTF-16LE to UTF-8.]");
    CHECK(o.meta["charset"] == "UTF-16LE");
    CHECK(o.meta["bom"] == true);
  }
  SUBCASE("big endian with BOM") {
    const auto o = read(dir, "\xFE\xFF" + iconv_encode(body, "UTF-16BE"));
    CHECK(text_of(o) == expected + "[Decoded from UTF-16BE to UTF-8.]");
    CHECK(o.meta["charset"] == "UTF-16BE");
  }
  SUBCASE("little endian without BOM") {
    const auto o = read(dir, iconv_encode("plain text\nsecond line\n", "UTF-16LE"));
    CHECK(text_of(o) == "     1\tplain text\n     2\tsecond line\n\n[Lines 1-2 of 2. End of file.]\n"
                        "[Decoded from UTF-16LE to UTF-8.]");
    CHECK(o.meta["bom"] == false);
  }
  SUBCASE("offset, limit and long lines after decoding") {
    TextOptions opt;
    opt.offset = 2;
    opt.limit = 1;
    opt.max_line_chars = 4;
    const auto o = read(dir, "\xFF\xFE" + iconv_encode("one\n中中中中中中\nthree\n", "UTF-16LE"), opt);
    CHECK(text_of(o) == "     2\t中中中中" + kEllipsis + "[line cut at 4 of 6 characters; read on with offset=2, limit=1, column=5]\n\n"
                        "[Lines 2-2 of 3. To read more, call read again with offset=3.]\n"
                        "[1 line(s) longer than 4 characters were cut.]\n"
                        "[Decoded from UTF-16LE to UTF-8.]");
  }
}

TEST_CASE("text legacy charsets") {
  TempDir dir;
  const std::string chinese =
      "中华人民共和国是世界上人口最多的国家之一，拥有悠久的历史和灿烂的文化。长江和黄河是中国最重要的"
      "两条河流，孕育了古老的中华文明。\n今天，中国的经济发展迅速，科技不断进步，人民的生活水平也在不断"
      "提高。北京是中国的首都，上海是最大的城市，也是重要的金融中心。\n";
  const std::string japanese =
      "日本は東アジアに位置する島国です。首都は東京で、人口は約一億二千万人です。日本の文化は伝統と現代"
      "が融合しており、寿司やラーメンなどの料理は世界中で人気があります。\n春には桜が咲き、多くの人々が"
      "花見を楽しみます。秋には紅葉が美しく、山々が赤や黄色に染まります。\n";
  const std::string korean =
      "대한민국은 동아시아의 한반도 남부에 위치한 민주공화국이다. 수도는 서울특별시이며, 인구는 약 "
      "오천만 명이다. 한국어를 공용어로 사용하며, 한글은 세종대왕이 창제한 고유의 문자이다.\n한국은 "
      "빠른 경제 성장을 이루었으며, 반도체와 자동차 산업이 발달하였다. 또한 한국의 음악과 드라마는 "
      "세계적으로 큰 인기를 얻고 있다.\n";
  const std::string french =
      "Le café du coin propose un menu “spécial” à 12 € — très apprécié des habitués. Les crêpes "
      "sont délicieuses, et l’été on peut s’asseoir dehors.\nVoilà pourquoi c’est l’endroit préféré "
      "de François et d’Hélène : on y mange bien, le service est rapide et l’ambiance est très "
      "agréable.\n";
  auto expect = [](const std::string& utf8_text, const std::string& decoder) {
    const auto nl = utf8_text.find('\n');
    return "     1\t" + utf8_text.substr(0, nl) + "\n     2\t" +
           utf8_text.substr(nl + 1, utf8_text.size() - nl - 2) +
           "\n\n[Lines 1-2 of 2. End of file.]\n[Decoded from " + decoder + " to UTF-8.]";
  };
  const struct {
    const std::string* text;
    const char* encoding;
    const char* reported;
    const char* described;
  } cases[] = {
      {&chinese, "GBK", "GB18030", "GB18030"},
      {&chinese, "GB18030", "GB18030", "GB18030"},
      {&japanese, "SHIFT_JIS", "CP932", "CP932 (the decoder browsers use for SHIFT_JIS)"},
      {&japanese, "EUC-JP", "EUC-JP", "EUC-JP"},
      {&korean, "EUC-KR", "CP949", "CP949"},
      {&french, "WINDOWS-1252", "WINDOWS-1252", "WINDOWS-1252"},
  };
  SUBCASE("detected and decoded") {
    for (const auto& c : cases) {
      CAPTURE(c.encoding);
      const auto o = read(dir, iconv_encode(*c.text, c.encoding));
      CHECK(text_of(o) == expect(*c.text, c.described));
      CHECK(o.meta["charset"] == c.reported);
      CHECK(o.meta["bom"] == false);
    }
  }
  SUBCASE("a long line is cut by characters, its length given in file bytes") {
    TextOptions opt;
    opt.max_line_chars = 3;
    opt.encoding = "cp1252";
    CHECK(text_of(read(dir, repeat("\xE9", 3000) + "\r\n", opt)) ==
          "     1\tééé" + kEllipsis + "[line cut at 3 characters (3000 bytes in full); read on with offset=1, limit=1, column=4]\n\n"
          "[Lines 1-1 of 1. End of file.]\n[1 line(s) longer than 3 characters were cut.]\n"
          "[Decoded from WINDOWS-1252 to UTF-8.]");
  }
}

TEST_CASE("text encoding option") {
  TempDir dir;
  TextOptions opt;
  SUBCASE("overrides detection") {
    opt.encoding = "latin1";
    const auto o = read(dir, "caf\xE9\n", opt);
    CHECK(text_of(o) == "     1\tcafé\n\n[Lines 1-1 of 1. End of file.]\n"
                        "[Decoded from WINDOWS-1252 (the decoder browsers use for latin1) to UTF-8.]");
    CHECK(o.meta["charset"] == "WINDOWS-1252");
    CHECK(o.meta["charset_label"] == "latin1");
  }
  SUBCASE("UTF-8 declared: invalid bytes become U+FFFD") {
    opt.encoding = "utf8";
    CHECK(text_of(read(dir, "caf\xE9\n", opt)) ==
          "     1\tcaf" + R + "\n\n[Lines 1-1 of 1. End of file.]\n[1 byte sequence not valid in "
          "UTF-8 is shown as U+FFFD. If the file is in another charset, the likeliest are "
          "windows-1252, windows-1250 and windows-1254: call read again with encoding=\"windows-1252\".]");
  }
  SUBCASE("generic UTF-16 takes its byte order from the BOM") {
    opt.encoding = "utf-16";
    const auto o = read(dir, "\xFF\xFE" + iconv_encode("hi\n", "UTF-16LE"), opt);
    CHECK(text_of(o) == "     1\thi\n\n[Lines 1-1 of 1. End of file.]\n[Decoded from UTF-16LE to UTF-8.]");
    CHECK(o.meta["bom"] == true);
  }
  SUBCASE("an unknown encoding is an error naming accepted ones") {
    opt.encoding = "klingon";
    const auto path = dir.write("k.txt", "text\n");
    const auto o = mcpread::readers::read_text(open_file(path), tool_worded(opt), CancelToken{});
    CHECK(o.is_error);
    CHECK(text_of(o) == "Unknown encoding \"klingon\" for " + path.string() +
                            ". Use a name iconv knows, for example UTF-8, UTF-16LE, UTF-16BE, "
                            "UTF-32LE, WINDOWS-1252, ISO-8859-1, SHIFT_JIS, EUC-JP, GB18030, GBK, "
                            "BIG5, EUC-KR, KOI8-R; or omit encoding to detect it.");
  }
}
