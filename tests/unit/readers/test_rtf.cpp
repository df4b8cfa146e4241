// RTF documents through read_file: paragraphs, headings, lists, tables, footnotes, links and
// pictures as the office documents give them, text in the fonts' code pages and \uN, what RTF
// hides (font tables, headers, metadata) left out, and classification by the "{\rtf" header.
#include "fixtures.hpp"
#include "image_fixtures.hpp"
#include "reader_fixtures.hpp"
#include "tool_wording.hpp"

#include "mcpread/readers/read.hpp"
#include "mcpread/readers/utf8.hpp"

#include <doctest/doctest.h>

#include <string>
#include <variant>

using namespace mcpread::readers;
using namespace mcpread::test;

namespace {

// A document as Word writes one: the font and colour tables, a stylesheet, metadata, then `body`.
std::string word_rtf(const std::string& body) {
  return "{\\rtf1\\ansi\\ansicpg1252\\deff0\\deflang1033"
         "{\\fonttbl{\\f0\\froman\\fcharset0 Times New Roman;}{\\f1\\fswiss\\fcharset204 Arial Cyr;}"
         "{\\f2\\fnil\\fcharset128 MS Mincho;}{\\f3\\fnil\\fcharset2 Symbol;}}"
         "{\\colortbl;\\red0\\green0\\blue0;\\red255\\green0\\blue0;}"
         "{\\stylesheet{\\ql \\li0\\ri0 Normal;}{\\s1\\ql \\outlinelevel0 heading 1;}"
         "{\\s2\\ql heading 2;}{\\*\\cs10 \\additive Default Paragraph Font;}}"
         "{\\info{\\title Secret title}{\\author Someone}}"
         "{\\header \\pard\\plain Running header\\par}"
         "\\viewkind4\\uc1 " + body + "}";
}

}  // namespace

