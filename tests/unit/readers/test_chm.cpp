// Compiled HTML help through read_file: the topics listed from the table of contents (else the
// HTML files), paged; a topic read past the file as Markdown, a picture as an image; names not in
// the file, and damaged, empty and foreign files refused with a sentence. The help files are
// compiled with Free Pascal's chmcmd (fp-utils), whose LZX CHMLib decompresses. The table of
// contents' scan, #SYSTEM's records and the child's message are checked on hostile input too.
#include "chm/chm_contents.hpp"
#include "chm/chm_extract.hpp"
#include "fixtures.hpp"
#include "image_fixtures.hpp"
#include "reader_fixtures.hpp"
#include "tool_wording.hpp"

#include "mcpread/readers/read.hpp"

#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <variant>

using namespace mcpread::readers;
using namespace mcpread::test;

namespace {

// `files` (name, bytes) compiled into `name` with a project naming `contents` as its table of
// contents (none when empty) and `title`; the help file's bytes.
std::string make_chm(const TempDir& dir, const std::string& name, const std::vector<std::pair<std::string, std::string>>& files,
                     const std::string& contents, const std::string& title = "Test Help") {
  const std::string d = dir.path().string() + "/";
  std::string project = "[OPTIONS]\nCompiled file=" + name + "\nTitle=" + title + "\n";
  if (!contents.empty()) {
    dir.write("toc.hhc", contents);
    project += "Contents file=toc.hhc\n";
  }
  project += "\n[FILES]\n";
  for (const auto& [file, bytes] : files) {
    std::filesystem::create_directories(std::filesystem::path(d + file).parent_path());
    dir.write(file, bytes);
    project += file + "\n";
  }
  dir.write("help.hhp", project);
  const std::string command = "cd " + d + " && chmcmd help.hhp >/dev/null 2>&1";
  REQUIRE_MESSAGE(std::system(command.c_str()) == 0, command);
  std::ifstream in(d + name, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

ReadOutcome read_chm(const TempDir& dir, const std::string& path, std::optional<std::uint64_t> offset = {},
                     std::optional<std::uint64_t> limit = {}) {
  ReadRequest request = tool_worded(ReadRequest{});
  request.file_path = path;
  request.offset = offset;
  request.limit = limit;
  return read_file(roots_of(dir), request, ReadLimits{}, CancelToken{});
}

const std::string kToc =
    "<html><body><!-- <object type=\"text/sitemap\"><param name=\"Name\" value=\"Commented\"></object> -->\n"
    "<ul><li><object type=\"text/sitemap\"><param name=\"Name\" value=\"Introduction\">"
    "<param name=\"Local\" value=\"intro.htm\"></object>\n"
    "<ul><li><OBJECT type=\"text/sitemap\"><PARAM name=\"Name\" value=\"More &amp; more\">"
    "<param name=\"Local\" value=\"sub/more.htm\"></OBJECT></ul>\n"
    "<li><object type=\"text/sitemap\"><param name=\"Name\" value=\"Chapter\"></object>\n"
    "<li><object type=\"text/sitemap\"><param name=\"Name\" value=\"Web\">"
    "<param name=\"Local\" value=\"https://example.org/\"></object>\n"
    "</ul></body></html>\n";

std::vector<std::pair<std::string, std::string>> topics() {
  return {{"intro.htm", "<html><head><title>Intro</title></head><body><h1>Welcome</h1><p>Hello <b>world</b>.</p>"
                        "<img src=\"pic.png\"></body></html>"},
          {"sub/more.htm", "<html><body><p>More text here.</p></body></html>"},
          {"pic.png", encode_picture(Picture{.width = 40, .height = 30}, ".png")}};
}

}  // namespace

TEST_CASE("chm: the topics listed, each read past the file") {
  TempDir dir;
  const std::string d = dir.path().string() + "/";
  make_chm(dir, "help.chm", topics(), kToc);
  SUBCASE("the listing: the table of contents nested, each topic's path, how to read one") {
    const auto o = read_chm(dir, "help.chm");
    REQUIRE_FALSE(o.is_error);
    const std::string t = first_text(o);
    CHECK(t.starts_with("Compiled HTML help " + d + "help.chm (\"Test Help\"): 4 topics from its table of contents "
                        "toc.hhc; "));
    CHECK(t.ends_with(".\nIntroduction — intro.htm\n  More & more — sub/more.htm\nChapter\n"
                      "Web — https://example.org/  (a link out of the file)\n"
                      "[To read a topic (as Markdown) or a picture, read the help file's path followed by the file's, "
                      "e.g. " + d + "help.chm/intro.htm.]"));
    CHECK(o.meta["topics"] == 4);
    CHECK(o.meta["contents"] == "toc.hhc");
    CHECK(o.meta["truncated"] == false);
  }
  SUBCASE("paged: a topic a call, where to go on") {
    const auto o = read_chm(dir, "help.chm", 2, 1);
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o).find("\n  More & more — sub/more.htm\n[Topics 2-2 of 4. To list more, call read again with "
                             "offset=3.]\n") != std::string::npos);
    CHECK(o.meta["next_offset"] == 3);
    const auto past = read_chm(dir, "help.chm", 9);
    CHECK(error_text(past) == "Offset 9 is past the end of the topics of " + d +
                                  "help.chm: it has 4 topics. Use an offset from 1 to 4.");
  }
  SUBCASE("a topic: the HTML reader's Markdown") {
    const auto o = read_chm(dir, "help.chm/intro.htm");
    REQUIRE_FALSE(o.is_error);
    const std::string t = texts_joined(o);
    CHECK(t.find("# Welcome") != std::string::npos);
    CHECK(t.find("# Welcome\n\nHello world.\n") != std::string::npos);
    CHECK(o.meta["kind"] == "html");
    SUBCASE("names are looked up as CHMLib does, without regard to case") {
      CHECK(texts_joined(read_chm(dir, "help.chm/SUB/More.HTM")).find("More text here.") != std::string::npos);
    }
  }
  SUBCASE("a picture inside: an image") {
    const auto o = read_chm(dir, "help.chm/pic.png");
    REQUIRE_FALSE(o.is_error);
    CHECK(o.meta["kind"] == "image");
    bool image = false;
    for (const auto& b : o.blocks) image = image || std::holds_alternative<ImageBlock>(b);
    CHECK(image);
  }
  SUBCASE("an internal record: a file like any other, its bytes refused as binary") {
    CHECK(error_text(read_chm(dir, "help.chm/#SYSTEM")).starts_with(d + "help.chm/#SYSTEM is a binary file ("));
  }
  SUBCASE("a name the file does not hold, a folder, a control character, a name too long: not found") {
    for (const std::string& name : std::vector<std::string>{"nothere.htm", "sub", "sub/", "a\x01" "b.htm", std::string(600, 'x')}) {
      CAPTURE(name);
      const std::string shown = name == "sub/" ? "sub" : name;  // the path's trailing "/" is dropped before
      CHECK(error_text(read_chm(dir, "help.chm/" + name)) ==
            "File not found: " + d + "help.chm/" + shown + ": " + d +
                "help.chm holds no file of that name. Read " + d + "help.chm to list its topics.");
    }
  }
}

