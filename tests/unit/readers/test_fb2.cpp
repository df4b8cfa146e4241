// FictionBook 2 e-books through read_file: the description's title, authors and annotation, the
// bodies' sections as headings, poems, quotes, tables, inline markup, notes as footnotes and the
// book's binaries as images, text in the charset its XML declaration names, classification by
// the <FictionBook> root, and hostile input refused with the reason.
#include "fixtures.hpp"
#include "image_fixtures.hpp"
#include "reader_fixtures.hpp"
#include "tool_wording.hpp"

#include "mcpread/readers/base64.hpp"
#include "mcpread/readers/read.hpp"
#include "mcpread/readers/utf8.hpp"

#include <doctest/doctest.h>

#include <string>
#include <variant>

using namespace mcpread::readers;
using namespace mcpread::test;

namespace {

// A book as FictionBook editors write one: the declaration, the namespaces, a description.
std::string book(const std::string& bodies, const std::string& binaries = {},
                 const std::string& declaration = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n") {
  return declaration +
         "<FictionBook xmlns=\"http://www.gribuser.ru/xml/fictionbook/2.0\" "
         "xmlns:l=\"http://www.w3.org/1999/xlink\">\n"
         "<description><title-info><genre>prose</genre>\n"
         "  <author><first-name>Anna</first-name> <last-name>Writer</last-name></author>\n"
         "  <author><nickname>anon</nickname></author>\n"
         "  <book-title>The Book</book-title>\n"
         "  <annotation><p>What it is about.</p></annotation><lang>en</lang></title-info>\n"
         "<document-info><program-used>an editor</program-used></document-info></description>\n" +
         bodies + binaries + "</FictionBook>\n";
}

}  // namespace

TEST_CASE("fb2: the book as Markdown-like text") {
  TempDir dir;
  SUBCASE("description, nested sections as headings, subtitles, inline markup and links") {
    const auto o = read_worded(dir, "a.fb2",
                            book("<body><title><p>The Book</p><p>A Novel</p></title>\n"
                                 "<section><title><p>Part One</p></title>\n"
                                 "  <section><title><p>Chapter 1</p></title>\n"
                                 "    <p>It was <emphasis>dark</emphasis> and <strong>stormy</strong>,\n"
                                 "    said <code>x</code> <strikethrough>twice</strikethrough>.</p>\n"
                                 "    <empty-line/><subtitle>* * *</subtitle>\n"
                                 "    <p>See <a l:href=\"https://example.org/a\">the site</a>.</p>\n"
                                 "  </section></section></body>\n"));
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o) == "FictionBook e-book " + (dir.path() / "a.fb2").string() +
                            ": 9 paragraphs.\n\n# The Book\n\nby Anna Writer and anon\n\nWhat it is about.\n\n"
                            "# The Book — A Novel\n\n## Part One\n\n### Chapter 1\n\n"
                            "It was *dark* and **stormy**, said `x` ~~twice~~.\n\n* * *\n\n"
                            "See [the site](https://example.org/a).\n\n[Paragraphs 1-9 of 9. End of document.]");
    CHECK(o.meta["kind"] == "fb2");
    CHECK(o.meta["title"] == "The Book");
  }
  SUBCASE("poems a stanza a block, citations and epigraphs as quotes, tables") {
    const auto o = read_worded(dir, "p.fb2",
                            book("<body><section><epigraph><p>Know thyself.</p><text-author>Someone</text-author>"
                                 "</epigraph>\n<poem><title><p>Song</p></title>\n"
                                 "<stanza><v>Line one,</v>\n<v>line two.</v></stanza>\n"
                                 "<stanza><v>Again.</v></stanza><text-author>Poet</text-author></poem>\n"
                                 "<cite><p>Quoted</p><p>twice.</p></cite>\n"
                                 "<table><tr><th>Name</th><th>Age</th></tr><tr><td>Ann | B</td><td>30</td></tr></table>"
                                 "</section></body>"));
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o).find("\n\n> Know thyself.\n\n> — Someone\n\n### Song\n\nLine one,\nline two.\n\nAgain.\n\n— Poet\n\n"
                          "> Quoted\n\n> twice.\n\n| Name | Age |\n| --- | --- |\n| Ann \\| B | 30 |\n\n") != std::string::npos);
  }
  SUBCASE("the notes body's sections are the footnotes the text links to") {
    const auto o = read_worded(dir, "n.fb2",
                            book("<body><section><p>A claim<a l:href=\"#n1\" type=\"note\">[1]</a> and another"
                                 "<a l:href=\"#n2\">*</a>.</p></section></body>\n"
                                 "<body name=\"notes\"><title><p>Notes</p></title>"
                                 "<section id=\"n1\"><title><p>1</p></title><p>The source.</p><p>Page 3.</p></section>"
                                 "<section id=\"n2\"><title><p>*</p></title><p>Less sure.</p></section></body>"));
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o).find("\n\nA claim[^1] and another[^*].\n\n[^1]: The source. Page 3.\n[^*]: Less sure.\n\n") !=
          std::string::npos);
    CHECK(o.meta["notes"] == 2);
  }
  SUBCASE("paged by paragraphs, as the office documents are") {
    std::string body = "<body><section>";
    for (int i = 1; i <= 5; ++i) body += "<p>Paragraph " + std::to_string(i) + ".</p>";
    const auto o = read_worded(dir, "g.fb2", book(body + "</section></body>"), 5, 2);
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o).ends_with("Paragraph 2.\n\nParagraph 3.\n\n[Paragraphs 5-6 of 8. To read more, call read again with "
                               "offset=7.]"));
    CHECK(o.meta["next_offset"] == 7);
  }
  SUBCASE("file_type=text gives the book's XML") {
    const auto o = read_worded(dir, "x.fb2", book("<body><p>Hi.</p></body>"), {}, {}, FileKind::text);
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o).starts_with("     1\t<?xml version=\"1.0\" encoding=\"utf-8\"?>"));
  }
  SUBCASE("a FictionBook named .xml is read as a book; other XML is not") {
    CHECK(read_worded(dir, "book.xml", book("<body><p>Hi.</p></body>")).meta["kind"] == "fb2");
    CHECK(read_worded(dir, "other.xml", "<?xml version=\"1.0\"?><root><FictionBook/></root>").meta["kind"] == "text");
  }
}

