// Word documents through read_file: headings, lists, tables, links, notes and comments as
// Markdown-like text, images as image blocks after their paragraph, paging by paragraphs, and
// classification of the zip package.
#include "fixtures.hpp"
#include "image_fixtures.hpp"
#include "office_fixtures.hpp"
#include "reader_fixtures.hpp"
#include "tool_wording.hpp"

#include "mcpread/readers/read.hpp"
#include "mcpread/readers/registry.hpp"
#include "mcpread/readers/resources.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <optional>
#include <string>
#include <variant>

using namespace mcpread::readers;
using namespace mcpread::test;

namespace {

ReadOutcome read_doc(const TempDir& dir, const std::string& name, const std::string& bytes,
                     std::optional<std::uint64_t> offset = {}, std::optional<std::uint64_t> limit = {},
                     std::optional<FileKind> kind = {}, ReadLimits limits = {}) {
  dir.write(name, bytes);
  ReadRequest request = tool_worded(ReadRequest{});  // worded as the server words hints
  request.file_path = name;
  request.offset = offset;
  request.limit = limit;
  request.forced_kind = kind;
  return read_file(roots_of(dir), request, limits, CancelToken{});
}

std::string p(const std::string& text, const std::string& ppr = {}) {
  return "<w:p>" + (ppr.empty() ? std::string() : "<w:pPr>" + ppr + "</w:pPr>") + "<w:r><w:t xml:space=\"preserve\">" +
         text + "</w:t></w:r></w:p>";
}

const std::string kStyles =
    "<?xml version=\"1.0\"?><w:styles xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\">"
    "<w:style w:type=\"paragraph\" w:styleId=\"Heading1\"><w:name w:val=\"heading 1\"/></w:style>"
    "<w:style w:type=\"paragraph\" w:styleId=\"Heading2\"><w:name w:val=\"Heading 2\"/></w:style>"
    "<w:style w:type=\"paragraph\" w:styleId=\"Mine\"><w:name w:val=\"My heading\"/><w:basedOn w:val=\"Heading2\"/></w:style>"
    "</w:styles>";

const std::string kNumbering =
    "<?xml version=\"1.0\"?><w:numbering xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\">"
    "<w:abstractNum w:abstractNumId=\"0\"><w:lvl w:ilvl=\"0\"><w:numFmt w:val=\"bullet\"/></w:lvl>"
    "<w:lvl w:ilvl=\"1\"><w:numFmt w:val=\"decimal\"/></w:lvl></w:abstractNum>"
    "<w:abstractNum w:abstractNumId=\"1\"><w:lvl w:ilvl=\"0\"><w:numFmt w:val=\"decimal\"/></w:lvl></w:abstractNum>"
    "<w:num w:numId=\"1\"><w:abstractNumId w:val=\"0\"/></w:num>"
    "<w:num w:numId=\"2\"><w:abstractNumId w:val=\"1\"/></w:num></w:numbering>";

std::string rel(const std::string& id, const std::string& type, const std::string& target, bool external = false) {
  return "<Relationship Id=\"" + id + "\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/" +
         type + "\" Target=\"" + target + "\"" + (external ? " TargetMode=\"External\"" : "") + "/>";
}

std::string item(const std::string& text, int num, int level) {
  return p(text, "<w:numPr><w:ilvl w:val=\"" + std::to_string(level) + "\"/><w:numId w:val=\"" +
                     std::to_string(num) + "\"/></w:numPr>");
}

std::string drawing(const std::string& rid, const std::string& alt) {
  return "<w:p><w:r><w:t>Figure:</w:t></w:r><w:r><w:drawing><wp:inline><wp:docPr id=\"1\" name=\"Picture 1\" descr=\"" +
         alt + "\"/><a:graphic><a:graphicData><pic:pic><pic:blipFill><a:blip r:embed=\"" + rid +
         "\"/></pic:blipFill></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>";
}

}  // namespace

