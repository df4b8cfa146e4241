// Hostile files, one SUBCASE per row: each row starts its own server (so VmHWM is the row's own
// peak), reads the file, checks the exact answer, checks that the server still answers, and
// checks that its peak memory stayed under a bound that follows from the design and lies well
// below the input size. Media and documents are in test_hostile_media.cpp.
#include "fixtures.hpp"
#include "hostile_helpers.hpp"
#include "mcp_client.hpp"

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

using namespace mcpread::test;
using namespace mcpread::test::hostile;
using nlohmann::json;

TEST_CASE("hostile files: contents") {
  const std::uint64_t gib = 1ull << 30;
  const std::uint64_t line_bytes = 50ull << 20;
  const std::vector<Row> rows = {
      {"0 bytes",
       [](const TempDir& root) {
         root.write("empty.txt", "");
         return json{{"file_path", "empty.txt"}};
       },
       [](const json& r, const TempDir&) {
         CHECK_FALSE(r.contains("isError"));
         CHECK(text_of(r) == "[The file is empty (0 bytes).]");
         CHECK(r["_meta"]["total_lines"] == 0);
       }},
      // Classification looks at the first 64 KiB only: a 1 GiB file is refused unread.
      {"1 GiB sparse file, default read",
       [gib](const TempDir& root) {
         write_sparse((root.path() / "sparse.bin").string(), "", gib);
         return json{{"file_path", "sparse.bin"}};
       },
       [](const json& r, const TempDir& root) {
         CHECK(r["isError"] == true);
         CHECK(text_of(r) == (root.path() / "sparse.bin").string() +
                                 " is a binary file (data (application/octet-stream), 1.0 GB) and"
                                 " cannot be shown as text. If it is text in "
                                 "an unusual charset, call read with file_type=\"text\" and an "
                                 "encoding such as encoding=\"windows-1252\".");
       },
       text_mib, "only the 64 KiB head is read to classify the file"},
      // Forced to text, the file is one line of 2^30 NULs: it is streamed to find the line's end
      // (its length is reported) but only the first 2000 characters are kept.
      {"1 GiB sparse file as text",
       [gib](const TempDir& root) {
         write_sparse((root.path() / "sparse.bin").string(), "", gib);
         return json{{"file_path", "sparse.bin"}, {"file_type", "text"}, {"limit", 1}};
       },
       [](const json& r, const TempDir&) {
         CHECK_FALSE(r.contains("isError"));
         CHECK(text_of(r) == "     1\t" + std::string(2000, '\0') +
                                 " \u2026 [line cut at 2000 of 1073741824 characters; read on with offset=1, limit=1, column=2001]\n\n"
                                 "[Lines 1-1 of 1. End of file.]\n"
                                 "[1 line(s) longer than 2000 characters were cut.]");
         CHECK(r["_meta"]["long_lines_cut"] == 1);
       },
       text_mib, "1 GiB streamed in 1 MiB chunks, 2000 characters kept"},
      {"a single 50 MiB line",
       [line_bytes](const TempDir& root) {
         root.write("line.txt", std::string(line_bytes, 'a') + "\nsecond\n");
         return json{{"file_path", "line.txt"}};
       },
       [](const json& r, const TempDir&) {
         CHECK_FALSE(r.contains("isError"));
         CHECK(text_of(r) == "     1\t" + std::string(2000, 'a') +
                                 " \u2026 [line cut at 2000 of 52428800 characters; read on with offset=1, limit=1, column=2001]\n"
                                 "     2\tsecond\n\n[Lines 1-2 of 2. End of file.]\n"
                                 "[1 line(s) longer than 2000 characters were cut.]");
         CHECK(r["_meta"]["total_lines"] == 2);
       },
       text_mib, "a 50 MiB line is never held: 2000 characters of it are"},
      {"NUL-filled",
       [](const TempDir& root) {
         root.write("zeros.txt", std::string(100000, '\0'));
         return json{{"file_path", "zeros.txt"}};
       },
       [](const json& r, const TempDir& root) {
         CHECK(r["isError"] == true);
         CHECK(text_of(r) == (root.path() / "zeros.txt").string() +
                                 " is a binary file (data (application/octet-stream), 97.7 KB) and"
                                 " cannot be shown as text. If it is text in an "
                                 "unusual charset, call read with file_type=\"text\" and an encoding "
                                 "such as encoding=\"windows-1252\".");
       }},
      // Every non-ASCII byte is a stray continuation or a never-valid lead byte. Read as UTF-8
      // (encoding= forces it), each becomes one U+FFFD and the answer says so.
      {"invalid UTF-8 everywhere, read as UTF-8",
       [](const TempDir& root) {
         std::string bad;
         for (int i = 0; i < 200; ++i) bad += "\x80\xBF\xC0\xC1\xF5\xFF\xFE bad \x80\n";
         root.write("bad.txt", bad);
         return json{{"file_path", "bad.txt"}, {"limit", 1}, {"encoding", "utf-8"}};
       },
       [](const json& r, const TempDir&) {
         CHECK_FALSE(r.contains("isError"));
         std::string seven;  // one U+FFFD per invalid byte
         for (int i = 0; i < 7; ++i) seven += "\uFFFD";
         CHECK(text_of(r) == "     1\t" + seven + " bad \uFFFD\n\n[Lines 1-1 of 200. To read more, call read again "
                                 "with offset=2.]\n[8 byte sequences not valid in UTF-8 are shown as "
                                 "U+FFFD. If the file is in another charset, the likeliest are "
                                 "windows-1252, windows-1254 and windows-1251: call read again with "
                                 "encoding=\"windows-1252\".]");
       }},
      {"UTF-16LE without a byte-order mark",
       [](const TempDir& root) {
         std::string utf16;
         for (int i = 0; i < 50; ++i)
           for (char c : std::string("hello world\n")) utf16 += std::string{c, '\0'};
         root.write("wide.txt", utf16);
         return json{{"file_path", "wide.txt"}, {"limit", 2}};
       },
       [](const json& r, const TempDir&) {
         CHECK_FALSE(r.contains("isError"));
         CHECK(text_of(r) == "     1\thello world\n     2\thello world\n\n[Lines 1-2 of 50. To read "
                             "more, call read again with offset=3.]\n[Decoded from UTF-16LE to UTF-8.]");
         CHECK(r["_meta"]["charset"] == "UTF-16LE");
         CHECK(r["_meta"]["bom"] == false);
       }},
      // Lines end at \n; a CR before it is dropped; a lone CR (old Mac) is kept inside the line.
      {"mixed line endings",
       [](const TempDir& root) {
         root.write("mixed.txt", "unix\nwindows\r\nmac\rstill mac\nlast");
         return json{{"file_path", "mixed.txt"}};
       },
       [](const json& r, const TempDir&) {
         CHECK_FALSE(r.contains("isError"));
         CHECK(text_of(r) == "     1\tunix\n     2\twindows\n     3\tmac\rstill mac\n     4\tlast\n\n"
                             "[Lines 1-4 of 4. End of file.]");
       }},
      // A .json of 100k nested arrays is text: nothing parses it, so no recursion can overflow.
      {"100k nested JSON arrays, read as text",
       [](const TempDir& root) {
         root.write("deep.json", std::string(100000, '[') + std::string(100000, ']') + "\n");
         return json{{"file_path", "deep.json"}};
       },
       [](const json& r, const TempDir&) {
         CHECK_FALSE(r.contains("isError"));
         CHECK(text_of(r) == "     1\t" + std::string(2000, '[') +
                                 " \u2026 [line cut at 2000 of 200000 characters; read on with offset=1, limit=1, column=2001]\n\n"
                                 "[Lines 1-1 of 1. End of file.]\n"
                                 "[1 line(s) longer than 2000 characters were cut.]\n"
                                 "[To read this JSON a value per line, call read with "
                                 "file_type=\"json\": it is shown pretty-printed.]");
         CHECK(r["_meta"]["mime"] == "application/json");
       }},
  };
  run_rows(rows);
}

