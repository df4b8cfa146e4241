// Hostile office documents are refused with a sentence saying why: zip bombs, entries outside the
// package, entity tricks, absurd nesting, encryption, broken packages.
#include "fixtures.hpp"
#include "office_fixtures.hpp"
#include "reader_fixtures.hpp"

#include "mcpread/readers/read.hpp"

#include <doctest/doctest.h>

#include <string>
#include <variant>

using namespace mcpread::readers;
using namespace mcpread::test;

namespace {

const std::string kNs = "xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\"";

std::string document_xml(const std::string& doctype, const std::string& body) {
  return "<?xml version=\"1.0\"?>" + doctype + "<w:document " + kNs + "><w:body>" + body + "</w:body></w:document>";
}

std::string docx_with_document(const std::string& xml, bool encrypted = false) {
  return zip_bytes({{"[Content_Types].xml", "<Types/>"}, {"word/document.xml", xml, false, encrypted}});
}

}  // namespace

TEST_CASE("office hostile: zip bombs and package tricks") {
  TempDir dir;
  const std::string prefix = [&] { return (dir.path() / "h.docx").string() + " cannot be read as a Word document: "; }();
  SUBCASE("an entry compressed far beyond what text compresses to") {
    const std::string xml = document_xml("", "<w:p><w:r><w:t>" + std::string(4u << 20, ' ') + "</w:t></w:r></w:p>");
    const ReadOutcome o = read_written(dir, "h.docx", docx_with_document(xml));
    CHECK(error_text(o).starts_with(prefix + "\"word/document.xml\" is compressed "));
    CHECK(first_text(o).ends_with(" to 1, over the ratio of 200 allowed (a zip bomb?)."));
  }
  SUBCASE("more unpacked than --office-max-unpacked-bytes allows") {
    ReadLimits limits;
    limits.office_max_unpacked_bytes = 1u << 20;
    const std::string xml = document_xml("", "<w:p><w:r><w:t>" + pseudo_random(1536u << 10, 7) + "</w:t></w:r></w:p>");
    const ReadOutcome o = read_written(dir, "h.docx", docx_with_document(xml), limits);
    CHECK(error_text(o).starts_with(prefix + "\"word/document.xml\" unpacks to 1.5 MB, over the 1.0 MB limit."));
  }
  SUBCASE("an entry named ../ is refused, whatever it holds") {
    const ReadOutcome o = read_written(dir, "h.docx",
                                   zip_bytes({{"word/document.xml", document_xml("", "")}, {"../../etc/evil", "x"}}));
    CHECK(error_text(o) == prefix + "its zip archive holds an entry named \"../../etc/evil\", which points outside the "
                                 "package; such a file is refused.");
  }
  SUBCASE("an entry whose compressed bytes were damaged is refused as corrupt, in libzip's words") {
    // Inflated in one call first (package/raw_inflate.hpp); on any failure libzip reads it again
    // and says what is wrong. The damage is in the middle of the deflate stream, after the
    // local header (30 bytes and the entry's name).
    std::string xml = document_xml("", "<w:p><w:r><w:t>" + pseudo_random(64u << 10, 3) + "</w:t></w:r></w:p>");
    std::string bytes = zip_bytes({{"word/document.xml", xml}, {"[Content_Types].xml", "<Types/>"}});
    const std::size_t at = 30 + std::string("word/document.xml").size() + 2000;
    REQUIRE(at < bytes.size());
    bytes[at] = static_cast<char>(bytes[at] ^ 0x5A);
    const ReadOutcome o = read_written(dir, "h.docx", bytes);
    CHECK(error_text(o).starts_with(prefix + "\"word/document.xml\" is corrupt ("));
  }
  SUBCASE("a package that is cut short") {
    const std::string whole = docx_with_document(document_xml("", "<w:p><w:r><w:t>x</w:t></w:r></w:p>"));
    const ReadOutcome o = read_written(dir, "h.docx", whole.substr(0, whole.size() - 30));
    CHECK(error_text(o).starts_with(prefix + "it is not a readable zip archive ("));
  }
  SUBCASE("a Word document without word/document.xml") {
    const ReadOutcome o = read_written(dir, "h.docx", zip_bytes({{"[Content_Types].xml", "<Types/>"}}));
    CHECK(error_text(o) == prefix + "its package has no \"word/document.xml\" (the document's text).");
  }
}