TEST_CASE("fb2: text in the charset its declaration names") {
  TempDir dir;
  // "Привет, мир" in windows-1251, as Russian libraries' books often are.
  const std::string cp1251 = "\xCF\xF0\xE8\xE2\xE5\xF2, \xEC\xE8\xF0";
  const auto o = read_worded(dir, "r.fb2", book("<body><p>" + cp1251 + "</p></body>", {},
                                            "<?xml version=\"1.0\" encoding=\"windows-1251\"?>\n"));
  REQUIRE_FALSE(o.is_error);
  CHECK(first_text(o).find("\n\nПривет, мир\n\n") != std::string::npos);
  CHECK(o.meta["charset"] == "WINDOWS-1251");
}

TEST_CASE("fb2: the book's images") {
  TempDir dir;
  const std::string png = encode_picture({40, 30}, ".png");
  const std::string binaries = "<binary id=\"pic.png\" content-type=\"image/png\">\n" + base64_encode(png) +
                               "\n</binary><binary id=\"bad\" content-type=\"image/png\">!!!</binary>";
  SUBCASE("an image goes to the model after its paragraph, numbered where it stands") {
    const auto o = read_worded(dir, "i.fb2",
                            book("<body><section><p>Click <image l:href=\"#pic.png\"/> here.</p>"
                                 "<image l:href=\"#missing.jpg\" alt=\"Map\"/></section></body>",
                                 binaries));
    REQUIRE_FALSE(o.is_error);
    REQUIRE(o.blocks.size() == 3);
    CHECK(first_text(o).ends_with("\n\nClick [Image 1] here."));
    REQUIRE(std::holds_alternative<ImageBlock>(o.blocks[1]));
    CHECK(std::get<ImageBlock>(o.blocks[1]).mime_type == "image/png");
    CHECK(std::get<TextBlock>(o.blocks[2]).text ==
          "[Image: Map not in the book (missing.jpg)]\n\n[Paragraphs 1-5 of 5. End of document.]");
    CHECK(o.meta["images_missing"] == 1);
  }
  SUBCASE("damaged base64 is named, the text read on") {
    const auto o = read_worded(dir, "d.fb2", book("<body><p>Cover <image l:href=\"#bad\"/></p><p>After.</p></body>", binaries));
    REQUIRE_FALSE(o.is_error);
    const std::string all = std::get<TextBlock>(o.blocks.back()).text;
    CHECK(all.find("[Image bad not shown: its base64 data is damaged.]") != std::string::npos);
    CHECK(all.find("After.") != std::string::npos);
  }
}

TEST_CASE("fb2: hostile and broken input") {
  TempDir dir;
  SUBCASE("elements nested past the limit are refused, with the reason") {
    std::string deep;
    for (int i = 0; i < 300; ++i) deep += "<section>";
    deep += "<p>x</p>";
    for (int i = 0; i < 300; ++i) deep += "</section>";
    const auto o = read_worded(dir, "deep.fb2", book("<body>" + deep + "</body>"));
    CHECK(o.is_error);
    CHECK(first_text(o) == "Cannot read " + (dir.path() / "deep.fb2").string() +
                            " as a FictionBook e-book: its elements are nested more than 200 deep. Call read with "
                            "file_type=\"text\" to read its XML.");
  }
  SUBCASE("XML that is not well-formed, and XML that is no FictionBook, are refused") {
    const auto broken = read_worded(dir, "broken.fb2", "<?xml version=\"1.0\"?>\n<FictionBook><body><p>x</body>");
    CHECK(broken.is_error);
    CHECK(first_text(broken).find("as a FictionBook e-book: it is not well-formed XML (") != std::string::npos);
    const auto other = read_worded(dir, "other.fb2", "<?xml version=\"1.0\"?>\n<html><body>x</body></html>");
    CHECK(other.is_error);
    CHECK(first_text(other).find("as a FictionBook e-book: it has no <FictionBook> root element.") != std::string::npos);
  }
  SUBCASE("a table of too many cells is refused") {
    std::string row = "<tr>";
    for (int i = 0; i < 1000; ++i) row += "<td/>";
    row += "</tr>";
    std::string table = "<table>";
    for (int i = 0; i < 101; ++i) table += row;
    const auto o = read_worded(dir, "cells.fb2", book("<body>" + table + "</table></body>"));
    CHECK(o.is_error);
    CHECK(first_text(o).find("a table holds more than 100000 cells") != std::string::npos);
  }
  SUBCASE("a book with no text says so") {
    CHECK(first_text(read_worded(dir, "empty.fb2", "<FictionBook><body/></FictionBook>")).ends_with("[The document has no text.]"));
  }
}
