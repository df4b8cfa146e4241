// EPUB books through read_file: title and author from the package document, chapters in spine
// order under chapter markers titled from the nav document, the HTML reader's text conversion,
// pictures as image blocks after their chapter, `pages` selecting chapters, a long chapter
// continued with offset, DRM named as such, and classification.
#include "fixtures.hpp"
#include "image_fixtures.hpp"
#include "reader_fixtures.hpp"
#include "tool_wording.hpp"
#include "slides_fixtures.hpp"

#include "mcpread/readers/read.hpp"

#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <variant>

using namespace mcpread::readers;
using namespace mcpread::test;

namespace {

ReadOutcome read_book(const TempDir& dir, const std::string& bytes, const std::string& pages = {},
                      std::optional<std::uint64_t> offset = {}, ReadLimits limits = {}) {
  dir.write("b.epub", bytes);
  ReadRequest request = tool_worded(ReadRequest{});  // worded as the server words hints
  request.file_path = "b.epub";
  request.pages = pages;
  request.offset = offset;
  return read_file(roots_of(dir), request, limits, CancelToken{});
}

}  // namespace

TEST_CASE("epub: chapters as text") {
  TempDir dir;
  const std::string bytes = epub_bytes(
      "A Tale", "Ann Author",
      {{"text/one.xhtml", "<h1>Beginning</h1><p>It was a <em>dark</em> night.</p><ul><li>rain</li><li>wind</li></ul>", "Chapter One"},
       {"two.xhtml", "<h2>Untitled in the toc</h2><p>The end.</p>", ""}});
  SUBCASE("title and author, chapters in spine order, titled from the nav document or their heading") {
    const ReadOutcome o = read_book(dir, bytes);
    REQUIRE_FALSE(o.is_error);
    CHECK(texts_joined(o) == "EPUB book " + (dir.path() / "b.epub").string() + ": 2 chapters.\nTitle: A Tale\nAuthor: Ann Author\n\n"
                        "\u2500\u2500 Chapter 1 of 2: Chapter One \u2500\u2500\n\n# Beginning\n\nIt was a dark night.\n\n- rain\n- wind\n\n"
                        "\u2500\u2500 Chapter 2 of 2: Untitled in the toc \u2500\u2500\n\n## Untitled in the toc\n\nThe end.\n\n"
                        "[Chapters 1-2 of 2. End of document.]\n<block>\n");
    CHECK(o.meta["chapters"] == 2);
    CHECK(o.meta["kind"] == "epub");
  }
  SUBCASE("pages selects chapters") {
    const ReadOutcome o = read_book(dir, bytes, "2");
    REQUIRE_FALSE(o.is_error);
    CHECK(texts_joined(o).find("Chapter 1 of 2") == std::string::npos);
    CHECK(texts_joined(o).ends_with("The end.\n\n[Chapter 2 of 2. End of the selection.]\n<block>\n"));
  }
  SUBCASE("a chapter over the output cap is cut at a line and continued with offset") {
    std::string body;
    for (int i = 1; i <= 40; ++i) body += "<p>Line " + std::to_string(i) + " " + std::string(60, 'x') + "</p>";
    const std::string big = epub_bytes("Big", "", {{"c.xhtml", body, "Long"}, {"d.xhtml", "<p>Next</p>", "Short"}});
    ReadLimits limits;
    limits.text.max_output_bytes = 2000;
    const ReadOutcome o = read_book(dir, big, {}, {}, limits);
    REQUIRE_FALSE(o.is_error);
    const std::string t = texts_joined(o);
    REQUIRE(o.meta.contains("next_offset"));
    const auto next = o.meta["next_offset"].get<std::uint64_t>();
    CHECK(t.ends_with("[Chapter 1 of 2. Chapter 1 is cut at line " + std::to_string(next) +
                      " to fit the output cap of 2000 bytes. To read on, call read again with pages=\"1-2\" and offset=" +
                      std::to_string(next) + ".]\n<block>\n"));
    const ReadOutcome rest = read_book(dir, big, "1-2", next, limits);
    REQUIRE_FALSE(rest.is_error);
    const std::string line = "Line " + std::to_string((next + 1) / 2) + " ";
    CHECK(texts_joined(rest).find("[From line " + std::to_string(next) + " of the chapter's text.]\n\n" + line) != std::string::npos);
  }
}

