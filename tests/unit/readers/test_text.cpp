#include "text_test_util.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ctime>
#include <stdexcept>
#include <string>

using namespace std::string_literals;
using mcpread::readers::CancelToken;
using mcpread::readers::OpenedFile;
using mcpread::readers::ReadOutcome;
using mcpread::readers::TextBlock;
using mcpread::readers::TextOptions;
using mcpread::test::TempDir;

using mcpread::test::iconv_encode;
using mcpread::test::text_util::open_file;
using mcpread::test::text_util::read;
using mcpread::test::text_util::text_of;

namespace {

const std::string R = "\xEF\xBF\xBD";  // U+FFFD
const std::string kEllipsis = " \xE2\x80\xA6 ";


std::string repeat(const std::string& s, std::size_t n) {
  std::string r;
  r.reserve(s.size() * n);
  for (std::size_t i = 0; i < n; ++i) r += s;
  return r;
}

// "line1\nline2\n...lineN\n"
std::string numbered_lines(int n) {
  std::string r;
  for (int i = 1; i <= n; ++i) r += "line" + std::to_string(i) + "\n";
  return r;
}

}  // namespace

TEST_CASE("text cat -n format") {
  TempDir dir;
  SUBCASE("numbers right-aligned in six columns, a tab, the line") {
    const auto o = read(dir, "alpha\nbeta\n\ngamma\n");
    CHECK_FALSE(o.is_error);
    CHECK(text_of(o) ==
          "     1\talpha\n     2\tbeta\n     3\t\n     4\tgamma\n\n[Lines 1-4 of 4. End of file.]");
  }
  SUBCASE("7-digit line numbers just grow") {
    TextOptions opt;
    opt.offset = 999'999;
    opt.limit = 3;
    const auto o = read(dir, repeat("x\n", 1'000'001), opt);
    CHECK(text_of(o) == "999999\tx\n1000000\tx\n1000001\tx\n\n[Lines 999999-1000001 of 1000001. End of file.]");
  }
  SUBCASE("a final line without newline is a line") {
    CHECK(text_of(read(dir, "a\nb")) == "     1\ta\n     2\tb\n\n[Lines 1-2 of 2. End of file.]");
  }
  SUBCASE("a trailing newline adds no empty line") {
    CHECK(text_of(read(dir, "a\nb\n")) == "     1\ta\n     2\tb\n\n[Lines 1-2 of 2. End of file.]");
    CHECK(text_of(read(dir, "\n")) == "     1\t\n\n[Lines 1-1 of 1. End of file.]");
  }
  SUBCASE("CRLF line ends lose their CR; a lone CR inside a line stays") {
    CHECK(text_of(read(dir, "one\r\ntwo\r\nthree")) ==
          "     1\tone\n     2\ttwo\n     3\tthree\n\n[Lines 1-3 of 3. End of file.]");
    CHECK(text_of(read(dir, "a\rb\r\n")) == "     1\ta\rb\n\n[Lines 1-1 of 1. End of file.]");
  }
  SUBCASE("CRLF split across two read chunks") {
    const std::string first((1u << 20) - 1, 'a');  // '\r' is the chunk's last byte
    TextOptions opt;
    opt.max_line_chars = 3;
    CHECK(text_of(read(dir, first + "\r\nend\r\n", opt)) ==
          "     1\taaa" + kEllipsis + "[line cut at 3 of 1048575 characters; read on with offset=1, limit=1, column=4]\n     2\tend\n\n"
          "[Lines 1-2 of 2. End of file.]\n[1 line(s) longer than 3 characters were cut.]");
  }
}

TEST_CASE("text empty file") {
  TempDir dir;
  const auto o = read(dir, "");
  CHECK_FALSE(o.is_error);
  CHECK(text_of(o) == "[The file is empty (0 bytes).]");
  CHECK(o.meta["total_lines"] == 0);
  CHECK(o.meta["end_line"] == 0);
  CHECK(o.meta["truncated"] == false);
  TextOptions opt;
  opt.offset = 5;
  CHECK(text_of(read(dir, "", opt)) == "[The file is empty (0 bytes).]");
}

TEST_CASE("text byte-order mark only") {
  TempDir dir;
  const auto o = read(dir, "\xEF\xBB\xBF");
  CHECK_FALSE(o.is_error);
  CHECK(text_of(o) == "[The file holds no text, only a UTF-8 byte-order mark (3 bytes).]");
  CHECK(o.meta["bom"] == true);
  CHECK(o.meta["total_lines"] == 0);
}

