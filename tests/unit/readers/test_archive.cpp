// Archives: a read of the archive lists its members (paged like a directory), and a path through
// the archive reads a member with its own reader, archives inside archives included.
#include "archive_fixtures.hpp"
#include "fixtures.hpp"
#include "image_fixtures.hpp"
#include "pdf_fixtures.hpp"
#include "office_fixtures.hpp"
#include "reader_fixtures.hpp"

#include "mcpread/readers/caches.hpp"
#include "mcpread/readers/classify.hpp"
#include "mcpread/readers/read.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <string>

using namespace mcpread::readers;
using namespace mcpread::test;
using Type = ArchiveItem::Type;

namespace {

ReadOutcome read_path(const TempDir& dir, const std::string& path, std::optional<std::uint64_t> offset = {},
                      std::optional<std::uint64_t> limit = {}, const ReadLimits& limits = {}) {
  ReadRequest request;
  request.file_path = path;
  request.offset = offset;
  request.limit = limit;
  return read_file(roots_of(dir), request, limits, CancelToken{});
}

const std::vector<ArchiveItem> kBundle = {
    {"docs/", "", Type::directory},
    {"docs/readme.txt", "first line\nsecond line\n"},
    {"docs/notes.md", "# Notes\n"},
    {"top.txt", "top\n"},
};

}  // namespace

TEST_CASE("archive: a tar.gz lists its members with sizes and how to read one") {
  TempDir dir;
  dir.write("bundle.tar.gz", archive_bytes(kBundle, "pax", "gzip"));
  const ReadOutcome o = read_path(dir, "bundle.tar.gz");
  REQUIRE_FALSE(o.is_error);
  const std::string p = dir.path().string();
  CHECK(first_text(o) == "Archive " + p + kSep + "bundle.tar.gz (POSIX ustar format, gzip-compressed): 4 entries "
                         "(1 directory, 3 files; 35 bytes unpacked)\ndocs/\ndocs/readme.txt  23 bytes\n"
                         "docs/notes.md  8 bytes\ntop.txt  4 bytes\n[To read a member, read the archive's path "
                         "followed by the member's path, e.g. " + p + kSep + "bundle.tar.gz/docs/readme.txt; archives "
                         "inside archives the same way.]");
  CHECK(o.meta["kind"] == "archive");
  CHECK(o.meta["entries"] == 4);
  CHECK(o.meta["files"] == 3);
}

TEST_CASE("archive: a member is read through the archive's path, by its own reader") {
  TempDir dir;
  dir.write("bundle.tar.gz", archive_bytes(kBundle, "gnutar", "gzip"));
  const std::string p = dir.path().string();
  SUBCASE("text") {
    const ReadOutcome o = read_path(dir, "bundle.tar.gz/docs/readme.txt");
    REQUIRE_MESSAGE(!o.is_error, first_text(o));
    CHECK(first_text(o).find("first line") != std::string::npos);
    CHECK(o.meta["path"] == p + kSep + "bundle.tar.gz/docs/readme.txt");
    CHECK(o.meta["kind"] == "text");
    CHECK(o.meta["size"] == 23);
  }
  SUBCASE("an absolute path, and paging through the member") {
    const ReadOutcome o = read_path(dir, p + kSep + "bundle.tar.gz/docs/readme.txt", 2, 1);
    REQUIRE_MESSAGE(!o.is_error, first_text(o));
    CHECK(first_text(o).find("second line") != std::string::npos);
    CHECK(first_text(o).find("first line") == std::string::npos);
  }
  SUBCASE("a folder of the archive lists what lies under it") {
    const ReadOutcome o = read_path(dir, "bundle.tar.gz/docs");
    REQUIRE_MESSAGE(!o.is_error, first_text(o));
    CHECK(first_text(o).starts_with("Folder " + p + kSep + "bundle.tar.gz/docs (GNU tar format, gzip-compressed): 2 entries "
                                    "(0 directories, 2 files; 35 bytes unpacked)\ndocs/readme.txt  23 bytes\n"
                                    "docs/notes.md  8 bytes\n"));
  }
  SUBCASE("the archive's path with a trailing slash lists it") {
    CHECK(first_text(read_path(dir, "bundle.tar.gz/")).starts_with("Archive " + p + kSep + "bundle.tar.gz "));
  }
  SUBCASE("a member the archive does not hold") {
    const ReadOutcome o = read_path(dir, "bundle.tar.gz/docs/missing.txt");
    CHECK(o.is_error);
    CHECK(first_text(o) == "File not found: " + p + kSep + "bundle.tar.gz/docs/missing.txt. The archive " + p + kSep +
                               "bundle.tar.gz has no member docs/missing.txt; read " + p + kSep +
                               "bundle.tar.gz to list its members.");
  }
  SUBCASE("a member named almost right gets suggestions") {
    CHECK(first_text(read_path(dir, "bundle.tar.gz/docs/README.txt")).ends_with(
        " to list its members. Did you mean: " + p + kSep + "bundle.tar.gz/docs/readme.txt?"));
    CHECK(first_text(read_path(dir, "bundle.tar.gz/notes.md")).ends_with(
        " to list its members. Did you mean: " + p + kSep + "bundle.tar.gz/docs/notes.md?"));
  }
  SUBCASE("a path through a file that is no archive keeps its own error") {
    dir.write("plain.txt", "text\n");
    const ReadOutcome o = read_path(dir, "plain.txt/x");
    CHECK(o.is_error);
    CHECK(first_text(o).find("is not a directory") != std::string::npos);
  }
}

