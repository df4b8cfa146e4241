// Word 97-2003 documents through read_file: paragraphs, headings, tables, footnotes and
// hyperlinks as the office documents give them, UTF-16 and 8-bit text, and the refusals
// (encrypted, Word 2, an OLE2 file without a Word document, bytes that are no compound file).
// The documents are made by doc_fixtures.cpp. libwv is not in the Windows build: there the
// reader's refusal is checked instead.
#include "doc_fixtures.hpp"
#include "fixtures.hpp"
#include "reader_fixtures.hpp"
#include "tool_wording.hpp"

#include "mcpread/readers/read.hpp"

#include <doctest/doctest.h>

#include <string>
#include <variant>

using namespace mcpread::readers;
using namespace mcpread::test;

namespace {

WordParagraph para(std::u16string text, unsigned istd = 0) { return {std::move(text), istd}; }

WordParagraph cell(std::u16string text) {
  WordParagraph p{std::move(text) + u"\x07"};
  p.in_table = true;
  return p;
}

WordParagraph row_end() {
  WordParagraph p{u"\x07"};
  p.in_table = true;
  p.row_end = true;
  return p;
}

WordDocSpec report() {
  WordDocSpec spec;
  spec.main = {para(u"Results", 1), para(u"Plain text, caf\u00e9 and \u043c\u0438\u0440."),
               cell(u"Name"), cell(u"Value"), row_end(), cell(u"pi"), cell(u"3.14"), row_end(),
               para(u"After the table.")};
  return spec;
}

}  // namespace

#if defined(_WIN32)
TEST_CASE("doc: the Windows build refuses Word 97-2003 documents") {
  TempDir dir;
  const auto o = read_worded(dir, "a.doc", word_document(report()));
  CHECK(error_text(o) == "Cannot read " + (dir.path() / "a.doc").string() +
                          " as a Word 97-2003 document: the Windows build of mcp-read does not include libwv, "
                          "which reads them: save the document as DOCX in Word or LibreOffice and read that, "
                          "or use mcp-read on Linux.");
}
#else
TEST_CASE("doc: structure as Markdown-like text") {
  TempDir dir;
  const std::string path = (dir.path() / "a.doc").string();
  SUBCASE("a heading, paragraphs in UTF-16, a table") {
    const auto o = read_worded(dir, "a.doc", word_document(report()));
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o) == "Word document " + path + ": 4 paragraphs (1 table).\n\n"
                        "# Results\n\n"
                        "Plain text, caf\u00e9 and \u043c\u0438\u0440.\n\n"
                        "| Name | Value |\n| --- | --- |\n| pi | 3.14 |\n\n"
                        "After the table.\n\n"
                        "[Paragraphs 1-4 of 4. End of document.]");
    CHECK(o.meta["kind"] == "doc");
    CHECK(o.meta["format"] == "Word 97-2003");
    CHECK(o.meta["tables"] == 1);
    CHECK(o.meta["pictures_not_shown"] == 0);
  }
  SUBCASE("8-bit text is Windows-1252") {
    WordDocSpec spec;
    spec.compressed = true;
    spec.main = {para(u"Caf\u00e9 \u0080 \u0093quoted\u0094")};  // bytes 0xE9, 0x80, 0x93, 0x94
    const auto o = read_worded(dir, "a.doc", word_document(spec));
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o) == "Word document " + path + ": 1 paragraph.\n\n"
                        "Caf\u00e9 \u20ac \u201cquoted\u201d\n\n"
                        "[Paragraphs 1-1 of 1. End of document.]");
  }
  SUBCASE("footnotes after the text; a field shows its result, a hyperlink as a link") {
    WordDocSpec spec;
    const WordParagraph noted = para(u"See this\x02.");
    const WordParagraph linked = para(u"Go \x13 HYPERLINK \"https://example.org/\" \x14there\x15 now, page \x13PAGE\x14"
                                u"7\x15.");
    const WordParagraph note = para(u"\x02 The note.");
    spec.main = {noted, linked};
    spec.footnotes = {note};
    const auto o = read_worded(dir, "a.doc", word_document(spec));
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o) == "Word document " + path + ": 2 paragraphs (1 note).\n\n"
                        "See this[^1].\n\n"
                        "Go [there](https://example.org/) now, page 7.\n\n"
                        "[^1]: The note.\n\n"
                        "[Paragraphs 1-2 of 2. End of document.]");
  }
  SUBCASE("paged by paragraphs") {
    const auto o = read_worded(dir, "a.doc", word_document(report()), 2, 2);
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o) == "Word document " + path + ": 4 paragraphs (1 table).\n\n"
                        "Plain text, caf\u00e9 and \u043c\u0438\u0440.\n\n"
                        "| Name | Value |\n| --- | --- |\n| pi | 3.14 |\n\n"
                        "[Paragraphs 2-3 of 4. To read more, call read again with offset=4.]");
  }
}

