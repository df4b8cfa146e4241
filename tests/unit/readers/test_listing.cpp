// Directory listings: order, '/' marks, the cap, empty and unreadable directories, metadata.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "access_test_util.hpp"
#include "fixtures.hpp"
#include "mcpread/readers/listing.hpp"
#include "tool_wording.hpp"

namespace fs = std::filesystem;
using mcpread::readers::ReadOutcome;
using mcpread::readers::TextBlock;
using mcpread::test::TempDir;

namespace {

std::string text_of(const ReadOutcome& out) {
  REQUIRE(out.blocks.size() == 1);
  REQUIRE(std::holds_alternative<TextBlock>(out.blocks[0]));
  return std::get<TextBlock>(out.blocks[0]).text;
}

// The listing read_file gives the server: its closing note in the server's wording.
ReadOutcome listed(const fs::path& dir, std::size_t max_entries = 1000, std::uint64_t offset = 1,
                   std::size_t max_output_bytes = SIZE_MAX) {
  return mcpread::readers::list_directory(dir, max_entries, offset, max_output_bytes,
                                          mcpread::server::hint_wording);
}

}  // namespace

TEST_CASE("listing: entries sorted by name, directories marked") {
  TempDir t;
  const std::string p = t.path().string();
  t.write("b.txt", "b");
  t.write("zeta", "z");
  t.write("C.md", "c");
  t.write(".hidden", "h");
  t.write("a-dir/inside.txt", "i");
  fs::create_directory_symlink(t.path() / "a-dir", t.path() / "link-to-dir");
  fs::create_symlink(t.path() / "gone", t.path() / "link-broken");

  const ReadOutcome out = listed(t.path());
  CHECK_FALSE(out.is_error);
  CHECK(text_of(out) == "Directory " + p + ": 7 entries (2 directories, 5 files)\n"
                        ".hidden\n"
                        "C.md\n"
                        "a-dir/\n"
                        "b.txt\n"
                        "link-broken\n"
                        "link-to-dir/\n"
                        "zeta");
  CHECK(out.meta == nlohmann::json{{"path", p},
                                   {"entries", 7},
                                   {"directories", 2},
                                   {"files", 5},
                                   {"shown", 7},
                                   {"truncated", false},
                                   {"entries_at_least", false},
                                   {"start_entry", 1},
                                   {"end_entry", 7}});
}

TEST_CASE("listing: singular counts") {
  TempDir t;
  fs::create_directory(t.path() / "only");
  CHECK(text_of(listed(t.path())) ==
        "Directory " + t.path().string() + ": 1 entry (1 directory, 0 files)\nonly/");
  t.write("f", "");
  CHECK(text_of(listed(t.path())) ==
        "Directory " + t.path().string() + ": 2 entries (1 directory, 1 file)\nf\nonly/");
}

TEST_CASE("listing: the cap") {
  TempDir t;
  const std::string p = t.path().string();

  SUBCASE("more entries than the cap: the first ones and a footer") {
    for (const char* n : {"e", "d", "c", "b", "a"}) t.write(n, "");
    const ReadOutcome out = listed(t.path(), 3);
    CHECK(text_of(out) == "Directory " + p + ": 5 entries (0 directories, 5 files)\n"
                          "a\nb\nc\n"
                          "[Entries 1-3 of 5 entries. To list more, call read again with offset=4.]");
    CHECK(out.meta["shown"] == 3);
    CHECK(out.meta["next_offset"] == 4);
    CHECK(out.meta["entries"] == 5);
    CHECK(out.meta["truncated"] == true);
  }
  SUBCASE("exactly the cap: no footer") {
    for (const char* n : {"b", "a"}) t.write(n, "");
    const ReadOutcome out = listed(t.path(), 2);
    CHECK(text_of(out) == "Directory " + p + ": 2 entries (0 directories, 2 files)\na\nb");
    CHECK(out.meta["truncated"] == false);
  }
  SUBCASE("a large directory keeps the smallest names") {
    for (int i = 1099; i >= 0; --i) {
      char name[16];
      std::snprintf(name, sizeof name, "f%04d", i);
      std::FILE* f = std::fopen((t.path() / name).c_str(), "w");
      REQUIRE(f != nullptr);
      std::fclose(f);
    }
    const std::string text = text_of(listed(t.path(), 4));
    CHECK(text == "Directory " + p + ": 1100 entries (0 directories, 1100 files)\n"
                  "f0000\nf0001\nf0002\nf0003\n"
                  "[Entries 1-4 of 1100 entries. To list more, call read again with offset=5.]");
  }
}