TEST_CASE("rtf: structure as Markdown-like text") {
  TempDir dir;
  const std::string path = (dir.path() / "a.rtf").string();
  SUBCASE("paragraphs and headings, by style and by outline level; tables and metadata left out") {
    const auto o = read_worded(dir, "a.rtf",
                            word_rtf("\\pard\\s1 Report\\par\\pard Intro text \\b bold\\b0  and\\tab tab.\\par"
                                     "\\pard\\s2 Details\\par\\pard\\outlinelevel2 Outline\\par\\pard\\par "
                                     "Line one\\line line two\\par"));
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o) == "RTF document " + path + ": 5 paragraphs.\n\n# Report\n\nIntro text bold and tab.\n\n"
                        "## Details\n\n### Outline\n\nLine one\nline two\n\n[Paragraphs 1-5 of 5. End of document.]");
    CHECK(o.meta["kind"] == "rtf");
    CHECK(o.meta["mime"] == "application/rtf");
    CHECK(o.meta["paragraphs"] == 5);
  }
  SUBCASE("lists: the markers Word writes in \\listtext give bullets and numbers") {
    const auto o = read_worded(dir, "a.rtf",
                            word_rtf("{\\listtext\\f3 \\'b7\\tab}\\pard\\ls1\\ilvl0 apple\\par"
                                     "{\\listtext 1.\\tab}\\pard\\ls2\\ilvl1 first\\par"
                                     "{\\listtext 2.\\tab}\\pard\\ls2\\ilvl1 second\\par\\pard After.\\par"));
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o).find(": 4 paragraphs.\n\n- apple\n  1. first\n  2. second\n\nAfter.\n\n") != std::string::npos);
  }
  SUBCASE("tables: rows of cells, a paragraph break inside a cell, bars escaped") {
    const std::string row = "\\trowd\\cellx1000\\cellx2000";
    const auto o = read_worded(dir, "t.rtf",
                            word_rtf("\\pard Before.\\par" + row + "\\pard\\intbl Name\\cell Value\\cell\\row" + row +
                                     "\\pard\\intbl a|b\\cell 1\\par 2\\cell\\row\\pard After.\\par"));
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o) == "RTF document " + (dir.path() / "t.rtf").string() +
                            ": 3 paragraphs (1 table).\n\nBefore.\n\n| Name | Value |\n| --- | --- |\n| a\\|b | 1<br>2 |\n\n"
                            "After.\n\n[Paragraphs 1-3 of 3. End of document.]");
  }
  SUBCASE("a table ended by \\intbl0 rather than \\pard, as cxref writes them") {
    const auto o = read_worded(dir, "c.rtf",
                            word_rtf("\\trowd\\cellx1440\\cellx9000\\intbl Included in:\\cell a.c\\cell\\row\\cell b.c\\cell\\row"
                                     "\\intbl0 {\\s2 Definitions\\par}To stop.\\par"));
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o).find(": 3 paragraphs (1 table).\n\n| Included in: | a.c |\n| --- | --- |\n| | b.c |\n\n"
                          "## Definitions\n\nTo stop.\n\n") != std::string::npos);
  }
  SUBCASE("footnotes and hyperlinks") {
    const auto o = read_worded(
        dir, "n.rtf",
        word_rtf("\\pard See {\\field{\\*\\fldinst{HYPERLINK \"https://example.org/a\" \\\\o \"tip\"}}"
                 "{\\fldrslt{\\ul the site}}} and a note{\\super\\chftn}{\\footnote\\pard\\plain{\\super\\chftn} "
                 "Noted {\\field{\\*\\fldinst HYPERLINK \"https://n.example\"}{\\fldrslt here}}.}.\\par\\pard {\\field{\\*\\fldinst PAGE}{\\fldrslt 3}} pages.\\par"));
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o) == "RTF document " + (dir.path() / "n.rtf").string() +
                            ": 2 paragraphs (1 note).\n\nSee [the site](https://example.org/a) and a note[^1].\n\n3 pages."
                            "\n\n[^1]: Noted here.\n\n[Paragraphs 1-2 of 2. End of document.]");
  }
  SUBCASE("paged by paragraphs, as the office documents are") {
    std::string body;
    for (int i = 1; i <= 5; ++i) body += "\\pard Paragraph " + std::to_string(i) + ".\\par";
    const auto o = read_worded(dir, "p.rtf", word_rtf(body), 2, 2);
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o).ends_with("Paragraph 2.\n\nParagraph 3.\n\n[Paragraphs 2-3 of 5. To read more, call read again with "
                               "offset=4.]"));
    CHECK(o.meta["next_offset"] == 4);
  }
  SUBCASE("file_type=text gives the RTF source") {
    const auto o = read_worded(dir, "s.rtf", word_rtf("\\pard Hello.\\par"), {}, {}, FileKind::text);
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o).starts_with("     1\t{\\rtf1\\ansi"));
  }
}

TEST_CASE("rtf: text in every code page it names, and in \\uN") {
  TempDir dir;
  SUBCASE("the document's code page, a font's charset, \\uN with its fallback skipped") {
    const auto o = read_worded(dir, "c.rtf",
                            word_rtf("\\pard Caf\\'e9 \\ldblquote q\\rdblquote  \\emdash  {\\f1 \\'cf\\'f0\\'e8\\'e2\\'e5\\'f2} "
                                     "{\\f2 \\'93\\'fa\\'96\\'7b} \\u26085?\\u26412? {\\uc2\\u8364\\'80\\'80} "
                                     "\\u-10179?\\u-8704? a\\~b\\par"));
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o).find("\n\nCafé “q” — Привет 日本 日本 € 😀 a\u00A0b\n\n") != std::string::npos);
  }
  SUBCASE("\\mac and \\ansicpg1251 for the whole document") {
    CHECK(first_text(read_worded(dir, "m.rtf", "{\\rtf1\\mac \\pard \\'8e t\\'8e\\par}")).find("\n\né té\n\n") != std::string::npos);
    CHECK(first_text(read_worded(dir, "r.rtf", "{\\rtf1\\ansi\\ansicpg1251 \\pard \\'c4\\'e0\\par}")).find("\n\nДа\n\n") !=
          std::string::npos);
  }
  SUBCASE("escaped braces and backslashes, a control word's delimiting space, \\binN data") {
    const auto o = read_worded(dir, "e.rtf", "{\\rtf1 \\pard a\\{b\\}c\\\\d {\\*\\unknown skipped}e\\bin3 {}}f\\par}");
    CHECK(first_text(o).find("\n\na{b}c\\d ef\n\n") != std::string::npos);
  }
}

