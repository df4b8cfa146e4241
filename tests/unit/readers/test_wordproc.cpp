// Word-processor documents through read_file and the plugin of the Document Liberation Project's
// importers: a WordPerfect 5 file built byte by byte, AbiWord documents written as XML (headings,
// lists, a table, a footnote, a link, a picture), and the refusals (garbage, truncated, empty,
// a Palm database of no e-book). The Windows build has no plugin: there its refusal is checked.
#include "fixtures.hpp"
#include "image_fixtures.hpp"
#include "pdf_fixtures.hpp"  // sets the plugin directory for the test executables
#include "reader_fixtures.hpp"
#include "tool_wording.hpp"

#include "mcpread/readers/base64.hpp"
#include "mcpread/readers/read.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <variant>

using namespace mcpread::readers;
using namespace mcpread::test;

namespace {

std::string le32(std::uint32_t v) {
  return {static_cast<char>(v & 0xff), static_cast<char>((v >> 8) & 0xff), static_cast<char>((v >> 16) & 0xff),
          static_cast<char>(v >> 24)};
}

// A WordPerfect 5.x document: the 16-byte "WPC" header (text right after it, product 1, file
// type 10, version 0.0, no password), then text whose paragraphs end with hard returns (0x0A).
std::string wordperfect5(std::string_view text) {
  return std::string("\xFFWPC", 4) + le32(16) + std::string("\x01\x0A\x00\x00", 4) + std::string(8, '\0') +
         std::string(text);
}

std::string abiword(std::string_view body, std::string_view extra = {}) {
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
         "<abiword template=\"false\" xmlns=\"http://www.abisource.com/awml.dtd\" "
         "xmlns:xlink=\"http://www.w3.org/1999/xlink\" version=\"2.9.2\" fileformat=\"1.1\">\n"
         "<styles><s type=\"P\" name=\"Normal\" props=\"font-size:12pt\"/>"
         "<s type=\"P\" name=\"Heading 1\" basedon=\"Normal\" props=\"font-size:17pt\"/>"
         "<s type=\"P\" name=\"Heading 2\" basedon=\"Normal\" props=\"font-size:14pt\"/></styles>\n"
         "<lists><l id=\"1\" parentid=\"0\" type=\"5\" start-value=\"0\" list-delim=\"%L\" list-decimal=\"NULL\"/>"
         "<l id=\"2\" parentid=\"0\" type=\"0\" start-value=\"1\" list-delim=\"%L.\" list-decimal=\".\"/></lists>\n"
         "<section>" +
         std::string(body) + "</section>\n" + std::string(extra) + "</abiword>\n";
}

std::string text_of(const ReadOutcome& o) { return first_text(o); }

}  // namespace

#if defined(_WIN32)
TEST_CASE("wordproc: the Windows build refuses word-processor documents") {
  TempDir dir;
  const auto o = read_worded(dir, "a.wpd", wordperfect5("Hello.\n"));
  CHECK(error_text(o) == "Cannot read " + (dir.path() / "a.wpd").string() +
                             " as a word-processor document: the Windows build of mcp-read does not include "
                             "librevenge's importers, which read them: open it in LibreOffice and save it as DOCX or "
                             "ODT, or use mcp-read on Linux.");
}
#else
TEST_CASE("wordproc: WordPerfect") {
  TempDir dir;
  const std::string path = (dir.path() / "a.wpd").string();
  SUBCASE("paragraphs of a WordPerfect 5 document") {
    const auto o = read_worded(dir, "a.wpd", wordperfect5("Hello world.\nSecond paragraph here.\n"));
    REQUIRE_FALSE(o.is_error);
    CHECK(text_of(o) == "WordPerfect document " + path + ": 2 paragraphs.\n\n"
                        "Hello world.\n\nSecond paragraph here.\n\n"
                        "[Paragraphs 1-2 of 2. End of document.]");
    CHECK(o.meta["kind"] == "wordproc");
    CHECK(o.meta["format"] == "WordPerfect document");
  }
  SUBCASE("the signature decides, whatever the name") {
    const auto o = read_worded(dir, "letter.bin", wordperfect5("Dear reader.\n"));
    REQUIRE_FALSE(o.is_error);
    CHECK(o.meta["kind"] == "wordproc");
    CHECK(text_of(o).find("\n\nDear reader.\n\n") != std::string::npos);
  }
  SUBCASE("offset and limit count paragraphs") {
    const auto o = read_worded(dir, "a.wpd", wordperfect5("One.\nTwo.\nThree.\n"), 2, 1);
    REQUIRE_FALSE(o.is_error);
    CHECK(text_of(o) == "WordPerfect document " + path + ": 3 paragraphs.\n\n"
                        "Two.\n\n"
                        "[Paragraphs 2-2 of 3. To read more, call read again with offset=3.]");
  }
}