TEST_CASE("text read error names the file") {
  TempDir dir;
  const int fd = ::open(dir.path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  REQUIRE(fd >= 0);
  OpenedFile f{mcpread::readers::UniqueFd(fd), {}, dir.path()};
  ::fstat(fd, &f.st);
  const auto o = mcpread::readers::read_text(f, TextOptions{}, CancelToken{});
  CHECK(o.is_error);
  CHECK(text_of(o) == "Could not read " + dir.path().string() + ": Is a directory.");
}

TEST_CASE("text offset and limit") {
  TempDir dir;
  const std::string ten = numbered_lines(10);
  TextOptions opt;
  SUBCASE("a window in the middle") {
    opt.offset = 3;
    opt.limit = 2;
    const auto o = read(dir, ten, opt);
    CHECK(text_of(o) == "     3\tline3\n     4\tline4\n\n"
                        "[Lines 3-4 of 10. To read more, call read again with offset=5.]");
    CHECK(o.meta["next_offset"] == 5);
    CHECK(o.meta["truncated"] == true);
  }
  SUBCASE("offset 0 is read as 1") {
    opt.offset = 0;
    opt.limit = 1;
    CHECK(text_of(read(dir, ten, opt)) ==
          "     1\tline1\n\n[Lines 1-1 of 10. To read more, call read again with offset=2.]");
  }
  SUBCASE("a limit ending on the last line reaches the end of file") {
    opt.offset = 9;
    opt.limit = 2;
    const auto o = read(dir, ten, opt);
    CHECK(text_of(o) == "     9\tline9\n    10\tline10\n\n[Lines 9-10 of 10. End of file.]");
    CHECK_FALSE(o.meta.contains("next_offset"));
    CHECK(o.meta["truncated"] == false);
  }
  SUBCASE("the window starts exactly at a read chunk boundary") {
    opt.offset = 2;
    const std::string first((1u << 20) - 1, 'a');  // line 1 fills the first 1 MiB chunk
    CHECK(text_of(read(dir, first + "\nsecond\nthird", opt)) ==
          "     2\tsecond\n     3\tthird\n\n[Lines 2-3 of 3. End of file.]");
  }
  SUBCASE("offset on the last line") {
    opt.offset = 10;
    CHECK(text_of(read(dir, ten, opt)) == "    10\tline10\n\n[Lines 10-10 of 10. End of file.]");
  }
  SUBCASE("offset past the end is an error with the line count") {
    opt.offset = 11;
    const auto path = dir.write("ten.txt", ten);
    const auto o = mcpread::readers::read_text(open_file(path), opt, CancelToken{});
    CHECK(o.is_error);
    CHECK(text_of(o) == "Offset 11 is past the end of " + path.string() +
                            ": the file has 10 lines. Use an offset from 1 to 10.");
  }
  SUBCASE("offset past the end is counted even when the file is too big to count") {
    opt.offset = 50;
    opt.count_lines_max_bytes = 4;
    const auto path = dir.write("ten.txt", ten);
    const auto o = mcpread::readers::read_text(open_file(path), opt, CancelToken{});
    CHECK(o.is_error);
    CHECK(text_of(o) == "Offset 50 is past the end of " + path.string() +
                            ": the file has 10 lines. Use an offset from 1 to 10.");
  }
}

TEST_CASE("text totals are not counted past count_lines_max_bytes") {
  TempDir dir;
  const std::string ten = numbered_lines(10);  // 61 bytes
  TextOptions opt;
  opt.count_lines_max_bytes = 60;
  opt.limit = 3;
  SUBCASE("more follows: the size is given instead of the total") {
    const auto o = read(dir, ten, opt);
    CHECK(text_of(o) == "     1\tline1\n     2\tline2\n     3\tline3\n\n"
                        "[Lines 1-3; more lines follow (file is 61 bytes). To read more, call read "
                        "again with offset=4.]");
    CHECK_FALSE(o.meta.contains("total_lines"));
    CHECK(o.meta["next_offset"] == 4);
  }
  SUBCASE("the end of file is still reported with its total") {
    opt.offset = 8;
    const auto o = read(dir, ten, opt);
    CHECK(text_of(o) == "     8\tline8\n     9\tline9\n    10\tline10\n\n[Lines 8-10 of 10. End of file.]");
    CHECK(o.meta["total_lines"] == 10);
  }
}

TEST_CASE("text long lines") {
  TempDir dir;
  SUBCASE("a 50 MB single line costs almost nothing") {
    const std::size_t big = 50u << 20;
    std::string content(big, 'x');
    content += "\ntail\n";
    const auto o = read(dir, content);
    content.clear();
    const auto text = text_of(o);
    CHECK(text.size() < 2200);
    CHECK(text == "     1\t" + std::string(2000, 'x') + kEllipsis +
                      "[line cut at 2000 of 52428800 characters; read on with offset=1, limit=1, column=2001]\n     2\ttail\n\n"
                      "[Lines 1-2 of 2. End of file.]\n"
                      "[1 line(s) longer than 2000 characters were cut.]");
    CHECK(o.meta["long_lines_cut"] == 1);
  }
  SUBCASE("the cut falls on a character boundary (é, 2 bytes)") {
    const std::string e = "\xC3\xA9";
    const auto o = read(dir, repeat(e, 2500) + "\n" + repeat(e, 2000) + "\n");
    CHECK(text_of(o) == "     1\t" + repeat(e, 2000) + kEllipsis +
                            "[line cut at 2000 of 2500 characters; read on with offset=1, limit=1, column=2001]\n     2\t" + repeat(e, 2000) +
                            "\n\n[Lines 1-2 of 2. End of file.]\n"
                            "[1 line(s) longer than 2000 characters were cut.]");
  }
  SUBCASE("CJK (3 bytes) and a smaller max_line_chars") {
    TextOptions opt;
    opt.max_line_chars = 5;
    const auto o = read(dir, repeat("中", 3000) + "\r\n" + "short\n" + repeat("中", 6), opt);
    CHECK(text_of(o) == "     1\t中中中中中" + kEllipsis + "[line cut at 5 of 3000 characters; read on with offset=1, limit=1, column=6]\n"
                        "     2\tshort\n     3\t中中中中中" + kEllipsis +
                        "[line cut at 5 of 6 characters; read on with offset=3, limit=1, column=6]\n\n[Lines 1-3 of 3. End of file.]\n"
                        "[2 line(s) longer than 5 characters were cut.]");
    CHECK(o.meta["long_lines_cut"] == 2);
  }
}

TEST_CASE("text output cap") {
  TempDir dir;
  const std::string content = repeat(std::string(50, 'a') + "\n", 100);  // 58 bytes per numbered line
  TextOptions opt;
  opt.max_output_bytes = 200;
  const std::string three = "     1\t" + std::string(50, 'a') + "\n     2\t" +
                            std::string(50, 'a') + "\n     3\t" + std::string(50, 'a') + "\n\n";
  SUBCASE("stops before the line that would exceed the cap") {
    const auto o = read(dir, content, opt);
    CHECK(text_of(o) == three + "[Output capped at 200 bytes: lines 1-3 of 100 shown. To read "
                                "more, call read again with offset=4.]");
    CHECK(o.meta["end_line"] == 3);
    CHECK(o.meta["next_offset"] == 4);
    CHECK(o.meta["truncated"] == true);
    CHECK(o.meta["total_lines"] == 100);
  }
  SUBCASE("not counted") {
    opt.count_lines_max_bytes = 100;
    CHECK(text_of(read(dir, content, opt)) ==
          three + "[Output capped at 200 bytes: lines 1-3 shown. To read more, call read again "
                  "with offset=4.]");
  }
  SUBCASE("at least one line is always shown") {
    opt.max_output_bytes = 10;
    opt.offset = 100;
    CHECK(text_of(read(dir, content, opt)) ==
          "   100\t" + std::string(50, 'a') + "\n\n[Lines 100-100 of 100. End of file.]");
    opt.offset = 99;
    CHECK(text_of(read(dir, content, opt)) ==
          "    99\t" + std::string(50, 'a') +
              "\n\n[Output capped at 10 bytes: lines 99-99 of 100 shown. To read more, call read "
              "again with offset=100.]");
  }
}

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
    const auto o = mcpread::readers::read_text(open_file(path), opt, CancelToken{});
    CHECK(o.is_error);
    CHECK(text_of(o) == "Unknown encoding \"klingon\" for " + path.string() +
                            ". Use a name iconv knows, for example UTF-8, UTF-16LE, UTF-16BE, "
                            "UTF-32LE, WINDOWS-1252, ISO-8859-1, SHIFT_JIS, EUC-JP, GB18030, GBK, "
                            "BIG5, EUC-KR, KOI8-R; or omit encoding to detect it.");
  }
}