TEST_CASE("chm: without a table of contents, its HTML files") {
  TempDir dir;
  const std::string d = dir.path().string() + "/";
  make_chm(dir, "plain.chm", topics(), "", "");
  const auto o = read_chm(dir, "plain.chm");
  REQUIRE_FALSE(o.is_error);
  const std::string t = first_text(o);
  CHECK(t.starts_with("Compiled HTML help " + d + "plain.chm: 2 topics (its HTML files: it has no table of contents); "));
  CHECK(t.find("\nintro.htm  ") != std::string::npos);
  CHECK(t.find("\nsub/more.htm  48 bytes\n") != std::string::npos);
  CHECK(t.find("pic.png") == std::string::npos);  // a picture is no topic
}

TEST_CASE("chm: damaged, empty and foreign files refused with a sentence") {
  TempDir dir;
  const std::string d = dir.path().string() + "/";
  const std::string good = make_chm(dir, "good.chm", topics(), kToc);
  auto refused = [&](const std::string& name, const std::string& bytes) {
    dir.write(name, bytes);
    return read_chm(dir, name);
  };
  SUBCASE("text named .chm: not one, said as such") {
    CHECK(error_text(refused("text.chm", "just some words\n")) ==
          d + "text.chm is named like a compiled HTML help file but is not one: its content is a text file, ASCII text "
              "(text/plain), 16 bytes. Call read with file_type=\"text\" to read it as text.");
  }
  SUBCASE("its header alone: refused") {
    CHECK(error_text(refused("head.chm", good.substr(0, 0x60))) ==
          "Cannot read " + d + "head.chm as compiled HTML help: CHMLib cannot open it: it is not a compiled HTML help "
                               "file, or it is damaged.");
  }
  SUBCASE("its first half: listed from its directory, a topic past the cut refused") {
    const auto half = refused("half.chm", good.substr(0, good.size() / 2));
    REQUIRE_FALSE(half.is_error);
    CHECK(first_text(half).starts_with("Compiled HTML help " + d + "half.chm (\"Test Help\"): "));
    CHECK(error_text(read_chm(dir, "half.chm/sub/more.htm")) ==
          "Cannot read " + d + "half.chm/sub/more.htm: CHMLib took 0 of its 48 bytes out of " + d +
              "half.chm, which is damaged.");
  }
  SUBCASE("a directory claimed past the end of the file; blocks claimed 4 GiB long") {
    std::string far = good;
    for (std::size_t i = 0x48; i < 0x50; ++i) far[i] = '\xFF';  // the directory's offset
    CHECK(error_text(refused("far.chm", far)) ==
          "Cannot read " + d + "far.chm as compiled HTML help: CHMLib cannot open it: it is not a compiled HTML help "
                               "file, or it is damaged.");
    std::string blocks = good;
    const std::size_t directory = static_cast<unsigned char>(good[0x48]) | static_cast<unsigned char>(good[0x49]) << 8;
    REQUIRE(good.substr(directory, 4) == "ITSP");
    for (std::size_t i = directory + 0x10; i < directory + 0x14; ++i) blocks[i] = '\xFF';  // a directory block's length
#if defined(__SANITIZE_ADDRESS__)
    // AddressSanitizer's allocator ends the child on a request past its address-space limit where
    // malloc returns NULL to CHMLib: the read is refused instead of listing nothing.
    CHECK(error_text(refused("blocks.chm", blocks)) ==
          "Cannot read " + d + "blocks.chm as compiled HTML help: CHMLib crashed reading it (it exited with status 1): "
                               "the help file is damaged.");
#else
    CHECK(first_text(refused("blocks.chm", blocks)) ==
          "Compiled HTML help " + d + "blocks.chm: 0 topics (its HTML files: it has no table of contents); 0 files, "
                                      "0 bytes.\n[It has no topics to list.]");
#endif
  }
  SUBCASE("garbage after a true header") {
    std::string garbage = good.substr(0, 0x60);
    for (int i = 0; i < 4000; ++i) garbage += static_cast<char>((i * 131 + 7) & 0xFF);
    CHECK(error_text(refused("garbage.chm", garbage)) ==
          "Cannot read " + d + "garbage.chm as compiled HTML help: CHMLib cannot open it: it is not a compiled HTML help "
                               "file, or it is damaged.");
  }
  SUBCASE("a topic read from a damaged file: refused, not read as something else") {
    std::string bent = good;
    for (std::size_t i = bent.size() / 2; i < bent.size(); i += 7) bent[i] = static_cast<char>(~bent[i]);
    dir.write("bent.chm", bent);
    const auto o = read_chm(dir, "bent.chm/intro.htm");
    if (o.is_error) CHECK(error_text(o).starts_with("Cannot read " + d + "bent.chm/intro.htm"));
    else CHECK(o.meta["kind"] == "html");
  }
}