TEST_CASE("docx: structure as Markdown-like text") {
  TempDir dir;
  const std::string styles_rels = rel("rS", "styles", "styles.xml") + rel("rN", "numbering", "numbering.xml");
  const std::vector<ZipItem> parts = {{"word/styles.xml", kStyles}, {"word/numbering.xml", kNumbering}};

  SUBCASE("headings, paragraphs and lists, numbered and bulleted, nested") {
    const std::string body = p("Report", "<w:pStyle w:val=\"Heading1\"/>") + p("Intro  text\twith tab.") +
                             p("Details", "<w:pStyle w:val=\"Mine\"/>") + item("apple", 1, 0) + item("first", 1, 1) +
                             item("second", 1, 1) + item("pear", 1, 0) + item("one", 2, 0) + item("two", 2, 0) +
                             "<w:p/>" + p("Outline", "<w:outlineLvl w:val=\"2\"/>");
    const ReadOutcome o = read_doc(dir, "a.docx", docx_bytes(body, styles_rels, parts));
    REQUIRE_FALSE(o.is_error);
    REQUIRE(o.blocks.size() == 1);
    CHECK(texts_joined(o) ==
          "Word document " + (dir.path() / "a.docx").string() + ": 10 paragraphs.\n\n"
          "# Report\n\nIntro text with tab.\n\n## Details\n\n"
          "- apple\n  1. first\n  2. second\n- pear\n\n1. one\n2. two\n\n### Outline\n\n"
          "[Paragraphs 1-10 of 10. End of document.]\n<block>\n");
    CHECK(o.meta["paragraphs"] == 10);
    CHECK(o.meta["kind"] == "docx");
  }
  SUBCASE("a number typed at a line's start is escaped, told from the numbering; a heading's is not") {
    const std::string body = p("1. Scope", "<w:pStyle w:val=\"Heading1\"/>") + p("2) typed") + item("1. item", 2, 0) +
                             p("3.5 kg");
    const std::string text = texts_joined(read_doc(dir, "n.docx", docx_bytes(body, styles_rels, parts)));
    CHECK(text.find("# 1. Scope\n\n2\\) typed\n\n1. 1\\. item\n\n3.5 kg\n\n") != std::string::npos);
  }
  SUBCASE("tables: a header row, spans, escaped bars, several paragraphs in a cell") {
    const std::string body =
        "<w:tbl><w:tr><w:tc><w:p><w:r><w:t>Name</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>Value</w:t></w:r></w:p></w:tc></w:tr>"
        "<w:tr><w:tc><w:p><w:r><w:t>a|b</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>1</w:t></w:r></w:p>"
        "<w:p><w:r><w:t>2</w:t></w:r></w:p></w:tc></w:tr>"
        "<w:tr><w:tc><w:tcPr><w:gridSpan w:val=\"2\"/></w:tcPr><w:p><w:r><w:t>wide</w:t></w:r></w:p></w:tc></w:tr></w:tbl>";
    const ReadOutcome o = read_doc(dir, "t.docx", docx_bytes(body));
    REQUIRE_FALSE(o.is_error);
    CHECK(texts_joined(o).find("| Name | Value |\n| --- | --- |\n| a\\|b | 1<br>2 |\n| wide | |\n") != std::string::npos);
    CHECK(texts_joined(o).find(": 1 paragraph (1 table).") != std::string::npos);
  }
  SUBCASE("rows inside a content control are rows") {
    const std::string body =
        "<w:tbl><w:tr><w:tc><w:p><w:r><w:t>h</w:t></w:r></w:p></w:tc></w:tr><w:sdt><w:sdtContent>"
        "<w:tr><w:tc><w:p><w:r><w:t>in control</w:t></w:r></w:p></w:tc></w:tr></w:sdtContent></w:sdt></w:tbl>";
    const ReadOutcome o = read_doc(dir, "s.docx", docx_bytes(body));
    REQUIRE_FALSE(o.is_error);
    CHECK(texts_joined(o).find("| h |\n| --- |\n| in control |\n") != std::string::npos);
  }
  SUBCASE("links, footnotes, endnotes and comments") {
    const std::string ns = "xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\"";
    const std::vector<ZipItem> notes = {
        {"word/footnotes.xml", "<w:footnotes " + ns + "><w:footnote w:type=\"separator\" w:id=\"-1\"><w:p><w:r><w:t>___</w:t></w:r></w:p></w:footnote>"
                               "<w:footnote w:id=\"2\"><w:p><w:r><w:footnoteRef/></w:r><w:r><w:t xml:space=\"preserve\"> A footnote.</w:t></w:r></w:p></w:footnote></w:footnotes>"},
        {"word/endnotes.xml", "<w:endnotes " + ns + "><w:endnote w:id=\"1\"><w:p><w:r><w:t>An endnote.</w:t></w:r></w:p></w:endnote></w:endnotes>"},
        {"word/comments.xml", "<w:comments " + ns + "><w:comment w:id=\"0\" w:author=\"Ann\"><w:p><w:r><w:t>Check this</w:t></w:r></w:p></w:comment></w:comments>"}};
    const std::string rels = rel("rL", "hyperlink", "https://example.org/x", true) + rel("rF", "footnotes", "footnotes.xml") +
                             rel("rE", "endnotes", "endnotes.xml") + rel("rC", "comments", "comments.xml");
    const std::string body =
        "<w:p><w:r><w:t xml:space=\"preserve\">See </w:t></w:r><w:hyperlink r:id=\"rL\"><w:r><w:t>the site</w:t></w:r></w:hyperlink>"
        "<w:r><w:footnoteReference w:id=\"2\"/></w:r><w:r><w:t xml:space=\"preserve\"> and more</w:t></w:r>"
        "<w:r><w:endnoteReference w:id=\"1\"/></w:r><w:r><w:t>.</w:t></w:r></w:p>"
        "<w:p><w:commentRangeStart w:id=\"0\"/><w:r><w:t>Disputed</w:t></w:r><w:commentRangeEnd w:id=\"0\"/>"
        "<w:r><w:commentReference w:id=\"0\"/></w:r><w:del><w:r><w:delText>gone</w:delText></w:r></w:del>"
        "<w:ins><w:r><w:t xml:space=\"preserve\"> kept</w:t></w:r></w:ins></w:p>";
    const ReadOutcome o = read_doc(dir, "n.docx", docx_bytes(body, rels, notes));
    REQUIRE_FALSE(o.is_error);
    CHECK(texts_joined(o) == "Word document " + (dir.path() / "n.docx").string() +
                            ": 2 paragraphs (2 notes, 1 comment).\n\n"
                            "See [the site](https://example.org/x)[^1] and more[^2].\n\n"
                            "Disputed [Comment by Ann: Check this] kept\n\n"
                            "[^1]: A footnote.\n[^2]: An endnote.\n\n"
                            "[Paragraphs 1-2 of 2. End of document.]\n<block>\n");
    CHECK(o.meta["notes"] == 2);
    CHECK(o.meta["comments"] == 1);
  }
}