TEST_CASE("text cancellation") {
  TempDir dir;
  const auto path = dir.write("c.txt", "some text\n");
  const auto token = CancelToken::make();
  token.cancel();
  const auto o = mcpread::readers::read_text(open_file(path), TextOptions{}, token);
  CHECK(o.cancelled);
  CHECK(o.is_error);
  CHECK(text_of(o) == "The read was cancelled.");
}

TEST_CASE("text meta") {
  TempDir dir;
  const auto path = dir.write("m.txt", numbered_lines(5));
  std::tm tm{};
  tm.tm_year = 2026 - 1900;
  tm.tm_mon = 10;
  tm.tm_mday = 22;
  tm.tm_hour = 13;
  tm.tm_min = 10;
  tm.tm_sec = 5;
  const timespec times[2] = {{timegm(&tm), 0}, {timegm(&tm), 0}};
  REQUIRE(::utimensat(AT_FDCWD, path.c_str(), times, 0) == 0);
  TextOptions opt;
  opt.offset = 2;
  opt.limit = 2;
  const auto o = mcpread::readers::read_text(open_file(path), opt, CancelToken{});
  CHECK(o.meta == nlohmann::json{{"path", path.string()},
                                 {"size", 30},
                                 {"mtime", "2026-11-22T13:10:05Z"},
                                 {"charset", "UTF-8"},
                                 {"bom", false},
                                 {"total_lines", 5},
                                 {"start_line", 2},
                                 {"end_line", 3},
                                 {"next_offset", 4},
                                 {"truncated", true},
                                 {"long_lines_cut", 0}});
}
