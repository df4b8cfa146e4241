// Hangul word processor documents (HWP 5.0): paragraphs and tables from the BodyText sections,
// compressed or not, in their numeric order; detection by the FileHeader signature; refusals of
// password and distribution documents, of OLE2 files that are not HWP and of damaged records.
// The documents are built here (records over the small compound file writer of the .msg tests),
// and one real file Hangul wrote is read (tests/data/hwp/README.md). libolecf is not in the
// Windows build: there the refusal is checked.
#include "fixtures.hpp"
#include "hwp/hwp_body.hpp"
#include "msg_fixtures.hpp"
#include "reader_fixtures.hpp"

#include "mcpread/readers/read.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

using namespace mcpread::readers;
using namespace mcpread::test;

namespace {

#if defined(_WIN32)
constexpr bool kGsfHere = false;
#else
constexpr bool kGsfHere = true;
#endif

void put32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out += static_cast<char>((v >> (8 * i)) & 0xFF);
}

void put16(std::string& out, std::uint16_t v) {
  out += static_cast<char>(v & 0xFF);
  out += static_cast<char>(v >> 8);
}

// One record: tag, level and size in a 32-bit header (a size of 4095 or more follows it).
std::string record(unsigned tag, unsigned level, const std::string& body) {
  std::string out;
  if (body.size() < 0xFFF) {
    put32(out, tag | (level << 10) | (static_cast<std::uint32_t>(body.size()) << 20));
  } else {
    put32(out, tag | (level << 10) | (0xFFFu << 20));
    put32(out, static_cast<std::uint32_t>(body.size()));
  }
  return out + body;
}

std::string utf16(const std::u16string& text) {
  std::string out;
  for (char16_t c : text) put16(out, static_cast<std::uint16_t>(c));
  return out;
}

// A paragraph at `level`: its header, then its text (which ends with 13, the paragraph's end).
std::string paragraph(unsigned level, const std::u16string& text) {
  return record(0x42, level, std::string(22, '\0')) + record(0x43, level + 1, utf16(text + u"\r"));
}

// An inline or extended control in paragraph text: its code, then seven units of id and data.
std::u16string control(char16_t code) { return std::u16string(1, code) + u"abcdefg"; }

// A table control at `level`: its TABLE record (rows, columns), then each cell's list header
// (column, row) and paragraphs one level below.
struct CellSpec {
  std::uint16_t column, row;
  std::u16string text;
};
std::string table(unsigned level, std::uint16_t rows, std::uint16_t columns, const std::vector<CellSpec>& cells) {
  std::string out = record(0x47, level, " lbt" + std::string(40, '\0'));
  std::string shape;
  put32(shape, 0);
  put16(shape, rows);
  put16(shape, columns);
  out += record(0x4D, level + 1, shape + std::string(20, '\0'));
  for (const CellSpec& c : cells) {
    std::string list;
    put16(list, 1);
    put16(list, 0);
    put32(list, 0);
    put16(list, c.column);
    put16(list, c.row);
    out += record(0x48, level + 1, list + std::string(30, '\0')) + paragraph(level + 1, c.text);
  }
  return out;
}

// The FileHeader stream: signature, version 5.0.3.4, flags (bit 0 compressed, 1 password,
// 2 distribution).
std::string file_header(std::uint32_t flags) {
  std::string out = "HWP Document File";
  out.resize(32, '\0');
  put32(out, 0x05000304);
  put32(out, flags);
  out.resize(256, '\0');
  return out;
}

// Raw deflate of `bytes` as stored blocks: what a compressed document's sections hold.
std::string stored_deflate(const std::string& bytes) {
  std::string out;
  std::size_t at = 0;
  do {
    const std::size_t n = std::min<std::size_t>(bytes.size() - at, 65535);
    out += static_cast<char>(at + n == bytes.size() ? 1 : 0);
    put16(out, static_cast<std::uint16_t>(n));
    put16(out, static_cast<std::uint16_t>(~n & 0xFFFF));
    out += bytes.substr(at, n);
    at += n;
  } while (at < bytes.size());
  return out;
}

std::string hwp_file(const std::vector<std::pair<std::string, std::string>>& sections, std::uint32_t flags) {
  Ole2Node body{"BodyText", "", {}, true};
  for (const auto& [name, records] : sections)
    body.children.push_back(Ole2Node{name, (flags & 1) != 0 ? stored_deflate(records) : records, {}, false});
  return ole2_file({Ole2Node{"FileHeader", file_header(flags), {}, false}, body});
}

std::string report_records() {
  return paragraph(0, u"Quarterly " + control(9) + u"report" + control(3) + u"\n\uD55C\uAE00 \uBB38\uC11C") +
         table(1, 2, 2, {{0, 0, u"Name"}, {1, 0, u"Value"}, {0, 1, u"pi"}, {1, 1, u"3.14 | 22/7"}}) +
         paragraph(0, u"After the table.");
}

std::string text_of(const ReadOutcome& o) {
  REQUIRE_MESSAGE(!o.is_error, first_text(o));
  return first_text(o);
}

}  // namespace