TEST_CASE("archive: members of every kind are read by their readers") {
  TempDir dir;
  const std::string docx = docx_bytes("<w:p><w:r><w:t>Inside the zip</w:t></w:r></w:p>");
  dir.write("files.zip", zip_bytes({{"report.docx", docx}, {"a.txt", "alpha\n"}}));
  const ReadOutcome o = read_path(dir, "files.zip/report.docx");
  REQUIRE_MESSAGE(!o.is_error, first_text(o));
  CHECK(o.meta["kind"] == "docx");
  CHECK(first_text(o).find("Inside the zip") != std::string::npos);
  SUBCASE("a PDF and a PNG") {
    dir.write("media.tar", archive_bytes({{"doc.pdf", text_pdf(2)}, {"pic.png", encode_picture(Picture{.width = 8, .height = 6}, ".png")}},
                                         "ustar"));
    const ReadOutcome pdf = read_path(dir, "media.tar/doc.pdf");
    REQUIRE_MESSAGE(!pdf.is_error, first_text(pdf));
    CHECK(pdf.meta["kind"] == "pdf");
    const ReadOutcome png = read_path(dir, "media.tar/pic.png");
    REQUIRE_MESSAGE(!png.is_error, first_text(png));
    CHECK(png.meta["kind"] == "image");
    CHECK(std::any_of(png.blocks.begin(), png.blocks.end(),
                      [](const Block& b) { return std::holds_alternative<ImageBlock>(b); }));
  }
  SUBCASE("an office package is still read by its reader, not listed; file_type=\"archive\" lists it") {
    dir.write("report.docx", docx);
    CHECK(read_path(dir, "report.docx").meta["kind"] == "docx");
    ReadRequest request;
    request.file_path = "report.docx";
    request.forced_kind = FileKind{"archive"};
    const ReadOutcome listed = read_file(roots_of(dir), request, ReadLimits{}, CancelToken{});
    REQUIRE_MESSAGE(!listed.is_error, first_text(listed));
    CHECK(listed.meta["kind"] == "archive");
    CHECK(first_text(listed).find("\nword/document.xml  ") != std::string::npos);
  }
}

TEST_CASE("archive: archives inside archives") {
  TempDir dir;
  const std::string inner = archive_bytes({{"x.txt", "deep text\n"}}, "ustar");
  dir.write("a.zip", zip_bytes({{"inner.tar", inner}, {"b.txt", "b\n"}}));
  const std::string p = dir.path().string();
  SUBCASE("a member of the inner archive") {
    const ReadOutcome o = read_path(dir, "a.zip/inner.tar/x.txt");
    REQUIRE_MESSAGE(!o.is_error, first_text(o));
    CHECK(first_text(o).find("deep text") != std::string::npos);
    CHECK(o.meta["path"] == p + kSep + "a.zip/inner.tar/x.txt");
  }
  SUBCASE("the inner archive listed") {
    const ReadOutcome o = read_path(dir, "a.zip/inner.tar");
    REQUIRE_MESSAGE(!o.is_error, first_text(o));
    CHECK(first_text(o).starts_with("Archive " + p + kSep + "a.zip/inner.tar (POSIX ustar format): 1 entry "));
  }
  SUBCASE("a path through a member that is no archive") {
    const ReadOutcome o = read_path(dir, "a.zip/b.txt/c");
    CHECK(first_text(o) == "Cannot read " + p + kSep + "a.zip/b.txt/c: " + p + kSep +
                               "a.zip/b.txt is a text file, not an archive, so nothing lies inside it.");
  }
}

TEST_CASE("archive: the formats libarchive reads") {
  TempDir dir;
  const std::vector<ArchiveItem> items = {{"one.txt", "one\n"}};
  for (const auto& [name, bytes, format] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {"a.tar.bz2", archive_bytes(items, "ustar", "bzip2"), "POSIX ustar format, bzip2-compressed"},
           {"a.tar.xz", archive_bytes(items, "ustar", "xz"), "POSIX ustar format, xz-compressed"},
           {"a.tar.zst", archive_bytes(items, "ustar", "zstd"), "POSIX ustar format, zstd-compressed"},
           {"a.7z", archive_bytes(items, "7zip"), "7-Zip"},
           {"a.cpio", archive_bytes(items, "cpio"), "POSIX octet-oriented cpio"},
           {"a.iso", archive_bytes(items, "iso9660"), "ISO9660 with Rockridge extensions"},
           {"a.zip", zip_bytes({{"one.txt", "one\n"}}), "ZIP 2.0 (uncompressed)"},
       }) {
    CAPTURE(name);
    dir.write(name, bytes);
    const ReadOutcome o = read_path(dir, name);
    REQUIRE_MESSAGE(!o.is_error, first_text(o));
    CHECK(o.meta["format"] == format);
    const ReadOutcome member = read_path(dir, name + "/one.txt");
    REQUIRE_MESSAGE(!member.is_error, first_text(member));
    CHECK(first_text(member).find("one") != std::string::npos);
  }
}

