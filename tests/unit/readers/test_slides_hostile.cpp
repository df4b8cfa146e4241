// Hostile presentations and e-books are refused with a sentence saying why, or read without
// harm: zip bombs, entries and hrefs outside the package, entity tricks, absurd nesting,
// encryption and DRM, missing and repeated slides and chapters.
#include "fixtures.hpp"
#include "reader_fixtures.hpp"
#include "slides_fixtures.hpp"

#include "mcpread/readers/read.hpp"

#include <doctest/doctest.h>

#include <string>
#include <variant>

using namespace mcpread::readers;
using namespace mcpread::test;

namespace {

std::string text_shape(const std::string& inner) {
  return "<p:sp><p:nvSpPr><p:nvPr/></p:nvSpPr><p:txBody><a:p><a:r><a:t>" + inner + "</a:t></a:r></a:p></p:txBody></p:sp>";
}

const std::string kPresentationNs =
    "xmlns:p=\"http://schemas.openxmlformats.org/presentationml/2006/main\" "
    "xmlns:a=\"http://schemas.openxmlformats.org/drawingml/2006/main\" "
    "xmlns:r=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships\"";

}  // namespace

TEST_CASE("slides hostile: PPTX packages") {
  TempDir dir;
  const std::string prefix = (dir.path() / "h.pptx").string() + " cannot be read as a PowerPoint presentation: ";
  SUBCASE("a slide compressed far beyond what text compresses to") {
    const ReadOutcome o = read_written(dir, "h.pptx", pptx_bytes({{.shapes = text_shape(std::string(4u << 20, ' '))}}));
    CHECK(error_text(o).starts_with(prefix + "\"ppt/slides/slide1.xml\" is compressed "));
    CHECK(first_text(o).ends_with(" to 1, over the ratio of 200 allowed (a zip bomb?)."));
  }
  SUBCASE("an entry named ../ is refused, whatever it holds") {
    const ReadOutcome o = read_written(dir, "h.pptx", pptx_bytes({{.shapes = text_shape("x")}}, {{"../evil", "x"}}));
    CHECK(error_text(o) == prefix + "its zip archive holds an entry named \"../evil\", which points outside the package; "
                                 "such a file is refused.");
  }
  SUBCASE("entities are never expanded") {
    std::string slide = "<?xml version=\"1.0\"?><!DOCTYPE p:sld [<!ENTITY lol \"lol\"><!ENTITY lol2 \"&lol;&lol;&lol;&lol;\">"
                        "<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]><p:sld " + kPresentationNs + "><p:cSld><p:spTree>" +
                        text_shape("a &lol2; b &xxe; c") + "</p:spTree></p:cSld></p:sld>";
    const ReadOutcome o = read_written(
        dir, "h.pptx",
        zip_bytes({{"ppt/presentation.xml", "<p:presentation " + kPresentationNs +
                                                "><p:sldIdLst><p:sldId id=\"256\" r:id=\"rId1\"/></p:sldIdLst></p:presentation>"},
                   {"ppt/_rels/presentation.xml.rels",
                    "<Relationships><Relationship Id=\"rId1\" Type=\"x/slide\" Target=\"slides/slide1.xml\"/></Relationships>"},
                   {"ppt/slides/slide1.xml", slide}}));
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o).find("\n\na &lol2; b &xxe; c\n\n") != std::string::npos);
    CHECK(first_text(o).find("root:") == std::string::npos);
  }
  SUBCASE("absurd nesting") {
    std::string deep;
    for (int i = 0; i < 5000; ++i) deep += "<p:grpSp>";
    for (int i = 0; i < 5000; ++i) deep += "</p:grpSp>";
    const ReadOutcome o = read_written(dir, "h.pptx", pptx_bytes({{.shapes = deep}}));
    CHECK(error_text(o) == prefix + "\"ppt/slides/slide1.xml\" is nested more than 100 elements deep.");
  }
  SUBCASE("a relationship climbing out of the package, and a slide listed twice") {
    const ReadOutcome o = read_written(
        dir, "h.pptx",
        zip_bytes({{"ppt/presentation.xml", "<p:presentation " + kPresentationNs +
                                                "><p:sldIdLst><p:sldId r:id=\"rId1\"/><p:sldId r:id=\"rId2\"/><p:sldId r:id=\"rId2\"/>"
                                                "</p:sldIdLst></p:presentation>"},
                   {"ppt/_rels/presentation.xml.rels",
                    "<Relationships><Relationship Id=\"rId1\" Type=\"x/slide\" Target=\"../../../etc/passwd\"/>"
                    "<Relationship Id=\"rId2\" Type=\"x/slide\" Target=\"slides/s.xml\"/></Relationships>"},
                   {"ppt/slides/s.xml", "<p:sld " + kPresentationNs + "><p:cSld><p:spTree>" + text_shape("once") +
                                            "</p:spTree></p:cSld></p:sld>"}}));
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o) == "PowerPoint presentation " + (dir.path() / "h.pptx").string() + ": 2 slides.\n\n"
                        "\u2500\u2500 Slide 1 of 2 \u2500\u2500\n\n[This slide's part is missing from the package.]\n\n"
                        "\u2500\u2500 Slide 2 of 2 \u2500\u2500\n\nonce\n\n[Slides 1-2 of 2. End of document.]");
  }
  SUBCASE("an encrypted zip entry, and Office's password-protected presentation") {
    const ReadOutcome o = read_written(dir, "h.pptx",
                                   zip_bytes({{"ppt/presentation.xml", "<p:presentation/>", false, true}}));
    CHECK(error_text(o) == prefix + "\"ppt/presentation.xml\" is encrypted (password-protected).");
    std::string cfb = "\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1" + std::string(600, '\0');
    for (char c : std::string("EncryptionInfo")) cfb += std::string{c, '\0'};
    const ReadOutcome e = read_written(dir, "e.pptx", cfb + std::string(600, '\0'));
    REQUIRE(e.is_error);
    CHECK(first_text(e) == (dir.path() / "e.pptx").string() +
                            " is a password-protected (encrypted) presentation: its text cannot be read without the password.");
  }
}