TEST_CASE("chm: the table of contents' scan on hostile markup") {
  using chm::parse_contents;
  bool cut = true;
  SUBCASE("entities, case, unquoted values, objects that are no topic, a tag left open") {
    const auto t = parse_contents(
        "<UL><LI><OBJECT TYPE=text/sitemap><PARAM NAME=Name VALUE=A&#x42;&#67;&bogus;&#0;>"
        "<param name=\"Local\" value='x y.htm#top'><param name=\"Name\" value=\"second\"></OBJECT>"
        "<object type=\"text/site properties\"><param name=\"Name\" value=\"props\"></object>"
        "<param name=\"Name\" value=\"loose\"></object></ul></ul></ul>"
        "<object type=\"text/sitemap\"><param name=\"Name\" value=\"open", &cut);
    REQUIRE(t.size() == 1);
    CHECK(t[0].title == "ABC&bogus;\xEF\xBF\xBD");
    CHECK(t[0].local == "x y.htm#top");
    CHECK(t[0].depth == 0);
    CHECK_FALSE(cut);
  }
  SUBCASE("lists nested deeper than any table of contents: the depth is capped") {
    std::string deep(5000 * 4, ' ');
    for (std::size_t i = 0; i < 5000; ++i) deep.replace(i * 4, 4, "<ul>");
    deep += "<object type=\"text/sitemap\"><param name=\"Name\" value=\"deep\"></object>";
    const auto t = parse_contents(deep, &cut);
    REQUIRE(t.size() == 1);
    CHECK(t[0].depth == 999);
  }
  SUBCASE("more topics than are taken: cut") {
    std::string many;
    for (std::size_t i = 0; i <= chm::kMaxTopics; ++i) many += "<object type=\"text/sitemap\"><param name=\"Name\" value=\"t\"></object>";
    CHECK(parse_contents(many, &cut).size() == chm::kMaxTopics);
    CHECK(cut);
  }
  SUBCASE("a Local made a member's name") {
    CHECK(chm::member_of_local("html/a.htm#part") == "html/a.htm");
    CHECK(chm::member_of_local(" ms-its:other.chm::/b/c.htm ") == "b/c.htm");
    CHECK(chm::member_of_local("mk:@MSITStore:x.chm::/d.htm") == "d.htm");
    CHECK(chm::member_of_local("Z:/shared/e.txt") == "Z:/shared/e.txt");
    CHECK(chm::member_of_local("https://example.org/a.htm").empty());
    CHECK(chm::member_of_local("javascript:void(0)").empty());
    CHECK(chm::member_of_local("//x.htm") == "x.htm");
  }
}

