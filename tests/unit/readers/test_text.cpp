// The text reader: cat -n numbering, paging, long lines, the output cap, cancellation, meta.
#include "text_test_util.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <stdexcept>
#include <string>

using namespace std::string_literals;
using mcpread::readers::CancelToken;
using mcpread::test::tool_worded;  // reads worded as the server words them
using mcpread::readers::OpenedFile;
using mcpread::readers::ReadOutcome;
using mcpread::readers::TextBlock;
using mcpread::readers::TextOptions;
using mcpread::test::TempDir;

using mcpread::test::text_util::open_file;
using mcpread::test::text_util::read;
using mcpread::test::text_util::text_of;
using mcpread::test::text_util::kEllipsis;
using mcpread::test::text_util::repeat;

namespace {

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
  SUBCASE("numbers counted on past 9, 99 and 999, on ASCII lines and others alike") {
    std::string file, expected;
    for (int n = 1; n <= 1001; ++n) {
      const std::string line = n % 10 == 0 ? "\xC3\xA9" + std::to_string(n) : "l" + std::to_string(n);
      file += line + "\n";
      char prefix[16];
      std::snprintf(prefix, sizeof prefix, "%6d\t", n);
      expected += prefix + line + "\n";
    }
    CHECK(text_of(read(dir, file)) == expected + "\n[Lines 1-1001 of 1001. End of file.]");
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
#if defined(_WIN32)
  MESSAGE("skipped under Windows: a folder cannot be opened as a file descriptor there (_wopen "
          "refuses), so a reader is never handed one");
#else
  TempDir dir;
  const int fd = ::open(dir.path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  REQUIRE(fd >= 0);
  OpenedFile f{mcpread::readers::UniqueFd(fd), {}, dir.path()};
  ::fstat(fd, &f.st);
  const auto o = mcpread::readers::read_text(f, tool_worded(TextOptions{}), CancelToken{});
  CHECK(o.is_error);
  CHECK(text_of(o) == "Could not read " + dir.path().string() + ": Is a directory.");
#endif
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
    const auto o = mcpread::readers::read_text(open_file(path), tool_worded(opt), CancelToken{});
    CHECK(o.is_error);
    CHECK(text_of(o) == "Offset 11 is past the end of " + path.string() +
                            ": the file has 10 lines. Use an offset from 1 to 10.");
  }
  SUBCASE("offset past the end is counted even when the file is too big to count") {
    opt.offset = 50;
    opt.count_lines_max_bytes = 4;
    const auto path = dir.write("ten.txt", ten);
    const auto o = mcpread::readers::read_text(open_file(path), tool_worded(opt), CancelToken{});
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

TEST_CASE("text cancellation") {
  TempDir dir;
  const auto path = dir.write("c.txt", "some text\n");
  const auto token = CancelToken::make();
  token.cancel();
  const auto o = mcpread::readers::read_text(open_file(path), tool_worded(TextOptions{}), token);
  CHECK(o.cancelled);
  CHECK(o.is_error);
  CHECK(text_of(o) == "The read was cancelled.");
}

TEST_CASE("text meta") {
  TempDir dir;
  const auto path = dir.write("m.txt", numbered_lines(5));
  using namespace std::chrono;
  std::filesystem::last_write_time(
      path, file_clock::from_sys(sys_days{year{2026} / November / 22} + hours{13} + minutes{10} + seconds{5}));
  TextOptions opt;
  opt.offset = 2;
  opt.limit = 2;
  const auto o = mcpread::readers::read_text(open_file(path), tool_worded(opt), CancelToken{});
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