TEST_CASE("rtf: pictures") {
  TempDir dir;
  const std::string png = encode_picture({40, 30}, ".png");
  std::string hex;
  for (const unsigned char c : png) {
    static constexpr char digits[] = "0123456789abcdef";
    hex += digits[c >> 4];
    hex += digits[c & 15];
    if (hex.size() % 128 == 0) hex += "\r\n";
  }
  const std::string body = "\\pard Figure:{\\*\\shppict{\\pict\\pngblip\\picw40\\pich30 " + hex +
                           "}}{\\nonshppict{\\pict\\wmetafile8 0102}}\\par\\pard {\\pict\\emfblip 0102}\\par";
  SUBCASE("a PNG goes to the model after its paragraph; a WMF copy is not read twice; an EMF is named") {
    const auto o = read_worded(dir, "i.rtf", word_rtf(body));
    REQUIRE_FALSE(o.is_error);
    REQUIRE(o.blocks.size() == 3);
    CHECK(first_text(o) == "RTF document " + (dir.path() / "i.rtf").string() + ": 2 paragraphs (1 image).\n\nFigure: [Image 1]");
    REQUIRE(std::holds_alternative<ImageBlock>(o.blocks[1]));
    CHECK(std::get<ImageBlock>(o.blocks[1]).mime_type == "image/png");
    CHECK(std::get<TextBlock>(o.blocks[2]).text == "[an EMF picture, not shown]\n\n[Paragraphs 1-2 of 2. End of document.]");
    CHECK(o.meta["pictures_not_shown"] == 1);
  }
}

TEST_CASE("rtf: hostile and broken input") {
  TempDir dir;
  SUBCASE("groups nested past the limit are refused, with the reason") {
    const auto o = read_worded(dir, "deep.rtf", "{\\rtf1 " + std::string(5000, '{') + "x" + std::string(5000, '}') + "}");
    CHECK(o.is_error);
    CHECK(first_text(o) == "Cannot read " + (dir.path() / "deep.rtf").string() +
                            " as an RTF document: its groups are nested more than 1000 deep.");
  }
  SUBCASE("a document cut short keeps what it has; stray text after the end is not read") {
    CHECK(first_text(read_worded(dir, "cut.rtf", "{\\rtf1 \\pard One.\\par Two {\\b half")).find("\n\nOne.\n\nTwo half\n\n") !=
          std::string::npos);
    CHECK(first_text(read_worded(dir, "after.rtf", "{\\rtf1 \\pard One.\\par}garbage")).find("garbage") == std::string::npos);
  }
  SUBCASE("malformed escapes are text, a huge parameter is clamped, a lone surrogate is U+FFFD") {
    const auto o = read_worded(dir, "bad.rtf", "{\\rtf1 \\pard x\\'zz \\u99999999999? \\u-10179? y\\par}");
    REQUIRE_FALSE(o.is_error);
    CHECK(utf8::is_valid(first_text(o)));
    CHECK(first_text(o).find("x\\'zz") != std::string::npos);
    CHECK(first_text(o).find("\uFFFD y") != std::string::npos);
  }
  SUBCASE("an empty document says so") {
    CHECK(first_text(read_worded(dir, "empty.rtf", "{\\rtf1\\ansi{\\fonttbl{\\f0 Arial;}}}")).ends_with("[The document has no text.]"));
  }
}
