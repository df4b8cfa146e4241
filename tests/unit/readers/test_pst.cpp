// Outlook data files through read_file: the folders listed as they nest with their messages,
// paged; a message read by its folder's path and number; folders, numbers and paths that name
// nothing, and damaged, empty and foreign files refused with a sentence. The sample is a .pst
// Outlook wrote (tests/data/pst/README.md). The child's message is checked on hostile bytes too.
#include "fixtures.hpp"
#include "pst/pst_extract.hpp"
#include "reader_fixtures.hpp"
#include "tool_wording.hpp"

#include "mcpread/readers/read.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

using namespace mcpread::readers;
using namespace mcpread::test;

namespace {

std::string sample() {
  std::ifstream in(std::filesystem::path(MCPREAD_SOURCE_DIR) / "tests/data/pst/dist-list.pst", std::ios::binary);
  std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  REQUIRE(bytes.size() == 271360);
  return bytes;
}

ReadOutcome read_pst(const TempDir& dir, const std::string& path, std::optional<std::uint64_t> offset = {},
                     std::optional<std::uint64_t> limit = {}) {
  ReadRequest request = tool_worded(ReadRequest{});
  request.file_path = path;
  request.offset = offset;
  request.limit = limit;
  return read_file(roots_of(dir), request, ReadLimits{}, CancelToken{});
}

}  // namespace

TEST_CASE("pst: the folders and messages listed, a message read by folder and number") {
  TempDir dir;
  const std::string d = dir.path().string() + "/";
  dir.write("box.pst", sample());
  SUBCASE("the listing: folders nested with their counts, messages numbered, how to read one") {
    const auto o = read_pst(dir, "box.pst");
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o) ==
          "Outlook data file " + d + "box.pst: 23 folders, 4 messages.\n"
          "SPAM Search Folder 2/ — 0 messages\n"
          "Top of Personal Folders/ — 0 messages\n"
          "  Top of Personal Folders/Deleted Items/ — 0 messages\n"
          "  Top of Personal Folders/Inbox/ — 0 messages\n"
          "  Top of Personal Folders/Outbox/ — 0 messages\n"
          "  Top of Personal Folders/Sent Items/ — 0 messages\n"
          "  Top of Personal Folders/Calendar/ — 1 message\n"
          "    1. Tue, 02 Aug 2016 00:27:12 +0000 | Unknown | Test appointment\n"
          "  Top of Personal Folders/Contacts/ — 2 messages\n"
          "    1. Sun, 25 May 2014 13:58:59 +0000 | Unknown | test dist list\n"
          "    2. Sun, 25 May 2014 13:58:28 +0000 | Unknown | contact name 1\n"
          "  Top of Personal Folders/Journal/ — 0 messages\n"
          "  Top of Personal Folders/Notes/ — 0 messages\n"
          "  Top of Personal Folders/Tasks/ — 0 messages\n"
          "  Top of Personal Folders/Drafts/ — 0 messages\n"
          "  Top of Personal Folders/RSS Feeds/ — 0 messages\n"
          "  Top of Personal Folders/Junk E-mail/ — 0 messages\n"
          "Search Root/ — 0 messages\n"
          "  Search Root/All Messages/ — 0 messages\n"
          "IPM_VIEWS/ — 0 messages\n"
          "IPM_COMMON_VIEWS/ — 0 messages\n"
          "Freebusy Data/ — 1 message\n"
          "  1. (no date) | (no sender) | LocalFreebusy\n"
          "Reminders/ — 0 messages\n"
          "To-Do Search/ — 0 messages\n"
          "ItemProcSearch/ — 0 messages\n"
          "Tracked Mail Processing/ — 0 messages\n"
          "[To read a message, read the file's path followed by its folder's path and its number, e.g. " + d +
          "box.pst/Top of Personal Folders/Calendar/1.]");
    CHECK(o.meta["kind"] == "pst");
    CHECK(o.meta["folders"] == 23);
    CHECK(o.meta["messages"] == 4);
    CHECK(o.meta["entries"] == 27);
    CHECK(o.meta["truncated"] == false);
  }
  SUBCASE("paged by entry, where to go on, the addressing said on every page") {
    const auto o = read_pst(dir, "box.pst", 8, 2);
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o) ==
          "Outlook data file " + d + "box.pst: 23 folders, 4 messages.\n"
          "    1. Tue, 02 Aug 2016 00:27:12 +0000 | Unknown | Test appointment\n"
          "  Top of Personal Folders/Contacts/ — 2 messages\n"
          "[Entries 8-9 of 27. To list more, call read again with offset=10.]\n"
          "[To read a message, read the file's path followed by its folder's path and its number, e.g. " + d +
          "box.pst/Top of Personal Folders/Calendar/1.]");
    CHECK(o.meta["next_offset"] == 10);
    CHECK(error_text(read_pst(dir, "box.pst", 28)) ==
          "Offset 28 is past the end of the listing of " + d + "box.pst: it has 27 lines. Use an offset from 1 to 27.");
  }
  SUBCASE("a message: headers, body, attachments listed") {
    const auto o = read_pst(dir, "box.pst/Top of Personal Folders/Calendar/1");
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o) ==
          "Outlook message " + d + "box.pst/Top of Personal Folders/Calendar/1: 6 lines, 0 attachments.\n\n"
          "From: Unknown\n"
          "Date: Tue, 02 Aug 2016 00:27:12 +0000\n"
          "Subject: Test appointment\n"
          "\n"
          "This is a complete test\n"
          "[Left out: 2 attachments, listed only: (no name) (928 bytes), (no name) (900 bytes).]\n"
          "[Lines 1-6 of 6. End of " + d + "box.pst/Top of Personal Folders/Calendar/1.]");
    CHECK(o.meta["body_type"] == "text/plain");
  }
  SUBCASE("a message without a text body says so") {
    CHECK(first_text(read_pst(dir, "box.pst/Top of Personal Folders/Contacts/2"))
              .find("Subject: contact name 1\n\n[The message has no text body.]\n") != std::string::npos);
  }
  SUBCASE("a folder the file lacks, a number past its messages, a path without a number: refused") {
    const std::string list_it = " Read " + d + "box.pst to list its folders and messages.";
    CHECK(error_text(read_pst(dir, "box.pst/Nope/1")) ==
          "Message not found: " + d + "box.pst/Nope/1: " + d + "box.pst has no folder Nope." + list_it);
    CHECK(error_text(read_pst(dir, "box.pst/Top of Personal Folders/Contacts/3")) ==
          "Message not found: " + d + "box.pst/Top of Personal Folders/Contacts/3: its folder holds 2 messages, "
          "numbered from 1 to 2." + list_it);
    CHECK(error_text(read_pst(dir, "box.pst/Top of Personal Folders/Inbox/1")) ==
          "Message not found: " + d + "box.pst/Top of Personal Folders/Inbox/1: its folder holds 0 messages." + list_it);
    for (const std::string inner : {"Top of Personal Folders/Calendar", "1", "Top of Personal Folders/Calendar/0x1"}) {
      CAPTURE(inner);
      CHECK(error_text(read_pst(dir, "box.pst/" + inner)) ==
            "Cannot read " + d + "box.pst/" + inner + ": a message in an Outlook data file is read as the file's path, "
            "its folder's path and the message's number (from 1)." + list_it);
    }
  }
  SUBCASE("recognised by its content whatever its name") {
    dir.write("store.dat", sample());
    const auto o = read_pst(dir, "store.dat");
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o).starts_with("Outlook data file " + d + "store.dat: 23 folders, 4 messages.\n"));
  }
}

