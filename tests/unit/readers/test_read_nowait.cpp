// Reads that must not wait (ReadRequest::nowait): small plain text all in the page cache is read;
// everything that could wait comes back deferred, unread; refusals are answered.
#include "fixtures.hpp"
#include "reader_fixtures.hpp"

#include "mcpread/readers/read.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <sys/statfs.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>

using namespace mcpread::readers;
using mcpread::test::TempDir;

namespace {

ReadOutcome read_nowait(const TempDir& dir, const std::string& path, std::uint64_t max_bytes = 1024) {
  ReadRequest request;
  request.file_path = path;
  request.nowait = max_bytes;
  return read_file(mcpread::test::roots_of(dir), request, ReadLimits{}, CancelToken{});
}

std::string text_of(const ReadOutcome& o) {
  REQUIRE(!o.blocks.empty());
  return std::get<TextBlock>(o.blocks.front()).text;
}

}  // namespace

TEST_CASE("reads without waiting: small cached plain text only") {
  TempDir dir;
  const std::string text = "int main() {\n  return 0;\n}\n";
  const std::string path = dir.write("main.cpp", text).string();

  SUBCASE("a small text file just written (so cached) is read, as a read that may wait reads it") {
    const ReadOutcome o = read_nowait(dir, path);
    CHECK_FALSE(o.deferred);
    CHECK_FALSE(o.is_error);
    ReadRequest plain;
    plain.file_path = path;
    CHECK(text_of(o) == text_of(read_file(mcpread::test::roots_of(dir), plain, ReadLimits{}, CancelToken{})));
  }
  SUBCASE("a relative path is resolved in the roots like any other") {
    CHECK(text_of(read_nowait(dir, "main.cpp")).find("return 0;") != std::string::npos);
  }
  SUBCASE("over the size given, it is deferred") { CHECK(read_nowait(dir, path, text.size() - 1).deferred); }
  SUBCASE("an empty file is answered") {
    const ReadOutcome o = read_nowait(dir, dir.write("empty.txt", "").string());
    CHECK_FALSE(o.deferred);
    CHECK(text_of(o).find("The file is empty") != std::string::npos);
  }
  SUBCASE("a directory is deferred (a listing may be long); a missing file is refused at once") {
    CHECK(read_nowait(dir, dir.path().string()).deferred);
    const ReadOutcome missing = read_nowait(dir, dir.path().string() + "/missing.txt");
    CHECK_FALSE(missing.deferred);
    CHECK(missing.is_error);
  }
  SUBCASE("a path outside the roots is refused without being opened for reading") {
    TempDir other;
    const ReadOutcome o = read_nowait(dir, other.write("secret.txt", "x\n").string());
    CHECK_FALSE(o.deferred);
    CHECK(o.is_error);
  }
  SUBCASE("a FIFO is not read, and asking does not wait for a writer") {
    const std::string fifo = dir.path().string() + "/pipe";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    const ReadOutcome o = read_nowait(dir, fifo);
    CHECK((o.deferred || o.is_error));
  }
  SUBCASE("other kinds are deferred, even small: they decode") {
    CHECK(read_nowait(dir, dir.write("a.png", std::string("\x89PNG\r\n\x1A\n", 8) + std::string(64, '\0')).string()).deferred);
    CHECK(read_nowait(dir, dir.write("a.pdf", "%PDF-1.4\n%\xE2\xE3\xCF\xD3\n").string()).deferred);
    CHECK(read_nowait(dir, dir.write("a.ipynb", R"({"cells": [], "nbformat": 4, "nbformat_minor": 5, "metadata": {}})").string()).deferred);
    CHECK(read_nowait(dir, dir.write("a.bin", std::string("\x7F" "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0", 16)).string()).deferred);
  }
  SUBCASE("a file whose pages left the page cache is deferred") {
    // Pages are dropped only once written back and when nothing maps them: fsync, then advise.
    const std::string big = dir.write("big.txt", std::string(256 * 1024, 'a') + "\n").string();
    const int fd = ::open(big.c_str(), O_RDONLY | O_CLOEXEC);
    REQUIRE(fd >= 0);
    REQUIRE(::fsync(fd) == 0);
    struct statfs fs {};
    REQUIRE(::fstatfs(fd, &fs) == 0);
    // A read that may not wait starts the disk reading ahead before it gives up, and on a fast
    // disk (a virtual machine's, served from its host's cache) the pages can be in before the
    // kernel looks again: the read then goes through without having waited (on one such
    // machine, 25 times in 40). Dropped and asked again, until one is deferred; each that goes
    // through must be the file's text.
    ReadRequest plain;
    plain.file_path = big;
    const std::string whole = text_of(read_file(mcpread::test::roots_of(dir), plain, ReadLimits{}, CancelToken{}));
    bool deferred = false;
    for (int attempt = 0; attempt < 20 && !deferred; ++attempt) {
      REQUIRE(::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) == 0);
      const ReadOutcome o = read_nowait(dir, big, 1024 * 1024);
      REQUIRE_FALSE(o.is_error);
      deferred = o.deferred;
      if (!deferred) CHECK(text_of(o) == whole);
      // tmpfs keeps every page in memory (there is nothing to drop): there the file is read.
      if (fs.f_type == TMPFS_MAGIC) break;
    }
    ::close(fd);
    if (fs.f_type == TMPFS_MAGIC) CHECK_FALSE(deferred);
    else if (!deferred) MESSAGE("the disk had the pages in at once on each of 20 reads that may not wait");
    CHECK_FALSE(read_file(mcpread::test::roots_of(dir), plain, ReadLimits{}, CancelToken{}).deferred);
  }
}