TEST_CASE("chm: #SYSTEM's records and the child's message on hostile bytes") {
  SUBCASE("#SYSTEM: the records read, one running past the end dropped") {
    std::string sys("\x03\0\0\0", 4);
    sys += std::string("\0\0\x08\0toc.hhc\0", 12) + std::string("\x03\0\x05\0Help\0", 9) + std::string("\x02\0\xFF\x7F", 4) + "x";
    const chm::SystemInfo info = chm::parse_system(sys);
    CHECK(info.contents == "toc.hhc");
    CHECK(info.title == "Help");
    CHECK(info.default_topic.empty());
    CHECK(chm::parse_system(std::string("\x01", 1)).title.empty());
  }
  SUBCASE("a message written and read back; cut or padded, refused") {
    chm::Extracted e;
    e.entries = {{"a.htm", 5}, {"b/c.png", (1ull << 40) + 3}};
    e.entries_cut = true;
    e.system = "sys";
    e.contents_name = "toc.hhc";
    e.contents = "<ul>";
    e.member_found = true;
    e.member_size = 4;
    e.member = "body";
    const std::string m = chm::write_message(e);
    chm::Extracted back;
    REQUIRE(chm::read_message(m, &back));
    CHECK(back.entries.size() == 2);
    CHECK(back.entries[1].name == "b/c.png");
    CHECK(back.entries[1].size == (1ull << 40) + 3);
    CHECK(back.entries_cut);
    CHECK(back.member == "body");
    CHECK(chm::write_message(back) == m);
    CHECK_FALSE(chm::read_message(m.substr(0, m.size() - 1), &back));
    CHECK_FALSE(chm::read_message(m + "x", &back));
    std::string claims = m;
    claims[4] = '\xFF';  // an entry count more than the bytes hold
    CHECK_FALSE(chm::read_message(claims, &back));
    CHECK_FALSE(chm::read_message("", &back));
  }
}
