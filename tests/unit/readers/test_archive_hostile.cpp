// Hostile archives: links, devices and names leading out are listed but never read, encrypted
// members are refused, bombs stop at a limit, damaged archives say so; nothing crashes or hangs.
#include "archive_fixtures.hpp"
#include "fixtures.hpp"
#include "office_fixtures.hpp"
#include "reader_fixtures.hpp"
#include "symlinks.hpp"

#include "mcpread/readers/read.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <string>

using namespace mcpread::readers;
using namespace mcpread::test;
using Type = ArchiveItem::Type;

namespace {

ReadOutcome read_path(const TempDir& dir, const std::string& path, const ReadLimits& limits = {},
                      const CancelToken& cancel = {}) {
  ReadRequest request;
  request.file_path = path;
  return read_file(roots_of(dir), request, limits, cancel);
}

}  // namespace

TEST_CASE("archive hostile: links and devices are named, never followed") {
  TempDir dir;
  dir.write("x.tar", archive_bytes({{"real.txt", "real\n"},
                                    {"evil", "", Type::symlink, "/etc/passwd"},
                                    {"same.txt", "", Type::hardlink, "real.txt"},
                                    {"tty", "", Type::character_device},
                                    {"pipe", "", Type::fifo}},
                                   "ustar"));
  const std::string p = dir.path().string();
  const std::string listing = first_text(read_path(dir, "x.tar"));
  CHECK(listing.find("\nevil -> /etc/passwd  (symbolic link)\nsame.txt => real.txt  (hard link)\n"
                     "tty  (character device)\npipe  (FIFO (named pipe))\n") != std::string::npos);
  CHECK(first_text(read_path(dir, "x.tar/evil")) ==
        "Cannot read " + p + kSep + "x.tar/evil: the member is a symbolic link to /etc/passwd, and only files in an archive "
        "are read; read the member it links to instead.");
  CHECK(first_text(read_path(dir, "x.tar/same.txt")) ==
        "Cannot read " + p + kSep + "x.tar/same.txt: the member is a hard link to real.txt, and only files in an archive "
        "are read; read the member it links to instead.");
  CHECK(first_text(read_path(dir, "x.tar/tty")) ==
        "Cannot read " + p + kSep + "x.tar/tty: the member is a character device, and only files in an archive are read.");
  CHECK(first_text(read_path(dir, "x.tar/pipe")) ==
        "Cannot read " + p + kSep + "x.tar/pipe: the member is a FIFO (named pipe), and only files in an archive are read.");
}

TEST_CASE("archive hostile: names leading out of the archive are listed as such") {
  TempDir dir;
  dir.write("x.tar", archive_bytes({{"../escape.txt", "out\n"}, {"/abs.txt", "abs\n"}, {"ok.txt", "ok\n"}}, "ustar"));
  const std::string listing = first_text(read_path(dir, "x.tar"));
  CHECK(listing.find("\n../escape.txt  4 bytes  (name leads out of the archive: not read)\n") != std::string::npos);
  CHECK(listing.find("\n/abs.txt  4 bytes  (name leads out of the archive: not read)\n") != std::string::npos);
  // The path as written is normalised before it reaches the archive: ".." cannot name a member.
  CHECK(read_path(dir, "x.tar/../escape.txt").is_error);
  CHECK_FALSE(read_path(dir, "x.tar/ok.txt").is_error);
}

TEST_CASE("archive hostile: encrypted members are refused clearly") {
  TempDir dir;
  dir.write("e.zip", zip_bytes({{"secret.txt", "secret text", false, true}, {"open.txt", "open\n"}}));
  const std::string p = dir.path().string();
  CHECK(first_text(read_path(dir, "e.zip")).find("\nsecret.txt  11 bytes  (encrypted)\n") != std::string::npos);
  CHECK(first_text(read_path(dir, "e.zip/secret.txt")) ==
        "Cannot read " + p + kSep + "e.zip/secret.txt: it is encrypted; mcp-read cannot read encrypted members.");
  CHECK_FALSE(read_path(dir, "e.zip/open.txt").is_error);
}