TEST_CASE("docx: images after their paragraph") {
  TempDir dir;
  const std::string png = encode_picture(Picture{.width = 40, .height = 30}, ".png");
  REQUIRE_FALSE(png.empty());
  const std::string rels = rel("rI", "image", "media/image1.png");
  const std::string body = p("Before.") + drawing("rI", "A chart") + p("After.");
  SUBCASE("the image block follows the text up to its paragraph") {
    const ReadOutcome o = read_doc(dir, "i.docx", docx_bytes(body, rels, {{"word/media/image1.png", png}}));
    REQUIRE_FALSE(o.is_error);
    REQUIRE(o.blocks.size() == 3);
    const auto& first = std::get<TextBlock>(o.blocks[0]).text;
    CHECK(first.ends_with("Before.\n\nFigure: [Image 1: A chart]"));
    const auto* image = std::get_if<ImageBlock>(&o.blocks[1]);
    REQUIRE(image != nullptr);
    CHECK(image->mime_type == "image/png");
    CHECK(std::get<TextBlock>(o.blocks[2]).text == "After.\n\n[Paragraphs 1-3 of 3. End of document.]");
    CHECK(o.meta["images"] == 1);
  }
  SUBCASE("file_type=text keeps the text, sends no image") {
    const ReadOutcome o = read_doc(dir, "i.docx", docx_bytes(body, rels, {{"word/media/image1.png", png}}), {}, {},
                                   FileKind::text);
    REQUIRE_FALSE(o.is_error);
    REQUIRE(o.blocks.size() == 1);
    CHECK(texts_joined(o).find("Figure: [Image 1: A chart]") != std::string::npos);
    CHECK(texts_joined(o).find("not sent") == std::string::npos);
    CHECK(o.meta["kind"] == "text");
  }
  SUBCASE("an image that is not one is named, the text goes on") {
    const ReadOutcome o = read_doc(dir, "i.docx", docx_bytes(body, rels, {{"word/media/image1.png", "not a png"}}));
    REQUIRE_FALSE(o.is_error);
    REQUIRE(o.blocks.size() == 1);
    CHECK(texts_joined(o).find("[Image word/media/image1.png not shown: ") != std::string::npos);
  }
}