TEST_CASE("listing: offset and limit page through") {
  TempDir t;
  const std::string p = t.path().string();
  const std::string head = "Directory " + p + ": 5 entries (1 directory, 4 files)\n";
  for (const char* n : {"e", "c", "b", "a"}) t.write(n, "");
  fs::create_directory(t.path() / "d");

  SUBCASE("a page in the middle says where to go on") {
    const ReadOutcome out = listed(t.path(), 2, 2);
    CHECK(text_of(out) ==
          head + "b\nc\n[Entries 2-3 of 5 entries. To list more, call read again with offset=4.]");
    CHECK(out.meta["start_entry"] == 2);
    CHECK(out.meta["end_entry"] == 3);
    CHECK(out.meta["next_offset"] == 4);
    CHECK(out.meta["shown"] == 2);
    CHECK(out.meta["truncated"] == true);
  }
  SUBCASE("the last page says it is the end") {
    const ReadOutcome out = listed(t.path(), 2, 4);
    CHECK(text_of(out) == head + "d/\ne\n[Entries 4-5 of 5 entries. End of listing.]");
    CHECK(out.meta["truncated"] == false);
    CHECK_FALSE(out.meta.contains("next_offset"));
  }
  SUBCASE("offset 0 is the start") {
    CHECK(text_of(listed(t.path(), 1000, 0)) == head + "a\nb\nc\nd/\ne");
  }
  SUBCASE("an offset on the last entry") {
    CHECK(text_of(listed(t.path(), 1000, 5)) ==
          head + "e\n[Entries 5-5 of 5 entries. End of listing.]");
  }
  SUBCASE("an offset past the end is an error with the count") {
    const ReadOutcome out = listed(t.path(), 1000, 6);
    CHECK(out.is_error);
    CHECK(text_of(out) == "Offset 6 is past the end of the directory " + p +
                              ": it has 5 entries. Use an offset from 1 to 5.");
    CHECK(out.meta["entries"] == 5);
  }
}

TEST_CASE("listing: the output cap shortens a page") {
  TempDir t;
  const std::string p = t.path().string();
  for (const char* n : {"aaaaaaaaaa", "bbbbbbbbbb", "cccccccccc", "dddddddddd"}) t.write(n, "");
  const std::string head = "Directory " + p + ": 4 entries (0 directories, 4 files)";
  SUBCASE("the entries that fit, and the offset of the first left out") {
    const ReadOutcome out = listed(t.path(), 1000, 1, head.size() + 22);
    CHECK(text_of(out) == head + "\naaaaaaaaaa\nbbbbbbbbbb\n[Output capped at " +
                              std::to_string(head.size() + 22) +
                              " bytes: entries 1-2 of 4 entries shown. To list more, call read "
                              "again with offset=3.]");
    CHECK(out.meta["shown"] == 2);
    CHECK(out.meta["next_offset"] == 3);
    CHECK(out.meta["truncated"] == true);
  }
  SUBCASE("one entry at least") {
    const ReadOutcome out = listed(t.path(), 1000, 4, 1);
    CHECK(text_of(out) == head + "\ndddddddddd\n[Entries 4-4 of 4 entries. End of listing.]");
  }
  SUBCASE("a cap that the page fits changes nothing") {
    CHECK(text_of(listed(t.path(), 2, 1, head.size() + 22)) ==
          head + "\naaaaaaaaaa\nbbbbbbbbbb\n"
                 "[Entries 1-2 of 4 entries. To list more, call read again with offset=3.]");
  }
}

