// MOBI e-books through read_file: the EXTH title, author and publisher, the book cut into chapters
// at its page breaks, the HTML reader's text conversion, pictures (recindex links) as image
// blocks after their chapter, CP1252 text, PalmDOC text, `pages` and offset as in EPUB books,
// DRM named as such, classification by the Palm database header, and hostile input refused.
#include "fixtures.hpp"
#include "image_fixtures.hpp"
#include "mobi_fixtures.hpp"
#include "reader_fixtures.hpp"
#include "tool_wording.hpp"

#include "mcpread/readers/read.hpp"
#include "mobi/mobi_book.hpp"
#include "mobi/mobi_reader.hpp"

#include <doctest/doctest.h>

#include <optional>
#include <span>
#include <string>
#include <variant>

using namespace mcpread::readers;
using namespace mcpread::test;

namespace {

ReadOutcome read_book(const TempDir& dir, const std::string& bytes, const std::string& pages = {},
                      std::optional<std::uint64_t> offset = {}, ReadLimits limits = {}, const std::string& name = "b.mobi") {
  dir.write(name, bytes);
  ReadRequest request = tool_worded(ReadRequest{});
  request.file_path = name;
  request.pages = pages;
  request.offset = offset;
  return read_file(roots_of(dir), request, limits, CancelToken{});
}

// The refusal of bytes read straight by the reader (no classification first).
std::string refusal_of(std::string_view bytes) {
  const ReadOutcome o = mobi::read_mobi_bytes(bytes, "x.mobi", sections::Options{}, CancelToken{});
  return error_text(o);
}

const std::string kRule = "\u2500\u2500";

}  // namespace

TEST_CASE("mobi: chapters as text") {
  TempDir dir;
  MobiFixture f;
  f.text = "<html><head><title>x</title><guide></guide></head><body><h1>Chapter One</h1>"
           "<p>It was a <b>dark</b> night.</p><ul><li>rain</li><li>wind</li></ul><mbp:pagebreak/>"
           "<mbp:pagebreak/><h2>Chapter Two</h2><p>Caf\xC3\xA9 au lait.</p></body></html>";
  const std::string bytes = mobi_book(f);
  const std::string path = (dir.path() / "b.mobi").string();
  SUBCASE("EXTH metadata, chapters cut at page breaks, titled by their heading") {
    const ReadOutcome o = read_book(dir, bytes);
    REQUIRE_FALSE(o.is_error);
    CHECK(texts_joined(o) == "MOBI book " + path + ": 2 chapters.\nTitle: A Small Book\nAuthor: Ann Author\nPublisher: Small Press\n\n" +
                            kRule + " Chapter 1 of 2: Chapter One " + kRule +
                            "\n\n# Chapter One\n\nIt was a dark night.\n\n- rain\n- wind\n\n" + kRule +
                            " Chapter 2 of 2: Chapter Two " + kRule + "\n\n## Chapter Two\n\nCaf\u00e9 au lait.\n\n"
                            "[Chapters 1-2 of 2. End of document.]\n<block>\n");
    CHECK(o.meta["chapters"] == 2);
    CHECK(o.meta["kind"] == "mobi");
  }
  SUBCASE("pages selects chapters; the same bytes named .azw3 or .prc read the same") {
    const ReadOutcome o = read_book(dir, bytes, "2", {}, {}, "b.azw3");
    REQUIRE_FALSE(o.is_error);
    CHECK(texts_joined(o).find("Chapter 1 of 2") == std::string::npos);
    CHECK(texts_joined(o).ends_with("Caf\u00e9 au lait.\n\n[Chapter 2 of 2. End of the selection.]\n<block>\n"));
    CHECK_FALSE(read_book(dir, bytes, {}, {}, {}, "b.prc").is_error);
  }
  SUBCASE("a chapter over the output cap is cut at a line and continued with offset") {
    MobiFixture big;
    for (int i = 1; i <= 60; ++i) big.text += "<p>Line " + std::to_string(i) + " " + std::string(60, 'x') + "</p>";
    big.text += "<mbp:pagebreak/><p>Next</p>";
    const std::string long_book = mobi_book(big);
    ReadLimits limits;
    limits.text.max_output_bytes = 2000;
    const ReadOutcome o = read_book(dir, long_book, {}, {}, limits);
    REQUIRE_FALSE(o.is_error);
    REQUIRE(o.meta.contains("next_offset"));
    const auto next = o.meta["next_offset"].get<std::uint64_t>();
    CHECK(texts_joined(o).ends_with("[Chapter 1 of 2. Chapter 1 is cut at line " + std::to_string(next) +
                               " to fit the output cap of 2000 bytes. To read on, call read again with pages=\"1-2\" and "
                               "offset=" + std::to_string(next) + ".]\n<block>\n"));
    const ReadOutcome rest = read_book(dir, long_book, "1-2", next, limits);
    REQUIRE_FALSE(rest.is_error);
    CHECK(texts_joined(rest).find("[From line " + std::to_string(next) + " of the chapter's text.]") != std::string::npos);
  }
}

