// Word-processor documents through read_file and the plugin of the Document Liberation Project's
// importers: a WordPerfect 5 file built byte by byte, AbiWord documents written as XML (headings,
// lists, a table, a footnote, a link, a picture), and the refusals (garbage, truncated, empty,
// a Palm database of no e-book). The Windows build has no plugin: there its refusal is checked.
#include "fixtures.hpp"
#include "image_fixtures.hpp"
#include "pdf_fixtures.hpp"  // sets the plugin directory for the test executables
#include "reader_fixtures.hpp"

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
  const auto o = read_written(dir, "a.wpd", wordperfect5("Hello.\n"));
  REQUIRE(o.is_error);
  CHECK(text_of(o) == "Cannot read " + (dir.path() / "a.wpd").string() +
                          " as a word-processor document: the Windows build of mcp-read does not include librevenge's "
                          "importers, which read them: open it in LibreOffice and save it as DOCX or ODT, or use "
                          "mcp-read on Linux.");
}
#else
TEST_CASE("wordproc: WordPerfect") {
  TempDir dir;
  const std::string path = (dir.path() / "a.wpd").string();
  SUBCASE("paragraphs of a WordPerfect 5 document") {
    const auto o = read_written(dir, "a.wpd", wordperfect5("Hello world.\nSecond paragraph here.\n"));
    REQUIRE_FALSE(o.is_error);
    CHECK(text_of(o) == "WordPerfect document " + path + ": 2 paragraphs.\n\n"
                        "Hello world.\n\nSecond paragraph here.\n\n"
                        "[Paragraphs 1-2 of 2. End of document.]");
    CHECK(o.meta["kind"] == "wordproc");
    CHECK(o.meta["format"] == "WordPerfect document");
  }
  SUBCASE("the signature decides, whatever the name") {
    const auto o = read_written(dir, "letter.bin", wordperfect5("Dear reader.\n"));
    REQUIRE_FALSE(o.is_error);
    CHECK(o.meta["kind"] == "wordproc");
    CHECK(text_of(o).find("\n\nDear reader.\n\n") != std::string::npos);
  }
  SUBCASE("offset and limit count paragraphs") {
    ReadRequest request;
    request.file_path = "p.wpd";
    request.offset = 2;
    request.limit = 1;
    dir.write("p.wpd", wordperfect5("One.\nTwo.\nThree.\n"));
    const auto o = read_file(roots_of(dir), request, ReadLimits{}, CancelToken{});
    REQUIRE_FALSE(o.is_error);
    CHECK(text_of(o).find("\n\nTwo.\n\n") != std::string::npos);
    CHECK(text_of(o).find("Three.") == std::string::npos);
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
    const auto o = read_written(dir, "a.abw", abiword(body));
    REQUIRE_FALSE(o.is_error);
    CHECK(text_of(o) == "AbiWord document " + path + ": 7 paragraphs (1 table).\n\n"
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
    const auto o = read_written(dir, "i.abw",
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
  const auto error_of = [&dir](const std::string& name, const std::string& bytes) {
    const auto o = read_written(dir, name, bytes);
    REQUIRE(o.is_error);
    return text_of(o);
  };
  SUBCASE("a WordPerfect header over garbage, cut short, or nothing after it") {
    for (const std::string& bytes : {wordperfect5(std::string(5000, '\x8F')), wordperfect5("").substr(0, 12),
                                     wordperfect5("")}) {
      const auto o = read_written(dir, "bad.wpd", bytes);
      CHECK((o.is_error || text_of(o).find("[The document has no text.]") != std::string::npos));
    }
  }
  SUBCASE("a WordPerfect header claiming its text far past the end") {
    std::string bytes = wordperfect5("Hello.\n");
    bytes.replace(4, 4, le32(0xFFFFFFF0u));
    const auto o = read_written(dir, "far.wpd", bytes);
    CHECK((o.is_error || text_of(o).find("Hello") == std::string::npos));
  }
  SUBCASE("AbiWord XML cut in the middle keeps what came before or says why") {
    const std::string whole = abiword("<p>First.</p><p>Second.</p>");
    const auto o = read_written(dir, "cut.abw", whole.substr(0, whole.find("Second")));
    if (!o.is_error) CHECK(text_of(o).find("First.") != std::string::npos);
  }
  SUBCASE("a Palm database of no e-book format is not claimed; garbage named .sdw neither") {
    std::string palm(100, '\0');
    palm.replace(60, 8, "TEXtREAd");
    CHECK(error_of("book.pdb", palm) == "Cannot read " + (dir.path() / "book.pdb").string() +
                                           " as a word-processor document: none of the importers (libwpd, libabw, "
                                           "libetonyek, libstaroffice, libwps, libmwaw, libe-book) recognises it.");
  }
  SUBCASE("file_type=wordproc on plain text says no importer recognises it") {
    dir.write("plain.txt", "Just some text.\n");
    ReadRequest request;
    request.file_path = "plain.txt";
    request.forced_kind = FileKind{"wordproc"};
    const auto o = read_file(roots_of(dir), request, ReadLimits{}, CancelToken{});
    REQUIRE(o.is_error);
    CHECK(text_of(o).find("none of the importers") != std::string::npos);
  }
}
#endif