TEST_CASE("docx: paging by paragraphs") {
  TempDir dir;
  std::string body;
  for (int i = 1; i <= 7; ++i) body += p("Paragraph " + std::to_string(i) + ".");
  const std::string bytes = docx_bytes(body);
  SUBCASE("offset and limit, with the closing note") {
    const ReadOutcome o = read_doc(dir, "p.docx", bytes, 3, 2);
    REQUIRE_FALSE(o.is_error);
    CHECK(texts_joined(o).ends_with("Paragraph 3.\n\nParagraph 4.\n\n[Paragraphs 3-4 of 7. To read more, call read again "
                               "with offset=5.]\n<block>\n"));
    CHECK(o.meta["next_offset"] == 5);
    CHECK(o.meta["start_paragraph"] == 3);
  }
  SUBCASE("the output cap ends a page early") {
    ReadLimits limits;
    limits.text.max_output_bytes = 1024;
    std::string long_body;
    for (int i = 1; i <= 20; ++i) long_body += p(std::string(100, static_cast<char>('a' + i)));
    const ReadOutcome o = read_doc(dir, "c.docx", docx_bytes(long_body), {}, {}, {}, limits);
    REQUIRE_FALSE(o.is_error);
    CHECK(o.meta["truncated"] == true);
    CHECK(texts_joined(o).find("To read more, call read again with offset=") != std::string::npos);
  }
  SUBCASE("an offset past the end") {
    const ReadOutcome o = read_doc(dir, "p.docx", bytes, 9);
    REQUIRE(o.is_error);
    CHECK(texts_joined(o) == "Offset 9 is past the end of " + (dir.path() / "p.docx").string() +
                            ": the document has 7 paragraphs. Use an offset from 1 to 7.\n<block>\n");
  }
}

TEST_CASE("docx: classification of zip packages") {
  const std::string docx = docx_bytes(p("x"));
  const auto bytes = [](const std::string& s) {
    return std::span(reinterpret_cast<const unsigned char*>(s.data()), s.size());
  };
  SUBCASE("a package with word/document.xml is a Word document, whatever its name") {
    CHECK(classify("a.docx", bytes(docx), docx.size()).kind == FileKind{"docx"});
    const Classification c = classify("a.bin", bytes(docx), docx.size());
    CHECK(c.kind == FileKind{"docx"});
    CHECK(c.mime == "application/vnd.openxmlformats-officedocument.wordprocessingml.document");
  }
  SUBCASE("another zip is an archive, and a zip named .docx is named as not one") {
    const std::string zip = zip_bytes({{"readme.txt", "hello"}});
    CHECK(classify("a.zip", bytes(zip), zip.size()).kind == FileKind{"archive"});
    const Classification c = classify("a.docx", bytes(zip), zip.size());
    CHECK(c.kind == FileKind::binary);
    CHECK(c.extension_kind == FileKind{"docx"});
  }
  SUBCASE("named .docx, [Content_Types].xml in the head is enough") {
    const std::string head = zip_bytes({{"[Content_Types].xml", "<Types/>"}, {"zzz", std::string(100000, 'q')}});
    CHECK(classify("a.docx", bytes(head), head.size()).kind == FileKind{"docx"});
    CHECK(classify("a.zip", bytes(head), head.size()).kind == FileKind::binary);
  }
}

TEST_CASE("docx: as a resource, the document's text") {
  TempDir dir;
  const auto path = dir.write("r.docx", docx_bytes(p("Hello") + p("World")));
  const ResourceReadResult r = read_resource(roots_of(dir), path.string(), ReadLimits{}, CancelToken{});
  REQUIRE(r.status == ResourceStatus::ok);
  REQUIRE(r.contents.size() == 1);
  CHECK_FALSE(r.contents[0].blob);
  CHECK(r.contents[0].mime == "text/plain");
  CHECK(r.contents[0].text == "Word document " + path.string() +
                                  ": 2 paragraphs.\n\nHello\n\nWorld\n\n[Paragraphs 1-2 of 2. End of document.]");
  CHECK(r.contents[0].meta["paragraphs"] == 2);
}
