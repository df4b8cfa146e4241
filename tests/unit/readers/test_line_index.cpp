// The line index: deep offsets read again jump to a remembered chunk, with the same answer as a
// full scan, and stale entries are never used.
#include "fixtures.hpp"
#include "reader_fixtures.hpp"
#include "tool_wording.hpp"

#include "text/line_index.hpp"
#include "mcpread/readers/text.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>

using namespace mcpread::readers;
using mcpread::test::TempDir;
using text_detail::LineIndex;

namespace {

ReadOutcome read_at(const std::filesystem::path& path, std::uint64_t offset, std::uint64_t limit,
                    TextOptions options = {}) {
  const OpenedFile f = mcpread::test::open_file(path);
  options.offset = offset;
  options.limit = limit;
  return read_text(f, mcpread::test::tool_worded(options), CancelToken{});  // as the server words hints
}

std::string text_of(const ReadOutcome& o) { return std::get<TextBlock>(o.blocks.at(0)).text; }

// ~3.4 MB: lines of varying length, one of them 1.5 MB long so that chunk boundaries fall both
// between lines and inside one.
std::string big_file() {
  std::string s;
  for (int i = 1; i <= 60000; ++i) {
    s += "line " + std::to_string(i) + std::string(static_cast<std::size_t>(i % 37), 'x') + "\n";
    if (i == 30000) s += std::string(1'500'000, 'L') + "\n";
  }
  return s;
}

}  // namespace

TEST_CASE("start_chunk") {
  LineIndex index;
  index.chunks = {{0, false}, {100, true}, {200, false}, {250, true}};
  CHECK(text_detail::start_chunk(index, 1) == 0);
  CHECK(text_detail::start_chunk(index, 101) == 0);  // line 101 starts inside chunk 0
  CHECK(text_detail::start_chunk(index, 102) == 1);
  CHECK(text_detail::start_chunk(index, 201) == 2);  // chunk 2 starts exactly at line 201
  CHECK(text_detail::start_chunk(index, 251) == 2);  // line 251 starts before chunk 3
  CHECK(text_detail::start_chunk(index, 9999) == 3);
}

TEST_CASE("line index: repeated deep reads") {
  TempDir dir;
  const auto path = dir.write("big.log", big_file());
  TextOptions small_count;
  small_count.count_lines_max_bytes = 1024;  // totals are not counted for this file by default

  SUBCASE("the second read of a deep window equals the first, and the first scan is remembered") {
    for (std::uint64_t offset : {45000u, 30001u, 30002u, 59990u, 2u}) {
      CAPTURE(offset);
      const auto first = read_at(path, offset, 5, small_count);
      const auto again = read_at(path, offset, 5, small_count);
      CHECK(text_of(first) == text_of(again));
      // Line 30001 is the long one; the numbered lines after it are one behind their text.
      const std::string expected = offset == 30001 ? std::string(" 30001\tLLLL")
                                   : " " + std::to_string(offset) + "\tline " +
                                         std::to_string(offset > 30001 ? offset - 1 : offset);
      CHECK(text_of(again).find(expected) != std::string::npos);
    }
    const OpenedFile f = mcpread::test::open_file(path);
    CHECK(text_detail::LineIndexCache::instance().find(file_io::identity(f)).chunks.size() >= 3);
  }
  SUBCASE("past the end is measured the same way with and without the index") {
    const auto first = read_at(path, 70000, 5, small_count);
    const auto again = read_at(path, 70000, 5, small_count);
    CHECK(text_of(first) == "Offset 70000 is past the end of " + path.string() +
                                ": the file has 60001 lines. Use an offset from 1 to 60001.");
    CHECK(text_of(again) == text_of(first));
  }
  SUBCASE("once a read reached the end, later reads report the total") {
    CHECK_FALSE(read_at(path, 1, 3, small_count).meta.contains("total_lines"));
    read_at(path, 60001, 1, small_count);
    const auto later = read_at(path, 1, 3, small_count);
    CHECK(later.meta["total_lines"] == 60001);
    CHECK(text_of(later).find("[Lines 1-3 of 60001. To read more, call read again with offset=4.]") !=
          std::string::npos);
  }
  SUBCASE("a changed file is scanned afresh") {
    read_at(path, 59000, 1, small_count);
    std::string changed = "new first line\n" + big_file();
    dir.write("big.log", changed);  // same inode, new size and mtime
    const auto after = read_at(path, 59001, 1, small_count);
    CHECK(text_of(after).rfind(" 59001\tline 58999", 0) == 0);
  }
}

TEST_CASE("line index: the charset detected is kept for the file's version") {
  TempDir dir;
  // "Привет, мир" in KOI8-R, then the same number of bytes that are plainly Windows-1251.
  const std::string koi8 = "\xf0\xd2\xc9\xd7\xc5\xd4, \xcd\xc9\xd2\n";
  const std::string cp1251 = "\xcf\xf0\xe8\xe2\xe5\xf2, \xec\xe8\xf0\n";
  std::string first, second;
  for (int i = 0; i < 200; ++i) first += koi8, second += cp1251;
  REQUIRE(first.size() == second.size());
  const auto path = dir.write("ru.txt", first);
  const auto detected = read_at(path, 1, 1).meta["charset"];
  CHECK(detected == "KOI8-R");
  const OpenedFile f = mcpread::test::open_file(path);
  const auto kept = text_detail::LineIndexCache::instance().find(file_io::identity(f)).charset;
  REQUIRE(kept.has_value());
  CHECK(kept->name == "KOI8-R");

  SUBCASE("the same version, rewritten in place with its mtime put back, is taken for the same file") {
    struct stat before {};
    REQUIRE(::stat(path.c_str(), &before) == 0);
    dir.write("ru.txt", second);
    const timespec times[2] = {before.st_atim, before.st_mtim};
    REQUIRE(::utimensat(AT_FDCWD, path.c_str(), times, 0) == 0);
    CHECK(read_at(path, 1, 1).meta["charset"] == "KOI8-R");  // not detected again
  }
  SUBCASE("a new version is detected afresh") {
    dir.write("ru.txt", second + "\xcf\xf0\xe8\n");
    CHECK(read_at(path, 1, 1).meta["charset"] == "WINDOWS-1251");
  }
  SUBCASE("an encoding asked for is not taken from, nor kept as, what was detected") {
    TextOptions options;
    options.encoding = "WINDOWS-1251";
    CHECK(read_at(path, 1, 1, options).meta["charset"] == "WINDOWS-1251");
    CHECK(read_at(path, 1, 1).meta["charset"] == "KOI8-R");
  }
}