TEST_CASE("wordproc: AbiWord structure as Markdown-like text") {
  TempDir dir;
  const std::string path = (dir.path() / "a.abw").string();
  const std::string body =
      "<p style=\"Heading 1\">Results</p>"
      "<p style=\"Normal\">See <a xlink:href=\"https://example.org/\">the site</a> and a note"
      "<field type=\"footnote_ref\" footnote-id=\"1\"/>"
      "<foot footnote-id=\"1\"><p><field type=\"footnote_anchor\" footnote-id=\"1\"/>The note's text.</p></foot>.</p>"
      "<p style=\"Heading 2\">Lists</p>"
      "<p level=\"1\" listid=\"1\" props=\"list-style:Bullet List\"><c></c>Apples</p>"
      "<p level=\"1\" listid=\"1\" props=\"list-style:Bullet List\"><c></c>Pears</p>"
      "<table props=\"table-column-props:1in/1in/\">"
      "<cell props=\"left-attach:0; right-attach:1; top-attach:0; bot-attach:1\"><p>Name</p></cell>"
      "<cell props=\"left-attach:1; right-attach:2; top-attach:0; bot-attach:1\"><p>Value</p></cell>"
      "<cell props=\"left-attach:0; right-attach:1; top-attach:1; bot-attach:2\"><p>pi</p></cell>"
      "<cell props=\"left-attach:1; right-attach:2; top-attach:1; bot-attach:2\"><p>3.14</p></cell>"
      "</table>"
      "<p>After the table, caf\xC3\xA9.</p>";
  SUBCASE("headings, a link, a footnote, a list, a table") {
    const auto o = read_worded(dir, "a.abw", abiword(body));
    REQUIRE_FALSE(o.is_error);
    CHECK(text_of(o) == "AbiWord document " + path + ": 7 paragraphs (1 table, 1 note).\n\n"
                        "# Results\n\n"
                        "See [the site](https://example.org/) and a note[^1].\n\n"
                        "## Lists\n\n"
                        "- Apples\n- Pears\n\n"
                        "| Name | Value |\n| --- | --- |\n| pi | 3.14 |\n\n"
                        "After the table, caf\xC3\xA9.\n\n"
                        "[^1]: The note's text.\n\n"
                        "[Paragraphs 1-7 of 7. End of document.]");
    CHECK(o.meta["format"] == "AbiWord document");
    CHECK(o.meta["tables"] == 1);
  }
  SUBCASE("a PNG goes to the model after its paragraph") {
    const std::string png = encode_picture({40, 30}, ".png");
    const auto o = read_worded(dir, "i.abw",
                                abiword("<p>Figure: <image dataid=\"img1\" props=\"width:1in; height:0.75in\"/></p>",
                                        "<data><d name=\"img1\" mime-type=\"image/png\" base64=\"yes\">" +
                                            base64_encode(png) + "</d></data>\n"));
    REQUIRE_FALSE(o.is_error);
    REQUIRE(o.blocks.size() == 3);
    REQUIRE(std::holds_alternative<ImageBlock>(o.blocks[1]));
    CHECK(std::get<ImageBlock>(o.blocks[1]).mime_type == "image/png");
    CHECK(text_of(o).find("Figure:") != std::string::npos);
  }
}