namespace {

// A path that cannot be read: the exact error, without blocking, and the server goes on.
struct Refusal {
  const char* name;
  // Creates what the row needs under `root` (and `outside`, a directory outside the roots) and
  // returns the path to read.
  std::function<std::string(const TempDir& root, const TempDir& outside)> setup;
  std::function<std::string(const TempDir& root, const TempDir& outside)> message;
  std::vector<std::string> extra_roots = {};
};

}  // namespace

// FIFOs, devices, symbolic links and mode bits are POSIX's; Windows' reserved names, reparse
// points and refusals are tests/windows/test_readers.cpp's and the platform suite's.
#if !defined(_WIN32)
TEST_CASE("hostile files: special files, links and permissions") {
  const std::vector<Refusal> rows = {
      // open() of a FIFO with no writer would block: it is refused from lstat, never opened.
      {"a FIFO",
       [](const TempDir& root, const TempDir&) {
         REQUIRE(::mkfifo((root.path() / "pipe").c_str(), 0600) == 0);
         return std::string("pipe");
       },
       [](const TempDir& root, const TempDir&) {
         return (root.path() / "pipe").string() +
                " is a FIFO (named pipe); only regular files and directories can be read.";
       }},
      // /dev is made a root so that the device itself is reached: endless, so it must be refused
      // by its type before any read.
      {"/dev/zero inside a root",
       [](const TempDir&, const TempDir&) { return std::string("/dev/zero"); },
       [](const TempDir&, const TempDir&) {
         return std::string("/dev/zero is a character device; only regular files and directories can be read.");
       },
       {"/dev"}},
      {"/dev/zero through a symbolic link in the root",
       [](const TempDir& root, const TempDir&) {
         std::filesystem::create_symlink("/dev/zero", root.path() / "zero.txt");
         return std::string("zero.txt");
       },
       [](const TempDir& root, const TempDir&) {
         return "Access denied: " + (root.path() / "zero.txt").string() +
                " is a symbolic link that leads outside the allowed roots (" + root.path().string() +
                ") to /dev/zero.";
       }},
      {"a symbolic link loop",
       [](const TempDir& root, const TempDir&) {
         std::filesystem::create_symlink("b", root.path() / "a");
         std::filesystem::create_symlink("a", root.path() / "b");
         return std::string("a");
       },
       [](const TempDir& root, const TempDir&) {
         return "Cannot read " + (root.path() / "a").string() +
                ": symbolic link loop (Too many levels of symbolic links).";
       }},
      {"a symbolic link out of the root",
       [](const TempDir& root, const TempDir& outside) {
         outside.write("secret.txt", "top secret\n");
         std::filesystem::create_symlink(outside.path() / "secret.txt", root.path() / "link.txt");
         return std::string("link.txt");
       },
       [](const TempDir& root, const TempDir& outside) {
         return "Access denied: " + (root.path() / "link.txt").string() +
                " is a symbolic link that leads outside the allowed roots (" + root.path().string() +
                ") to " + (outside.path() / "secret.txt").string() + ".";
       }},
  };
  for (const Refusal& row : rows) {
    SUBCASE(row.name) {
      TempDir root, outside;
      root.write("small.txt", "small\n");
      const std::string path = row.setup(root, outside);
      std::vector<std::string> args = row.extra_roots;
      args.insert(args.begin(), root.path().string());
      McpClient client{McpClient::Options(args)};
      client.initialize();
      const json r = client.call("read", {{"file_path", path}});
      CHECK(r["isError"] == true);
      CHECK(text_of(r) == row.message(root, outside));
      check_still_serving(client, (root.path() / "small.txt").string());
      check_peak_under(client, text_mib, "refused before any content is read");
    }
  }

  // Root bypasses mode bits (CAP_DAC_OVERRIDE), so as root the server is started through
  // setpriv with the two DAC capabilities removed: then mode 000 denies it as it would anyone.
  SUBCASE("a file without read permission") {
    TempDir root;
    root.write("small.txt", "small\n");
    const auto locked = root.write("locked.txt", "secret\n");
    std::filesystem::permissions(locked, std::filesystem::perms::none);
    McpClient::Options options({root.path().string()});
    if (::geteuid() == 0) {
      const std::string setpriv = "/usr/bin/setpriv";
      const std::string drop = "-dac_override,-dac_read_search";
      if (::access(setpriv.c_str(), X_OK) != 0 ||
          std::system((setpriv + " --bounding-set=" + drop + " --inh-caps=" + drop + " true").c_str()) != 0) {
        MESSAGE("skipped: running as root and setpriv cannot drop CAP_DAC_OVERRIDE here, so mode "
                "bits cannot deny a read");
        return;
      }
      options.prefix = {setpriv, "--bounding-set=" + drop, "--inh-caps=" + drop};
    }
    McpClient client(options);
    client.initialize();
    const json r = client.call("read", {{"file_path", "locked.txt"}});
    CHECK(r["isError"] == true);
    CHECK(text_of(r) == "Permission denied: cannot read " + locked.string() +
                            " (Permission denied). Check the file's permissions.");
    check_still_serving(client, "small.txt");
    check_peak_under(client, text_mib, "refused at open");
  }
}