TEST_CASE("pst: damaged, empty, foreign and offline files refused with a sentence") {
  TempDir dir;
  const std::string d = dir.path().string() + "/";
  const std::string bytes = sample();
  const std::string cannot = ": libpff cannot open it: it is not an Outlook data file (.pst, .ost), or it is damaged.";
  SUBCASE("cut short, empty") {
    dir.write("cut.pst", bytes.substr(0, 4096));
    dir.write("half.pst", bytes.substr(0, bytes.size() / 2));
    dir.write("empty.pst", "");
    for (const std::string name : {"cut.pst", "half.pst", "empty.pst"}) {
      CAPTURE(name);
      CHECK(error_text(read_pst(dir, name)) == "Cannot read " + d + name + " as an Outlook data file" + cannot);
    }
  }
  SUBCASE("an .ost whose header is not one libpff takes (its checksum no longer matches)") {
    std::string ost = bytes;
    ost[8] = 'S', ost[9] = 'O';
    dir.write("offline.ost", ost);
    const auto o = read_pst(dir, "offline.ost");
    CHECK(o.meta["kind"] == "pst");
    CHECK(error_text(o) == "Cannot read " + d + "offline.ost as an Outlook data file" + cannot);
  }
  SUBCASE("bytes of another kind named .pst: said to be what they are") {
    dir.write("noise.pst", std::string(5000, '\x9c'));
    CHECK(error_text(read_pst(dir, "noise.pst")).starts_with(d + "noise.pst is named like an Outlook data file but is not one: "));
    dir.write("note.pst", "just some words\n");
    CHECK(read_pst(dir, "note.pst").meta["kind"] == "text");
  }
  SUBCASE("a path past a damaged file") {
    dir.write("cut.pst", bytes.substr(0, 4096));
    CHECK(error_text(read_pst(dir, "cut.pst/Inbox/1")) == "Cannot read " + d + "cut.pst/Inbox/1" + cannot);
  }
}

TEST_CASE("pst: the child's message written and read back; cut, padded or overclaiming, refused") {
  pst::Extracted e;
  e.cut = true;
  e.folder_messages = 2;
  e.folders.push_back({"Top/Inbox", 1, 2, {{"Hi", "Ann", 1234}, {"", "", 0}}});
  e.message.line = {"Subject", "Bob", 99};
  e.message.to = "Carol";
  e.message.body = "text";
  e.message.html = true;
  e.message.attachments.push_back({"a.pdf", 10});
  const std::string m = pst::write_message(e);
  pst::Extracted back;
  REQUIRE(pst::read_message(m, &back));
  CHECK(back.cut);
  CHECK(back.folder_messages == 2);
  CHECK(back.folders.at(0).messages.at(0).from == "Ann");
  CHECK(back.message.attachments.at(0).name == "a.pdf");
  CHECK(pst::write_message(back) == m);
  CHECK_FALSE(pst::read_message(m.substr(0, m.size() - 1), &back));
  CHECK_FALSE(pst::read_message(m + "x", &back));
  CHECK_FALSE(pst::read_message("", &back));
  std::string claims = m;
  claims[8] = '\xff';  // the folder count: more than the bytes hold
  CHECK_FALSE(pst::read_message(claims, &back));
  CHECK(pst::component("a/b") == "a\xE2\x88\x95" "b");
}