TEST_CASE("doc: refusals") {
  TempDir dir;
  const std::string path = (dir.path() / "a.doc").string();
  const std::string prefix = "Cannot read " + path + " as a Word 97-2003 document: ";
  SUBCASE("encrypted") {
    WordDocSpec spec = report();
    spec.encrypted = true;
    const auto o = read_worded(dir, "a.doc", word_document(spec));
    CHECK(error_text(o) == prefix + "it is encrypted (password-protected); mcp-read does not decrypt Word documents: "
                                 "open it in Word or LibreOffice with its password and save a copy without one.");
  }
  SUBCASE("a Word version before 6 in the header") {
    WordDocSpec spec = report();
    spec.nfib = 45;
    const auto o = read_worded(dir, "a.doc", word_document(spec));
    CHECK(error_text(o) == prefix + "its WordDocument stream does not start with the header of a Word 6 to 2003 document "
                                 "(version 45): a damaged document, or one of a Word version libwv does not read.");
  }
  SUBCASE("an OLE2 compound file without a Word document: a workbook named .doc") {
    const auto o = read_worded(dir, "a.doc", compound_file({{u"Workbook", std::string(5000, 'x')}}));
    CHECK(error_text(o) == prefix + "it is an OLE2 compound file without a readable Word document in it (an Excel, "
                                 "PowerPoint or Outlook file named .doc, or a damaged document).");
  }
  SUBCASE("file_type=\"doc\" on a file that is no compound file (a Word for DOS or Word 2 file, text)") {
    const auto o = read_worded(dir, "a.doc", "Plain text.\n", {}, {}, FileKind{"doc"});
    CHECK(error_text(o) == prefix + "it is not an OLE2 compound file, as Word 97-2003 (and Word 6 and 95) documents "
                                 "are; Word for DOS and Word 2 files are not read.");
  }
  SUBCASE("a damaged compound file: the header alone") {
    const auto o = read_worded(dir, "a.doc", std::string("\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1", 8) + std::string(600, '\0'));
    CHECK(error_text(o) == prefix + "its OLE2 compound file structure is damaged.");
  }
  SUBCASE("hostile: the piece table pointing past the stream or too long, the file cut short") {
    std::string doc = word_document(report());
    // The 1Table stream comes first, after the header, FAT and directory sectors; its CLX
    // starts it: 0x02, its size, two CPs, then the piece's flags and file offset.
    const std::size_t piece_fc = 512 * 3 + 1 + 4 + 8 + 2;
    std::string far = doc;
    far[piece_fc + 2] = '\x7f';
    const auto o = read_worded(dir, "a.doc", far);
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o) == "Word document " + path + ": 0 paragraphs.\n\n[The document has no text.]");
    // A piece table said to be 255 bytes long: libwv reads past it and crashes, in the child
    // process that parses; the read fails, the server goes on.
    std::string crashing = doc;
    crashing[512 * 3 + 1] = '\xff';
    const auto crashed = read_worded(dir, "a.doc", crashing);
    REQUIRE(crashed.is_error);
    CHECK(first_text(crashed).starts_with(prefix + "libwv crashed parsing it ("));
    CHECK(first_text(crashed).ends_with("): the document is damaged or uses what libwv cannot read; open it in Word or "
                                     "LibreOffice and save it as DOCX."));
    CHECK(first_text(read_worded(dir, "b.doc", doc)).starts_with("Word document "));
    const auto cut = read_worded(dir, "a.doc", doc.substr(0, doc.size() / 2));
    REQUIRE(cut.is_error);
    CHECK(first_text(cut) == prefix + "its WordDocument stream does not start with the header of a Word 6 to 2003 "
                                   "document (version 0): a damaged document, or one of a Word version libwv does "
                                   "not read.");
  }
}

TEST_CASE("doc: classification by the name and the compound file's magic") {
  TempDir dir;
  SUBCASE("a compound file named .doc or .dot is a Word document; named otherwise, it is not") {
    for (const char* name : {"a.doc", "a.DOT"}) {
      const auto o = read_worded(dir, name, word_document(report()));
      CHECK_FALSE(o.is_error);
      CHECK(o.meta["kind"] == "doc");
    }
    const auto other = read_worded(dir, "a.bin", word_document(report()));
    CHECK(other.meta["kind"] != "doc");
  }
  SUBCASE("text named .doc or .dot is text (a Graphviz graph, a plain-text document)") {
    const auto graph = read_worded(dir, "g.dot", "digraph { a -> b }\n");
    CHECK_FALSE(graph.is_error);
    CHECK(graph.meta["kind"] == "text");
    const auto notes = read_worded(dir, "notes.doc", "Plain notes.\n");
    CHECK_FALSE(notes.is_error);
    CHECK(notes.meta["kind"] == "text");
  }
}
#endif