TEST_CASE("hwp: paragraphs and tables of an HWP 5 document") {
  TempDir dir;
  const std::string path = (dir.path() / "r.hwp").string();
  if (!kGsfHere) {
    CHECK(error_text(read_written(dir, "r.hwp", hwp_file({{"Section0", report_records()}}, 0)))
              .find("needs libolecf") != std::string::npos);
    return;
  }
  const std::string expected =
      "Quarterly report\n한글 문서\n\n"
      "| Name | Value |\n| --- | --- |\n| pi | 3.14 \\| 22/7 |\n\n"
      "After the table.";
  SUBCASE("uncompressed: controls skipped, a line break kept, the table by its cells' addresses") {
    const ReadOutcome o = read_written(dir, "r.hwp", hwp_file({{"Section0", report_records()}}, 0));
    CHECK(text_of(o) == "HWP document " + path + ": 3 paragraphs (1 table).\n\n" + expected +
                            "\n\n[Paragraphs 1-3 of 3. End of document.]");
    CHECK(o.meta["format"] == "HWP 5.0.3.4");
    CHECK(o.meta["kind"] == "hwp");
  }
  SUBCASE("compressed sections in their numeric order, Section2 before Section10") {
    const ReadOutcome o = read_written(
        dir, "r.hwp", hwp_file({{"Section10", paragraph(0, u"last")}, {"Section2", report_records()}}, 1));
    CHECK(text_of(o) == "HWP document " + path + ": 4 paragraphs (1 table).\n\n" + expected +
                            "\n\nlast\n\n[Paragraphs 1-4 of 4. End of document.]");
    CHECK(o.meta["sections"] == 2);
  }
  SUBCASE("known by its FileHeader, whatever its name") {
    const ReadOutcome o = read_written(dir, "form.bin", hwp_file({{"Section0", paragraph(0, u"inside")}}, 0));
    CHECK(text_of(o).find("\n\ninside\n\n") != std::string::npos);
  }
  SUBCASE("a table inside a cell is that cell's lines; an empty table is left out") {
    const std::string inner = table(3, 1, 2, {{0, 0, u"a"}, {1, 0, u"b"}});
    std::string records = record(0x47, 1, " lbt") + record(0x48, 2, std::string(12, '\0')) +
                          record(0x42, 2, "") + inner + table(1, 1, 1, {{0, 0, u""}}) + paragraph(0, u"end");
    const ReadOutcome o = read_written(dir, "r.hwp", hwp_file({{"Section0", records}}, 0));
    CHECK(text_of(o).find(": 2 paragraphs (1 table).\n\n| a<br>b |\n| --- |\n\nend\n\n") != std::string::npos);
  }
  SUBCASE("a grid claiming 65535 x 65535 cells is the cells' text") {
    const ReadOutcome o =
        read_written(dir, "r.hwp", hwp_file({{"Section0", table(1, 65535, 65535, {{7, 9, u"far"}})}}, 0));
    CHECK(text_of(o).find(": 1 paragraph.\n\nfar\n\n") != std::string::npos);
    CHECK(o.meta["tables"] == 0);
  }
  SUBCASE("a long record's 32-bit size") {
    const std::u16string long_text(3000, u'x');
    const ReadOutcome o = read_written(dir, "r.hwp", hwp_file({{"Section0", paragraph(0, long_text)}}, 1));
    CHECK(text_of(o).find("\n\n" + std::string(3000, 'x') + "\n\n") != std::string::npos);
  }
}