TEST_CASE("listing: paging a large directory reaches every entry") {
  TempDir t;
  for (int i = 2499; i >= 0; --i) {
    char name[16];
    std::snprintf(name, sizeof name, "f%04d", i);
    std::FILE* f = std::fopen((t.path() / name).c_str(), "w");
    REQUIRE(f != nullptr);
    std::fclose(f);
  }
  const std::string head =
      "Directory " + t.path().string() + ": 2500 entries (0 directories, 2500 files)\n";
  SUBCASE("a page past the names kept while scanning for the first page") {
    CHECK(text_of(listed(t.path(), 3, 2001)) ==
          head + "f2000\nf2001\nf2002\n"
                 "[Entries 2001-2003 of 2500 entries. To list more, call read again with offset=2004.]");
  }
  SUBCASE("the pages of 1000 join up without gap or overlap") {
    std::string all;
    std::uint64_t offset = 1;
    for (int page = 0; page < 3; ++page) {
      const ReadOutcome out = listed(t.path(), 1000, offset);
      const std::string text = text_of(out);
      all += text.substr(head.size(), text.rfind('\n') - head.size() + 1);
      if (!out.meta.contains("next_offset")) break;
      offset = out.meta["next_offset"].get<std::uint64_t>();
    }
    std::string expected;
    for (int i = 0; i < 2500; ++i) {
      char name[16];
      std::snprintf(name, sizeof name, "f%04d\n", i);
      expected += name;
    }
    CHECK(offset == 2001);
    CHECK(all == expected);
  }
}

TEST_CASE("listing: an empty directory") {
  TempDir t;
  const ReadOutcome out = listed(t.path());
  CHECK_FALSE(out.is_error);
  CHECK(text_of(out) == "Directory " + t.path().string() + ": empty.");
  CHECK(out.meta["entries"] == 0);
  CHECK(out.meta["shown"] == 0);
  CHECK(out.meta["truncated"] == false);
}

TEST_CASE("listing: names that are not plain text") {
  TempDir t;
  t.write("two\nlines", "");
  t.write("bad\xff", "");
  CHECK(text_of(listed(t.path())) ==
        "Directory " + t.path().string() + ": 2 entries (0 directories, 2 files)\n"
        "bad\xEF\xBF\xBD\n"
        "two\\nlines");
}

TEST_CASE("listing: errors") {
  TempDir t;
  SUBCASE("a missing directory") {
    const ReadOutcome out = listed(t.path() / "missing");
    CHECK(out.is_error);
    CHECK(text_of(out) ==
          "Cannot list the directory " + t.path().string() + "/missing: No such file or directory.");
  }
  SUBCASE("a file") {
    const auto f = t.write("f.txt", "x");
    const ReadOutcome out = listed(f);
    CHECK(out.is_error);
    CHECK(text_of(out) == "Cannot list the directory " + f.string() + ": Not a directory.");
  }
  SUBCASE("an unreadable directory") {
    fs::create_directory(t.path() / "locked");
    REQUIRE(::chmod((t.path() / "locked").c_str(), 0) == 0);
    REQUIRE(::chmod(t.path().c_str(), 0755) == 0);  // root lists it as "nobody", who must reach it
    const std::string expected = "Permission denied: cannot list the directory " +
                                 t.path().string() +
                                 "/locked (Permission denied). Check the directory's permissions.";
    const auto got = mcpread::test::access_util::unprivileged([&] {
      const ReadOutcome out = listed(t.path() / "locked");
      return (out.is_error ? "error: " : "listed: ") + std::get<TextBlock>(out.blocks.at(0)).text;
    });
    if (got) CHECK(*got == "error: " + expected);
  }
}