TEST_CASE("archive hostile: limits against bombs") {
  TempDir dir;
  const std::string p = dir.path().string();
  SUBCASE("compression ratio") {
    dir.write("runs.txt.gz", compressed_bytes(std::string(9u << 20, 'a'), "gzip"));
    ReadLimits limits;
    limits.archive.max_ratio = 100;
    const std::string text = first_text(read_path(dir, "runs.txt.gz", limits));
    CHECK(text.starts_with("Cannot read the archive " + p + kSep + "runs.txt.gz: it unpacks at "));
    CHECK(text.ends_with(" to 1, over the ratio of 100 allowed (a compression bomb?) (--archive-max-ratio)."));
  }
  SUBCASE("bytes unpacked in one pass") {
    dir.write("big.tar.gz", archive_bytes({{"a.bin", std::string(3u << 20, 'a')}}, "ustar", "gzip"));
    ReadLimits limits;
    limits.archive.max_total_bytes = 1u << 20;
    CHECK(first_text(read_path(dir, "big.tar.gz", limits)) ==
          "Cannot read the archive " + p + kSep + "big.tar.gz: it unpacks to more than 1.0 MB in one pass, the most "
          "allowed (--archive-max-bytes).");
  }
  SUBCASE("bytes of one member") {
    dir.write("m.tar", archive_bytes({{"big.txt", std::string(2048, 'b')}}, "ustar"));
    ReadLimits limits;
    limits.archive.max_member_bytes = 1024;
    CHECK(first_text(read_path(dir, "m.tar/big.txt", limits)) ==
          "Cannot read " + p + kSep + "m.tar/big.txt from the archive: it is 2.0 KB, over the 1.0 KB read from one member at "
          "most (--archive-max-member-bytes).");
  }
  SUBCASE("a member larger than its header says") {
    // A raw compressed stream declares no size: the cap counts what is unpacked.
    dir.write("n.txt.gz", compressed_bytes(std::string(4096, 'n'), "gzip"));
    ReadLimits limits;
    limits.archive.max_member_bytes = 1024;
    CHECK(first_text(read_path(dir, "n.txt.gz/n.txt", limits)) ==
          "Cannot read " + p + kSep + "n.txt.gz/n.txt from the archive: it is 4.0 KB, over the 1.0 KB read from one member "
          "at most (--archive-max-member-bytes).");
  }
  SUBCASE("entries") {
    std::vector<ArchiveItem> items;
    for (int i = 0; i < 5; ++i) items.push_back({"f" + std::to_string(i), "x"});
    dir.write("many.tar", archive_bytes(items, "ustar"));
    ReadLimits limits;
    limits.archive.max_entries = 3;
    CHECK(first_text(read_path(dir, "many.tar", limits)) ==
          "Cannot read the archive " + p + kSep + "many.tar: it holds more than 3 entries, the most listed from one archive "
          "(--archive-max-entries).");
  }
  SUBCASE("nesting depth") {
    const std::string inner = archive_bytes({{"x.txt", "x\n"}}, "ustar");
    dir.write("a.zip", zip_bytes({{"inner.tar", inner}}));
    ReadLimits limits;
    limits.archive.max_depth = 1;
    const std::string refusal = "Cannot read " + p + kSep + "a.zip/inner.tar: it is an archive nested 2 levels deep, and "
                                "archives are read 1 level deep at most (--archive-max-depth).";
    CHECK(first_text(read_path(dir, "a.zip/inner.tar/x.txt", limits)) == refusal);
    CHECK(first_text(read_path(dir, "a.zip/inner.tar", limits)) == refusal);
    CHECK_FALSE(read_path(dir, "a.zip/inner.tar/x.txt").is_error);
  }
}

TEST_CASE("archive hostile: damaged archives say what failed") {
  TempDir dir;
  const std::string p = dir.path().string();
  SUBCASE("garbage after a gzip header") {
    dir.write("bad.gz", std::string("\x1f\x8b\x08\0\0\0\0\0\0\x03", 10) + std::string(200, '\xAB'));
    const ReadOutcome o = read_path(dir, "bad.gz");
    CHECK(o.is_error);
    CHECK(first_text(o).starts_with("Cannot read the archive " + p + kSep + "bad.gz: "));
  }
  SUBCASE("a truncated tar.gz lists what comes before the damage") {
    std::vector<ArchiveItem> items;
    for (int i = 0; i < 20; ++i) items.push_back({"f" + std::to_string(i) + ".txt", std::string(50000, char('a' + i))});
    const std::string whole = archive_bytes(items, "ustar", "gzip");
    dir.write("cut.tar.gz", whole.substr(0, whole.size() / 2));
    const ReadOutcome o = read_path(dir, "cut.tar.gz");
    const std::string text = first_text(o);
    CHECK((o.is_error || text.find("[The archive is damaged after entry ") != std::string::npos));
  }
  SUBCASE("an empty file named as an archive") {
    dir.write("empty.tar", "");
    CHECK(first_text(read_path(dir, "empty.tar")) == "Cannot read the archive " + p + kSep + "empty.tar: the file is empty.");
  }
  SUBCASE("a zip's bytes after its signature are noise") {
    dir.write("noise.zip", "PK\x03\x04" + std::string(5000, '\x7F'));
    CHECK(read_path(dir, "noise.zip").is_error);
  }
}

TEST_CASE("archive hostile: an archive reached through a link out of the roots is refused") {
  TempDir outside;
  TempDir root;
  outside.write("a.tar", archive_bytes({{"x.txt", "x\n"}}, "ustar"));
  if (!make_symlink(outside.path() / "a.tar", root.path() / "link.tar")) return;
  const ReadOutcome o = read_path(root, "link.tar/x.txt");
  CHECK(o.is_error);
  CHECK(first_text(o).starts_with("Access denied: " + root.path().string() + kSep + "link.tar/x.txt "));
}

TEST_CASE("archive hostile: a cancelled read stops") {
  TempDir dir;
  dir.write("a.tar.gz", archive_bytes({{"x.txt", std::string(100000, 'x')}}, "ustar", "gzip"));
  const CancelToken cancel = CancelToken::make();
  cancel.cancel();
  const ReadOutcome o = read_path(dir, "a.tar.gz/x.txt", {}, cancel);
  CHECK(o.is_error);
  CHECK(o.cancelled);
}