TEST_CASE("hwp: refusals") {
  TempDir dir;
  if (!kGsfHere) return;
  const std::string path = (dir.path() / "r.hwp").string();
  const std::string lead = "Cannot read " + path + " as a Hangul (HWP) document: ";
  SUBCASE("password") {
    CHECK(error_text(read_written(dir, "r.hwp", hwp_file({{"Section0", report_records()}}, 2))) ==
          lead + "it is protected by a password, which this reader cannot open; save a copy without the password "
                 "in Hangul and read that.");
  }
  SUBCASE("distribution document") {
    CHECK(error_text(read_written(dir, "r.hwp", hwp_file({{"Section0", report_records()}}, 5))) ==
          lead + "it is a distribution document, whose text is encrypted (its ViewText streams), and this "
                 "reader does not decrypt it.");
  }
  SUBCASE("an OLE2 file named .hwp without the FileHeader signature") {
    const std::string other = ole2_file({Ole2Node{"FileHeader", std::string(256, 'x'), {}, false}});
    CHECK(error_text(read_written(dir, "r.hwp", other)) ==
          lead + "it has no FileHeader stream starting \"HWP Document File\", so it is not an HWP 5 document.");
  }
  SUBCASE("no sections") {
    const std::string none = ole2_file({Ole2Node{"FileHeader", file_header(0), {}, false}});
    CHECK(error_text(read_written(dir, "r.hwp", none)) == lead + "it has no BodyText sections.");
  }
  SUBCASE("a record running past its section") {
    const std::string records = record(0x43, 1, "abcdef").substr(0, 7);
    CHECK(error_text(read_written(dir, "r.hwp", hwp_file({{"Section0", records}}, 0))) ==
          lead + "Section0 is damaged: a record runs past the end of its section.");
    std::string huge;
    put32(huge, 0x43 | (0xFFFu << 20));
    put32(huge, 0xFFFFFFFF);
    CHECK(error_text(read_written(dir, "r.hwp", hwp_file({{"Section0", huge}}, 1))) ==
          lead + "Section0 is damaged: a record runs past the end of its section.");
  }
  SUBCASE("damaged after some text: the text before it, and a note") {
    const std::string records = paragraph(0, u"kept") + record(0x43, 1, "abcdef").substr(0, 7);
    const ReadOutcome o = read_written(dir, "r.hwp", hwp_file({{"Section0", records}}, 0));
    const std::string text = text_of(o);
    CHECK(text.find("\n\nkept\n\n") != std::string::npos);
    CHECK(text.ends_with("\n[The document is damaged: Section0 is damaged: a record runs past the end of its "
                         "section; the text before it is shown.]"));
  }
  SUBCASE("compressed data that is not deflate") {
    Ole2Node body{"BodyText", "", {Ole2Node{"Section0", std::string(64, '\xFF'), {}, false}}, true};
    const std::string bad = ole2_file({Ole2Node{"FileHeader", file_header(1), {}, false}, body});
    CHECK(error_text(read_written(dir, "r.hwp", bad)) ==
          lead + "Section0 cannot be read: its compressed data is damaged.");
  }
  SUBCASE("a file named .hwp that is no compound file is not read as HWP (a Hedgewars map is a zip)") {
    const ReadOutcome o = read_written(dir, "map.hwp", std::string("PK\x03\x04", 4) + std::string(60, '\0'));
    CHECK(o.meta.value("kind", "") != "hwp");
    const ReadOutcome empty = read_written(dir, "empty.hwp", "");
    CHECK(empty.meta.value("kind", "") != "hwp");
  }
}

TEST_CASE("hwp: a document Hangul wrote") {
  if (!kGsfHere) return;
  std::ifstream in(std::filesystem::path(MCPREAD_SOURCE_DIR) / "tests/data/hwp/table-simple-1.hwp", std::ios::binary);
  REQUIRE(in);
  const std::string bytes{std::istreambuf_iterator<char>(in), {}};
  TempDir dir;
  const ReadOutcome o = read_written(dir, "simple.hwp", bytes);
  const std::string text = text_of(o);
  CHECK(text.find(": 2 paragraphs (1 table).\n\n표 테스트\n\n| | 제목 셀 | | a | | b | | c | | V |\n") !=
        std::string::npos);
  CHECK(text.find("| 위 | 동해물과 백두산이 마르고 닳도록 하느님이 보우하사 우리나라 만세<br>무궁화 삼천리 화려강산 "
                  "대한사람 대한으로 길이 보전하세 |") != std::string::npos);
  CHECK(text.find("| | | | 왼쪽 | | 가운데 | | 오른쪽 | | |") != std::string::npos);
  CHECK(o.meta["format"] == "HWP 5.0.3.4");
}

TEST_CASE("hwp: the bounds on what hostile records make") {
  namespace hwp = mcpread::readers::hwp;
  std::string error;
  SUBCASE("paragraphs past kMaxBlocks are cut") {
    std::string records;
    const std::string one = record(0x42, 0, "") + record(0x43, 1, utf16(u"a"));
    for (std::size_t i = 0; i <= hwp::kMaxBlocks; ++i) records += one;
    hwp::Body body;
    CHECK(hwp::read_section(records, &body, &error));
    CHECK(body.cut);
    CHECK(body.doc.blocks.size() == hwp::kMaxBlocks);
  }
  SUBCASE("tables past the document's grid budget become their cells' lines") {
    std::string records;
    for (int i = 0; i < 11; ++i) records += table(1, 316, 316, {{0, 0, u"cell" + std::u16string(1, static_cast<char16_t>(u'a' + i))}});
    hwp::Body body;
    CHECK(hwp::read_section(records, &body, &error));
    CHECK(body.doc.tables == 10);
    REQUIRE(body.doc.blocks.size() == 11);
    CHECK(body.doc.blocks.back().type == mcpread::readers::office::DocBlock::Type::paragraph);
    CHECK(body.doc.blocks.back().text == "cellk");
    CHECK(body.grid_slots == 10 * 316 * 316);
  }
  SUBCASE("tables nested past kMaxDepth keep their text") {
    std::string records;
    for (unsigned level = 1; level < 200; level += 2)
      records += record(0x47, level, " lbt") + record(0x48, level + 1, std::string(12, '\0'));
    records += record(0x42, 200, "") + record(0x43, 201, utf16(u"deep"));
    hwp::Body body;
    CHECK(hwp::read_section(records, &body, &error));
    REQUIRE(body.doc.blocks.size() == 1);
    CHECK(body.doc.blocks[0].rows == std::vector<std::vector<std::string>>{{"deep"}});
  }
}