#endif  // !_WIN32

// A file that changes under the server between two calls: replaced, grown, shrunk or deleted,
// each answer exact. (Changes while a read runs, which cannot be timed from outside the process,
// are in test_hostile_races.cpp, with assertions that hold for any interleaving.) Each read works through one
// descriptor (pread, checked against lstat by device and inode), and the line-count cache is keyed
// by inode, size and mtime, so no answer may mix the old file with the new one.
TEST_CASE("hostile files: files that change between calls") {
  TempDir root;
  const auto path = root.write("log.txt", "one\ntwo\n");
  McpClient client({{root.path().string()}});
  client.initialize();
  const json first = client.call("read", {{"file_path", "log.txt"}});
  CHECK(text_of(first) == "     1\tone\n     2\ttwo\n\n[Lines 1-2 of 2. End of file.]");

  SUBCASE("replaced by rename") {
    root.write("log.new", "alpha\n");
    std::filesystem::rename(root.path() / "log.new", path);
    CHECK(text_of(client.call("read", {{"file_path", "log.txt"}})) ==
          "     1\talpha\n\n[Lines 1-1 of 1. End of file.]");
  }
  SUBCASE("grown by appending") {
    {
      std::ofstream out(path, std::ios::app);
      out << "three\nfour\n";
    }
    CHECK(text_of(client.call("read", {{"file_path", "log.txt"}, {"offset", 3}})) ==
          "     3\tthree\n     4\tfour\n\n[Lines 3-4 of 4. End of file.]");
  }
  SUBCASE("shrunk by truncation") {
    std::filesystem::resize_file(path, 4);  // "one\n"
    const json r = client.call("read", {{"file_path", "log.txt"}, {"offset", 2}});
    CHECK(r["isError"] == true);
    CHECK(text_of(r) == "Offset 2 is past the end of " + path.string() +
                            ": the file has 1 line. Use an offset from 1 to 1.");
  }
  SUBCASE("deleted") {
    std::filesystem::remove(path);
    const json r = client.call("read", {{"file_path", "log.txt"}});
    CHECK(r["isError"] == true);
    CHECK(text_of(r) == "File not found: " + path.string() + ".");
  }
  check_still_serving(client);
  check_peak_under(client, text_mib, "small reads");
}