TEST_CASE("wordproc: hostile and broken input") {
  TempDir dir;
  const auto prefix = [&dir](const std::string& name) {
    return "Cannot read " + (dir.path() / name).string() + " as a word-processor document: ";
  };
  const std::string none_recognises =
      "none of the importers (libwpd, libabw, libetonyek, libstaroffice, libwps, libmwaw, libe-book) recognises it.";
  const auto error_of = [&dir](const std::string& name, const std::string& bytes) {
    return error_text(read_worded(dir, name, bytes));
  };
  SUBCASE("a WordPerfect header over garbage: libwpd finds no text in it") {
    const auto o = read_worded(dir, "bad.wpd", wordperfect5(std::string(5000, '\x8F')));
    REQUIRE_FALSE(o.is_error);
    CHECK(text_of(o) == "WordPerfect document " + (dir.path() / "bad.wpd").string() +
                            ": 0 paragraphs.\n\n[The document has no text.]");
  }
  SUBCASE("a WordPerfect header and nothing after it: libwpd gives up") {
    CHECK(error_of("bad.wpd", wordperfect5("")) ==
          prefix("bad.wpd") + "libwpd could not parse it: the document is damaged, cut short or of a version libwpd "
                              "does not read; open it in LibreOffice and save it as ODT.");
  }
  SUBCASE("a WordPerfect header cut short is no WordPerfect document") {
    const auto o = read_worded(dir, "cut.wpd", wordperfect5("").substr(0, 12));
    REQUIRE(o.is_error);
    CHECK(o.meta["kind"] == "binary");
  }
  SUBCASE("a WordPerfect header claiming its text far past the end: no text, nothing read past it") {
    std::string bytes = wordperfect5("Hello.\n");
    bytes.replace(4, 4, le32(0xFFFFFFF0u));
    const auto o = read_worded(dir, "far.wpd", bytes);
    REQUIRE_FALSE(o.is_error);
    CHECK(text_of(o) == "WordPerfect document " + (dir.path() / "far.wpd").string() +
                            ": 0 paragraphs.\n\n[The document has no text.]");
  }
  SUBCASE("an empty file named .wpd") {
    CHECK(error_of("empty.wpd", "") == prefix("empty.wpd") + "the file is empty (0 bytes).");
  }
  SUBCASE("AbiWord XML cut in the middle: libabw gives up and says so") {
    const std::string whole = abiword("<p>First.</p><p>Second.</p>");
    CHECK(error_of("cut.abw", whole.substr(0, whole.find("Second"))) ==
          prefix("cut.abw") + "libabw could not parse it: the document is damaged, cut short or of a version libabw "
                              "does not read; open it in LibreOffice and save it as ODT.");
  }
  SUBCASE("a Palm database of no e-book format is not claimed; an empty compound file named .sdw neither") {
    std::string palm(100, '\0');
    palm.replace(60, 8, "TEXtTlDc");  // a TealDoc book's type and creator, and nothing of one
    CHECK(error_of("book.pdb", palm) == prefix("book.pdb") + none_recognises);
    const std::string ole2 = std::string("\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1", 8) + std::string(600, '\0');
    CHECK(error_of("a.sdw", ole2) == prefix("a.sdw") + none_recognises);
  }
  SUBCASE("140,000 one-letter paragraphs are cut as a long text is, not sent whole") {
    std::string body;
    for (int i = 0; i < 140000; ++i) body += "<p>x</p>";
    const auto o = read_worded(dir, "many.abw", abiword(body), {}, 1);
    REQUIRE_FALSE(o.is_error);
    CHECK(o.meta.value("text_cut", false));
    CHECK(text_of(o).find("[The document's text was cut at 32 MiB: the rest is not read.]") != std::string::npos);
  }
  SUBCASE("file_type=wordproc on plain text says no importer recognises it") {
    const auto o = read_worded(dir, "plain.txt", "Just some text.\n", {}, {}, FileKind{"wordproc"});
    CHECK(error_text(o) == prefix("plain.txt") + none_recognises);
  }
}
#endif