TEST_CASE("office hostile: XML") {
  TempDir dir;
  const std::string prefix = (dir.path() / "x.docx").string() + " cannot be read as a Word document: ";
  SUBCASE("entities are never expanded: billion laughs and external entities stay text") {
    const std::string doctype =
        "<!DOCTYPE w:document [<!ENTITY lol \"lol\"><!ENTITY lol2 \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">"
        "<!ENTITY lol3 \"&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;\"><!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>";
    const ReadOutcome o = read_written(
        dir, "x.docx", docx_with_document(document_xml(doctype, "<w:p><w:r><w:t>a &lol3; b &xxe; c</w:t></w:r></w:p>")));
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o).find("\n\na &lol3; b &xxe; c\n\n") != std::string::npos);
    CHECK(first_text(o).find("root:") == std::string::npos);
  }
  SUBCASE("absurd nesting") {
    std::string deep;
    for (int i = 0; i < 5000; ++i) deep += "<w:ins>";
    for (int i = 0; i < 5000; ++i) deep += "</w:ins>";
    const ReadOutcome o = read_written(dir, "x.docx", docx_with_document(document_xml("", "<w:p>" + deep + "</w:p>")));
    CHECK(error_text(o) == prefix + "\"word/document.xml\" is nested more than 100 elements deep.");
  }
  SUBCASE("XML that is not well-formed") {
    const ReadOutcome o = read_written(dir, "x.docx", docx_with_document("<w:document " + kNs + "><w:body></w:document>"));
    CHECK(error_text(o).starts_with(prefix + "\"word/document.xml\" is not well-formed XML ("));
  }
}

TEST_CASE("office hostile: encrypted documents are named as such") {
  TempDir dir;
  SUBCASE("a zip entry encrypted with a password") {
    const ReadOutcome o = read_written(dir, "e.docx", docx_with_document(document_xml("", ""), true));
    CHECK(error_text(o) == (dir.path() / "e.docx").string() +
                            " cannot be read as a Word document: \"word/document.xml\" is encrypted (password-protected).");
  }
  SUBCASE("Office's password-protected DOCX: an OLE2 file with an EncryptionInfo stream") {
    std::string cfb = "\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1" + std::string(600, '\0');
    for (char c : std::string("EncryptionInfo")) cfb += std::string{c, '\0'};
    cfb += std::string(600, '\0');
    const ReadOutcome o = read_written(dir, "e.docx", cfb);
    CHECK(error_text(o) == (dir.path() / "e.docx").string() +
                            " is a password-protected (encrypted) Word document: its text cannot be read without the password.");
  }
  SUBCASE("an ODT whose manifest lists encryption data") {
    const std::string manifest =
        "<manifest:manifest xmlns:manifest=\"urn:oasis:names:tc:opendocument:xmlns:manifest:1.0\">"
        "<manifest:file-entry manifest:full-path=\"content.xml\"><manifest:encryption-data/></manifest:file-entry>"
        "</manifest:manifest>";
    const ReadOutcome o = read_written(dir, "e.odt",
                                   zip_bytes({{"mimetype", "application/vnd.oasis.opendocument.text", true},
                                              {"content.xml", "garbage"}, {"META-INF/manifest.xml", manifest}}));
    CHECK(error_text(o) == (dir.path() / "e.odt").string() +
                            " cannot be read as an OpenDocument text: it is password-protected (encrypted): its text "
                            "cannot be read without the password.");
  }
}