TEST_CASE("epub: an EPUB 2 book titles its chapters from its NCX") {
  TempDir dir;
  const std::string opf =
      "<package xmlns=\"http://www.idpf.org/2007/opf\" version=\"2.0\"><metadata xmlns:dc=\"http://purl.org/dc/elements/1.1/\">"
      "<dc:title>Old</dc:title><dc:creator>One</dc:creator><dc:creator>Two</dc:creator></metadata><manifest>"
      "<item id=\"ncx\" href=\"toc.ncx\" media-type=\"application/x-dtbncx+xml\"/>"
      "<item id=\"a\" href=\"text/a%20b.html\" media-type=\"application/xhtml+xml\"/></manifest>"
      "<spine toc=\"ncx\"><itemref idref=\"a\"/></spine></package>";
  const std::string ncx =
      "<ncx xmlns=\"http://www.daisy.org/z3986/2005/ncx/\"><navMap><navPoint id=\"p\"><navLabel><text>The  Start</text></navLabel>"
      "<content src=\"text/a%20b.html#top\"/></navPoint></navMap></ncx>";
  const ReadOutcome o = read_book(
      dir, zip_bytes({{"META-INF/container.xml",
                       "<container><rootfiles><rootfile full-path=\"OPS/book.opf\"/></rootfiles></container>"},
                      {"OPS/book.opf", opf},
                      {"OPS/toc.ncx", ncx},
                      {"OPS/text/a b.html", "<html><body><p>Words.</p></body></html>"}}));
  REQUIRE_FALSE(o.is_error);
  CHECK(texts_joined(o) == "EPUB book " + (dir.path() / "b.epub").string() + ": 1 chapter.\nTitle: Old\nAuthor: One, Two\n\n"
                      "\u2500\u2500 Chapter 1 of 1: The Start \u2500\u2500\n\nWords.\n\n[Chapter 1 of 1. End of document.]\n<block>\n");
}

TEST_CASE("epub: pictures after their chapter") {
  TempDir dir;
  const std::string png = encode_picture(Picture{.width = 40, .height = 30}, ".png");
  REQUIRE_FALSE(png.empty());
  const std::string bytes = epub_bytes("Pics", "", {{"text/c.xhtml", "<p>See <img src=\"../images/a%20b.png\" alt=\"A map\"/> here.</p>", "C"}},
                                       {{"OEBPS/images/a b.png", png}});
  const ReadOutcome o = read_book(dir, bytes);
  REQUIRE_FALSE(o.is_error);
  REQUIRE(o.blocks.size() == 3);
  CHECK(std::get<TextBlock>(o.blocks[0]).text.ends_with("\u2500\u2500 Chapter 1 of 1: C \u2500\u2500\n\nSee [Image 1: A map] here."));
  CHECK(std::get_if<ImageBlock>(&o.blocks[1]) != nullptr);
  CHECK(o.meta["images"] == 1);
}

TEST_CASE("epub: DRM and classification") {
  TempDir dir;
  const std::string chapters = "<p>x</p>";
  SUBCASE("encryption.xml naming a chapter: DRM-protected") {
    const std::string enc =
        "<encryption xmlns=\"urn:oasis:names:tc:opendocument:xmlns:container\" xmlns:enc=\"http://www.w3.org/2001/04/xmlenc#\">"
        "<enc:EncryptedData><enc:EncryptionMethod Algorithm=\"http://www.w3.org/2001/04/xmlenc#aes128-cbc\"/>"
        "<enc:CipherData><enc:CipherReference URI=\"OEBPS/c.xhtml\"/></enc:CipherData></enc:EncryptedData></encryption>";
    const ReadOutcome o = read_book(dir, epub_bytes("T", "", {{"c.xhtml", chapters, ""}}, {{"META-INF/encryption.xml", enc}}));
    REQUIRE(o.is_error);
    CHECK(texts_joined(o) == (dir.path() / "b.epub").string() +
                            " cannot be read as an EPUB book: it is DRM-protected (encrypted): META-INF/encryption.xml lists "
                            "1 encrypted resource (\"OEBPS/c.xhtml\" first), which cannot be read without the key.\n<block>\n");
  }
  SUBCASE("obfuscated fonts only: read") {
    const std::string enc =
        "<encryption xmlns=\"urn:oasis:names:tc:opendocument:xmlns:container\" xmlns:enc=\"http://www.w3.org/2001/04/xmlenc#\">"
        "<enc:EncryptedData><enc:EncryptionMethod Algorithm=\"http://www.idpf.org/2008/embedding\"/>"
        "<enc:CipherData><enc:CipherReference URI=\"OEBPS/f.otf\"/></enc:CipherData></enc:EncryptedData></encryption>";
    const ReadOutcome o = read_book(dir, epub_bytes("T", "", {{"c.xhtml", chapters, ""}}, {{"META-INF/encryption.xml", enc}}));
    CHECK_FALSE(o.is_error);
  }
  SUBCASE("the mimetype entry makes it a book, whatever its name") {
    const std::string epub = epub_bytes("T", "", {{"c.xhtml", chapters, ""}});
    const auto span = std::span(reinterpret_cast<const unsigned char*>(epub.data()), epub.size());
    const Classification c = classify("book.zip", span, epub.size());
    CHECK(c.kind == FileKind{"epub"});
    CHECK(c.mime == "application/epub+zip");
  }
}