TEST_CASE("slides hostile: ODP and EPUB packages") {
  TempDir dir;
  SUBCASE("an ODP whose manifest lists encryption data") {
    const std::string manifest =
        "<manifest:manifest xmlns:manifest=\"urn:oasis:names:tc:opendocument:xmlns:manifest:1.0\">"
        "<manifest:file-entry manifest:full-path=\"content.xml\"><manifest:encryption-data/></manifest:file-entry>"
        "</manifest:manifest>";
    const ReadOutcome o = read_written(dir, "e.odp",
                                   zip_bytes({{"mimetype", "application/vnd.oasis.opendocument.presentation", true},
                                              {"content.xml", "garbage"}, {"META-INF/manifest.xml", manifest}}));
    CHECK(error_text(o) == (dir.path() / "e.odp").string() +
                            " cannot be read as an OpenDocument presentation: it is password-protected (encrypted): its "
                            "text cannot be read without the password.");
  }
  const std::string book = (dir.path() / "b.epub").string() + " cannot be read as an EPUB book: ";
  SUBCASE("a spine href climbing out of the package") {
    const ReadOutcome o = read_written(dir, "b.epub", epub_bytes("T", "", {{"../../../etc/passwd", "", ""}}));
    CHECK(error_text(o) == book + "its spine names \"../../../etc/passwd\", which points outside the package; such a file "
                               "is refused.");
  }
  SUBCASE("a container naming a package document outside the package") {
    const ReadOutcome o = read_written(
        dir, "b.epub",
        zip_bytes({{"mimetype", "application/epub+zip", true},
                   {"META-INF/container.xml", "<container><rootfiles><rootfile full-path=\"../x.opf\"/></rootfiles></container>"}}));
    CHECK(error_text(o) == book + "META-INF/container.xml names \"../x.opf\", which points outside the package.");
  }
  SUBCASE("no container") {
    const ReadOutcome o = read_written(dir, "b.epub", zip_bytes({{"mimetype", "application/epub+zip", true}}));
    CHECK(error_text(o) == book + "its package has no \"META-INF/container.xml\" (which names the book's package document).");
  }
  SUBCASE("a spine naming a missing item, a repeated chapter and a missing file") {
    const std::string opf =
        "<package><metadata/><manifest><item id=\"a\" href=\"a.xhtml\"/><item id=\"gone\" href=\"gone.xhtml\"/></manifest>"
        "<spine><itemref idref=\"a\"/><itemref idref=\"nope\"/><itemref idref=\"a\"/><itemref idref=\"gone\"/></spine></package>";
    const ReadOutcome o = read_written(
        dir, "b.epub",
        zip_bytes({{"mimetype", "application/epub+zip", true},
                   {"META-INF/container.xml", "<container><rootfiles><rootfile full-path=\"o.opf\"/></rootfiles></container>"},
                   {"o.opf", opf}, {"a.xhtml", "<html><body><p>Alpha</p></body></html>"}}));
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o) == "EPUB book " + (dir.path() / "b.epub").string() + ": 3 chapters.\n\n"
                        "\u2500\u2500 Chapter 1 of 3 \u2500\u2500\n\nAlpha\n\n"
                        "\u2500\u2500 Chapter 2 of 3 \u2500\u2500\n\n[The spine names \"nope\", which the manifest lacks.]\n\n"
                        "\u2500\u2500 Chapter 3 of 3 \u2500\u2500\n\n[\"gone.xhtml\" is missing from the package.]\n\n"
                        "[Chapters 1-3 of 3. End of document.]");
  }
  SUBCASE("a chapter's entities are never expanded, its own DTD neither") {
    const std::string chapter =
        "<?xml version=\"1.0\"?><!DOCTYPE html [<!ENTITY lol \"lol\"><!ENTITY lol2 \"&lol;&lol;&lol;&lol;&lol;&lol;\">"
        "<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]><html><body><p>a &lol2; b &xxe; c</p></body></html>";
    const ReadOutcome o = read_written(
        dir, "b.epub",
        zip_bytes({{"mimetype", "application/epub+zip", true},
                   {"META-INF/container.xml", "<container><rootfiles><rootfile full-path=\"o.opf\"/></rootfiles></container>"},
                   {"o.opf", "<package><manifest><item id=\"a\" href=\"a.xhtml\"/></manifest><spine><itemref idref=\"a\"/>"
                             "</spine></package>"},
                   {"a.xhtml", chapter}}));
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o).find("\n\na &lol2; b &xxe; c\n\n") != std::string::npos);
    CHECK(first_text(o).find("root:") == std::string::npos);
  }
  SUBCASE("a chapter compressed like a zip bomb") {
    const ReadOutcome o = read_written(dir, "b.epub", epub_bytes("T", "", {{"c.xhtml", "<p>" + std::string(4u << 20, 'a') + "</p>", ""}}));
    CHECK(error_text(o).starts_with(book + "\"OEBPS/c.xhtml\" is compressed "));
  }
}