TEST_CASE("mobi: pictures after their chapter, by their recindex") {
  TempDir dir;
  const std::string png = encode_picture(Picture{.width = 40, .height = 30}, ".png");
  REQUIRE_FALSE(png.empty());
  MobiFixture f;
  f.text = "<p>See <img recindex=\"00002\" alt=\"A map\"> here.</p><p><img recindex=\"00009\"></p>";
  f.images = {"not an image", png};
  const ReadOutcome o = read_book(dir, mobi_book(f));
  REQUIRE_FALSE(o.is_error);
  REQUIRE(o.blocks.size() == 3);
  const std::string first = std::get<TextBlock>(o.blocks[0]).text;
  CHECK(first.ends_with(kRule + " Chapter 1 of 1 " + kRule + "\n\nSee [Image 1: A map] here.\n\n[Image 2]\n"
                        "[Image resource00008.dat not shown: the book has no image resource of that name.]"));
  CHECK(std::get_if<ImageBlock>(&o.blocks[1]) != nullptr);
  CHECK(o.meta["images"] == 1);
}

TEST_CASE("mobi: text encodings and PalmDOC") {
  TempDir dir;
  SUBCASE("a CP1252 book's text and metadata come out as UTF-8") {
    MobiFixture f;
    f.encoding = 1252;
    f.exth = {{100, "J\xFCrgen"}};
    f.text = "<p>Caf\xE9 \x93quoted\x94</p>";
    const ReadOutcome o = read_book(dir, mobi_book(f));
    REQUIRE_FALSE(o.is_error);
    CHECK(texts_joined(o).find("Author: J\u00fcrgen\n") != std::string::npos);
    CHECK(texts_joined(o).find("Caf\u00e9 \u201cquoted\u201d") != std::string::npos);
  }
  SUBCASE("PalmDOC text keeps its lines; its markup characters are text") {
    MobiFixture f;
    f.palmdoc = true;
    f.text = "Line one & <two>\r\nLine three";
    const ReadOutcome o = read_book(dir, mobi_book(f), {}, {}, {}, "p.prc");
    REQUIRE_FALSE(o.is_error);
    CHECK(texts_joined(o).ends_with(kRule + " Chapter 1 of 1 " + kRule + "\n\nLine one & <two>\nLine three\n\n"
                               "[Chapter 1 of 1. End of document.]\n<block>\n"));
  }
}

TEST_CASE("mobi: DRM, classification and hostile input") {
  TempDir dir;
  MobiFixture f;
  f.text = "<p>Words.</p>";
  SUBCASE("a DRM-protected book is refused as such") {
    MobiFixture drm = f;
    drm.encryption = 2;
    const ReadOutcome o = read_book(dir, mobi_book(drm));
    REQUIRE(o.is_error);
    CHECK(texts_joined(o) == (dir.path() / "b.mobi").string() +
                            " cannot be read as a MOBI e-book: it is DRM-protected (encrypted), and cannot be read "
                            "without the key of the device it was sold for.\n<block>\n");
  }
  SUBCASE("the Palm database header makes it a book, whatever its name") {
    const std::string book = mobi_book(f);
    const auto span = std::span(reinterpret_cast<const unsigned char*>(book.data()), book.size());
    const Classification c = classify("book.bin", span, book.size());
    CHECK(c.kind == FileKind{"mobi"});
    CHECK(c.mime == "application/x-mobipocket-ebook");
  }
  SUBCASE("file_type=text gives the text without the images") {
    dir.write("b.mobi", mobi_book(f));
    ReadRequest request = tool_worded(ReadRequest{});
    request.file_path = "b.mobi";
    request.forced_kind = FileKind::text;
    const ReadOutcome o = read_file(roots_of(dir), request, ReadLimits{}, CancelToken{});
    REQUIRE_FALSE(o.is_error);
    CHECK(texts_joined(o).find("Words.") != std::string::npos);
  }
  SUBCASE("empty, short, garbage and truncated books are refused with the reason") {
    CHECK(refusal_of("") == "x.mobi cannot be read as a MOBI e-book: it is too short for a Palm database header (78 bytes).");
    const std::string garbage = pseudo_random(4000, 7);
    CHECK(refusal_of(garbage).starts_with("x.mobi cannot be read as a MOBI e-book: "));
    const std::string book = mobi_book(f);
    for (const std::size_t keep : {std::size_t{80}, std::size_t{100}, std::size_t{300}, book.size() - 20}) {
      CAPTURE(keep);
      const ReadOutcome o = mobi::read_mobi_bytes(std::string_view(book).substr(0, keep), "x.mobi", sections::Options{}, CancelToken{});
      CHECK(texts_joined(o).starts_with(o.is_error ? "x.mobi cannot be read as a MOBI e-book: " : "MOBI book x.mobi"));
    }
  }
  SUBCASE("a header claiming 65535 records over a few bytes is refused") {
    MobiFixture huge = f;
    huge.claimed_records = 65535;
    CHECK(refusal_of(mobi_book(huge)).starts_with("x.mobi cannot be read as a MOBI e-book: libmobi cannot parse it"));
  }
  SUBCASE("the message from the parse survives only whole") {
    mobi::MobiBook book;
    book.title = "T";
    book.html = {"<p>a</p>"};
    book.images = {{"resource00000.png", std::string("\0x", 2)}};
    const std::string message = mobi::to_message(book);
    mobi::MobiBook back;
    REQUIRE(mobi::from_message(message, &back));
    CHECK(back.title == "T");
    CHECK(back.images.at("resource00000.png") == std::string("\0x", 2));
    mobi::MobiBook cut;
    CHECK_FALSE(mobi::from_message(std::string_view(message).substr(0, message.size() - 1), &cut));
  }
}