TEST_CASE("archive: a compressed file holding no archive is one member") {
  TempDir dir;
  dir.write("notes.txt.gz", compressed_bytes("compressed notes\n", "gzip"));
  const ReadOutcome o = read_path(dir, "notes.txt.gz");
  REQUIRE_MESSAGE(!o.is_error, first_text(o));
  CHECK(first_text(o).find("\nnotes.txt  17 bytes\n") != std::string::npos);
  const ReadOutcome member = read_path(dir, "notes.txt.gz/notes.txt");
  REQUIRE_MESSAGE(!member.is_error, first_text(member));
  CHECK(first_text(member).find("compressed notes") != std::string::npos);
}

TEST_CASE("archive: listings page by offset and limit") {
  TempDir dir;
  std::vector<ArchiveItem> items;
  for (int i = 0; i < 5; ++i) items.push_back({"f" + std::to_string(i) + ".txt", "x"});
  dir.write("many.tar", archive_bytes(items, "ustar"));
  const ReadOutcome o = read_path(dir, "many.tar", 2, 2);
  REQUIRE_FALSE(o.is_error);
  const std::string text = first_text(o);
  CHECK(text.find("\nf1.txt  1 byte\nf2.txt  1 byte\n[Entries 2-3 of 5. To list more, ") != std::string::npos);
  CHECK(o.meta["next_offset"] == 4);
  CHECK(first_text(read_path(dir, "many.tar", 9)) ==
        "Offset 9 is past the end of the archive " + dir.path().string() + kSep + "many.tar: it has 5 entries. Use an "
        "offset from 1 to 5.");
}

TEST_CASE("archive: listings and members are cached, and released with the other caches") {
  TempDir dir;
  dir.write("bundle.tar.gz", archive_bytes(kBundle, "ustar", "gzip"));
  release_caches();
  REQUIRE_FALSE(read_path(dir, "bundle.tar.gz/top.txt").is_error);
  CHECK(release_caches() > 0);
}

TEST_CASE("archive: the archive itself must lie inside the roots") {
  TempDir outside;
  TempDir root;
  outside.write("a.tar", archive_bytes({{"x.txt", "x\n"}}, "ustar"));
  const ReadOutcome o = read_path(root, outside.path().string() + kSep + "a.tar/x.txt");
  CHECK(o.is_error);
  CHECK(first_text(o).starts_with("Access denied: " + (outside.path() / "a.tar" / "x.txt").string() +
                                  " is outside the allowed roots"));
}

TEST_CASE("archive: recognised by content, not by a few letters of text") {
  const auto kind = [](const std::string& name, const std::string& bytes) {
    return classify(name, std::span(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size()), bytes.size())
        .kind;
  };
  CHECK(kind("a.bz2", archive_bytes({{"x", "x"}}, "ustar", "bzip2")) == FileKind{"archive"});
  CHECK(kind("words.txt", "BZh is how this note starts\n") == FileKind::text);
  CHECK(kind("lz.txt", "LZIP archives are rare\n") == FileKind::text);
  CHECK(kind("a.7z", archive_bytes({{"x", "x"}}, "7zip")) == FileKind{"archive"});
  CHECK(kind("data", archive_bytes({{"x", "x"}}, "cpio")) == FileKind{"archive"});
}

TEST_CASE("archive: a compressed SVG unpacks to the SVG") {
  TempDir dir;
  dir.write("logo.svgz", compressed_bytes("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"4\" height=\"4\"/>", "gzip"));
  CHECK(first_text(read_path(dir, "logo.svgz")).find("\nlogo.svg  ") != std::string::npos);
}

TEST_CASE("archive: names stored in a legacy charset are shown and found in UTF-8") {
  TempDir dir;
  dir.write("legacy.tar", archive_bytes({{"caf\xE9.txt", "latin\n"}}, "ustar"));  // windows-1252 bytes
  CHECK(first_text(read_path(dir, "legacy.tar")).find("\ncafé.txt  6 bytes\n") != std::string::npos);
  const ReadOutcome o = read_path(dir, "legacy.tar/café.txt");
  REQUIRE_MESSAGE(!o.is_error, first_text(o));
  CHECK(first_text(o).starts_with("     1\tlatin"));
}
