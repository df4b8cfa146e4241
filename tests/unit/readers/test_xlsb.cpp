// Excel binary workbooks through read_file: BIFF12 records built here ([MS-XLSB]) in a zip package
// as Excel writes it; each sheet a Markdown table of what its cells show, as for XLSX; encrypted
// and hostile files refused in a sentence, never a crash.
#include "fixtures.hpp"
#include "office_fixtures.hpp"
#include "reader_fixtures.hpp"
#include "tool_wording.hpp"

#include "mcpread/readers/read.hpp"

#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <variant>

using namespace mcpread::readers;
using namespace mcpread::test;

namespace {

std::string u32(std::uint32_t v) {
  return {static_cast<char>(v & 0xFF), static_cast<char>(v >> 8 & 0xFF), static_cast<char>(v >> 16 & 0xFF),
          static_cast<char>(v >> 24)};
}
std::string u16(std::uint16_t v) { return {static_cast<char>(v & 0xFF), static_cast<char>(v >> 8)}; }
std::string f64(double v) {
  std::string out(8, '\0');
  std::memcpy(out.data(), &v, 8);  // little-endian, as the machines the tests run on
  return out;
}
// An XLWideString of ASCII text.
std::string wide(const std::string& s) {
  std::string out = u32(static_cast<std::uint32_t>(s.size()));
  for (char c : s) out += std::string{c, '\0'};
  return out;
}
// A record: its type and size as 7-bit variable-length integers, then the body.
std::string rec(std::uint32_t type, const std::string& body = {}) {
  std::string out;
  do {
    out += static_cast<char>((type & 0x7F) | (type > 0x7F ? 0x80 : 0));
    type >>= 7;
  } while (type != 0);
  auto size = static_cast<std::uint32_t>(body.size());
  do {
    out += static_cast<char>((size & 0x7F) | (size > 0x7F ? 0x80 : 0));
    size >>= 7;
  } while (size != 0);
  return out + body;
}
std::string cell(std::uint32_t column, std::uint32_t style = 0) { return u32(column) + u32(style); }
std::string row(std::uint32_t zero_based) { return rec(0, u32(zero_based) + std::string(13, '\0')); }

struct SheetSpec {
  std::string name;
  std::string records;  // what BrtBeginSheetData .. BrtEndSheetData hold
  std::uint32_t state = {};
  std::string after = {};  // records after the sheet data (merged cells)
};

// `beta`: each sheet's entry in the workbook as Excel 2007 Beta 2 wrote it, 4 bytes longer.
std::string xlsb_bytes(const std::vector<SheetSpec>& sheets, const std::vector<std::string>& shared = {},
                       bool date1904 = false, bool beta = false) {
  std::string book = rec(131) + rec(153, u32(date1904 ? 1 : 0) + u32(0) + wide("")) + rec(143);
  std::string rels =
      "<?xml version=\"1.0\"?><Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">"
      "<Relationship Id=\"rIdS\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
      "sharedStrings\" Target=\"sharedStrings.bin\"/>"
      "<Relationship Id=\"rIdY\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles\" "
      "Target=\"styles.bin\"/>";
  std::vector<ZipItem> items;
  for (std::size_t i = 0; i < sheets.size(); ++i) {
    const std::string id = "rId" + std::to_string(i + 1), part = "worksheets/sheet" + std::to_string(i + 1) + ".bin";
    book += rec(156, u32(sheets[i].state) + (beta ? u32(0) : std::string()) + u32(static_cast<std::uint32_t>(i + 1)) +
                         wide(id) + wide(sheets[i].name));
    rels += "<Relationship Id=\"" + id +
            "\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet\" Target=\"" +
            part + "\"/>";
    items.push_back({"xl/" + part, rec(129) + rec(145) + sheets[i].records + rec(146) + sheets[i].after + rec(130)});
  }
  book += rec(144) + rec(132);
  std::string sst = rec(159, u32(0) + u32(0));
  for (const auto& s : shared) sst += rec(19, std::string(1, '\0') + wide(s));
  sst += rec(160);
  // Cell formats: 0 General, 1 the short date (14), 2 a custom "0.00" (164), 3 percent (9).
  const std::string xf = std::string(12, '\0');
  const std::string styles = rec(615) + rec(44, u16(164) + wide("0.00")) + rec(616) + rec(626) + rec(47, u16(0xFFFF) + u16(0) + xf) +
                             rec(627) + rec(617) + rec(47, u16(0) + u16(0) + xf) + rec(47, u16(0) + u16(14) + xf) +
                             rec(47, u16(0) + u16(164) + xf) + rec(47, u16(0) + u16(9) + xf) + rec(618);
  items.insert(items.begin(), {{"[Content_Types].xml", "<Types/>"},
                               {"_rels/.rels",
                                "<?xml version=\"1.0\"?><Relationships xmlns=\"http://schemas.openxmlformats.org/package/"
                                "2006/relationships\"><Relationship Id=\"rId1\" Type=\"http://schemas.openxmlformats.org/"
                                "officeDocument/2006/relationships/officeDocument\" Target=\"xl/workbook.bin\"/>"
                                "</Relationships>"},
                               {"xl/workbook.bin", book},
                               {"xl/_rels/workbook.bin.rels", rels + "</Relationships>"},
                               {"xl/sharedStrings.bin", sst},
                               {"xl/styles.bin", styles}});
  return zip_bytes(items);
}

ReadOutcome read_book(const TempDir& dir, const std::string& bytes, const std::string& name = "book.xlsb",
                      std::string pages = {}, std::optional<std::uint64_t> offset = {},
                      std::optional<std::uint64_t> limit = {}) {
  dir.write(name, bytes);
  ReadRequest request = tool_worded(ReadRequest{});
  request.file_path = name;
  request.pages = std::move(pages);
  request.offset = offset;
  request.limit = limit;
  return read_file(roots_of(dir), request, ReadLimits{}, CancelToken{});
}

std::string text_of(const ReadOutcome& o) {
  REQUIRE_FALSE(o.blocks.empty());
  return std::get<TextBlock>(o.blocks.front()).text;
}

std::string table_of(const ReadOutcome& o) {
  const std::string t = text_of(o);
  const auto start = t.find("| Row |");
  REQUIRE(start != std::string::npos);
  const auto end = t.find("\n\n", start);
  return t.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

// Every kind of value cell, as Excel writes them.
const std::string kValues =
    row(0) + rec(7, cell(0) + u32(1)) + rec(6, cell(1) + wide("inline")) + rec(4, cell(2) + '\x01') +
    rec(3, cell(3) + '\x07') + row(1) + rec(2, cell(0) + u32(42u << 2 | 2)) + rec(2, cell(1) + u32(12345u << 2 | 3)) +
    rec(5, cell(2) + f64(0.1)) + rec(5, cell(3, 1) + f64(45000)) + row(2) + rec(9, cell(0, 2) + f64(3.14159) + u16(0)) +
    rec(8, cell(1) + wide("joined") + u16(0)) + rec(10, cell(2) + '\0' + u16(0)) + rec(11, cell(3) + '\x2A' + u16(0)) +
    rec(5, cell(4, 3) + f64(0.25)) + rec(1, cell(5));

}  // namespace

TEST_CASE("xlsb: cells as they show") {
  TempDir dir;
  SUBCASE("strings, booleans, errors, RK and real numbers, formula results, dates and formats") {
    const auto o = read_book(dir, xlsb_bytes({{"Data", kValues}}, {"shared", "Name"}));
    CHECK_FALSE(o.is_error);
    CHECK(text_of(o) == "Excel binary workbook " + (dir.path() / "book.xlsb").string() +
                            ": 1 sheet: 1 \"Data\".\n\n## Sheet 1: Data\n\n"
                            "| Row | A | B | C | D | E |\n| ---: | --- | --- | --- | --- | --- |\n"
                            "| 1 | Name | inline | TRUE | #DIV/0! |  |\n"
                            "| 2 | 42 | 123.45 | 0.1 | 2023-03-15 |  |\n"
                            "| 3 | 3.14 | joined | FALSE | #N/A | 25% |\n\n[Rows 1-3 of sheet 1. End of sheet.]");
    CHECK(o.meta["kind"] == "xlsb");
  }
  SUBCASE("a 1904 workbook counts its dates from 1904") {
    const auto o = read_book(dir, xlsb_bytes({{"S", row(0) + rec(5, cell(0, 1) + f64(0))}}, {}, true));
    CHECK(table_of(o) == "| Row | A |\n| ---: | --- |\n| 1 | 1904-01-01 |");
  }
  SUBCASE("short cells (Excel 2016 on) take the column after the last") {
    const auto o = read_book(dir, xlsb_bytes({{"S", row(4) + rec(7, cell(2) + u32(0)) + rec(12, u32(0)) +
                                                        rec(13, u32(0) + u32(7u << 2 | 2)) + rec(17, u32(0) + wide("x"))}},
                                             {"first"}));
    CHECK(table_of(o) == "| Row | C | D | E | F |\n| ---: | --- | --- | --- | --- |\n| 5 | first |  | 7 | x |");
  }
  SUBCASE("a shared-string index past the table says so") {
    const auto o = read_book(dir, xlsb_bytes({{"S", row(0) + rec(7, cell(0) + u32(9))}}, {"only"}));
    CHECK(table_of(o) == "| Row | A |\n| ---: | --- |\n| 1 | [no shared string 9] |");
  }
}

TEST_CASE("xlsb: sheets, hidden sheets, merged cells and paging as for XLSX") {
  TempDir dir;
  std::string many;
  for (std::uint32_t r = 0; r < 30; ++r) many += row(r) + rec(2, cell(0) + u32((r + 1) << 2 | 2));
  const std::string merge = rec(177, u32(1)) + rec(176, u32(0) + u32(1) + u32(0) + u32(1)) + rec(178);
  const std::string book = xlsb_bytes({{"One", row(0) + rec(6, cell(0) + wide("a")), 0, merge},
                                       {"Hidden", row(0) + rec(6, cell(0) + wide("h")), 1},
                                       {"Rows", many}});
  SUBCASE("every sheet, the hidden one named so, the merged range listed") {
    const std::string t = text_of(read_book(dir, book));
    CHECK(t.find(": 3 sheets: 1 \"One\", 2 \"Hidden\" (hidden), 3 \"Rows\".") != std::string::npos);
    CHECK(t.find("## Sheet 2: Hidden (hidden)\n\n| Row | A |\n| ---: | --- |\n| 1 | h |") != std::string::npos);
    CHECK(t.find("Merged cells (the value is in the first cell of each): A1:B2.") != std::string::npos);
  }
  SUBCASE("pages by name, offset and limit page the rows") {
    const auto o = read_book(dir, book, "book.xlsb", "Rows", 10, 3);
    CHECK(table_of(o) == "| Row | A |\n| ---: | --- |\n| 10 | 10 |\n| 11 | 11 |\n| 12 | 12 |");
    CHECK(o.meta["next_offset"] == 13);
    CHECK(text_of(o).find("[Rows 10-12 of sheet 3. To read more,") != std::string::npos);
  }
  SUBCASE("the sheet entries of Excel 2007 Beta 2, 4 bytes longer") {
    const auto o = read_book(dir, xlsb_bytes({{"Beta", row(0) + rec(6, cell(0) + wide("b"))}}, {}, false, true));
    CHECK(text_of(o).find(": 1 sheet: 1 \"Beta\".\n\n## Sheet 1: Beta\n\n| Row | A |\n| ---: | --- |\n| 1 | b |") !=
          std::string::npos);
  }
  SUBCASE("a sheet by number") {
    const auto o = read_book(dir, book, "book.xlsb", "1");
    CHECK(table_of(o) == "| Row | A |\n| ---: | --- |\n| 1 | a |");
  }
}

TEST_CASE("xlsb: detected by content, refused in a sentence") {
  TempDir dir;
  SUBCASE("a package holding xl/workbook.bin is read as one whatever its name") {
    const auto o = read_book(dir, xlsb_bytes({{"S", row(0) + rec(6, cell(0) + wide("v"))}}), "book.zip");
    CHECK(o.meta["kind"] == "xlsb");
    CHECK(table_of(o) == "| Row | A |\n| ---: | --- |\n| 1 | v |");
  }
  SUBCASE("file_type=\"xlsx\" reads an .xlsb as one (XLSB has no file_type of its own)") {
    dir.write("forced.xlsb", xlsb_bytes({{"S", row(0) + rec(6, cell(0) + wide("v"))}}));
    ReadRequest request = tool_worded(ReadRequest{});
    request.file_path = "forced.xlsb";
    request.forced_kind = FileKind{"xlsx"};
    const auto o = read_file(roots_of(dir), request, ReadLimits{}, CancelToken{});
    CHECK(text_of(o).starts_with("Excel binary workbook " + (dir.path() / "forced.xlsb").string() + ": 1 sheet"));
    CHECK(table_of(o) == "| Row | A |\n| ---: | --- |\n| 1 | v |");
  }
  SUBCASE("a password-protected workbook: an OLE2 file with an EncryptionInfo stream") {
    std::string cfb = "\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1" + std::string(600, '\0');
    for (char c : std::string("EncryptionInfo")) cfb += std::string{c, '\0'};
    cfb += std::string(600, '\0');
    const auto o = read_book(dir, cfb, "e.xlsb");
    CHECK(o.is_error);
    CHECK(text_of(o) == (dir.path() / "e.xlsb").string() +
                            " is a password-protected (encrypted) Excel binary workbook: its cells cannot be read "
                            "without the password.");
  }
  SUBCASE("a workbook naming no sheet") {
    const auto o = read_book(dir, xlsb_bytes({}));
    CHECK(o.is_error);
    CHECK(text_of(o) == (dir.path() / "book.xlsb").string() +
                            " cannot be read as an Excel binary workbook: its workbook names no sheet.");
  }
}

TEST_CASE("xlsb hostile: damaged records are refused or skipped, never read past") {
  TempDir dir;
  SUBCASE("a record claiming more bytes than its part holds") {
    const auto o = read_book(dir, xlsb_bytes({{"S", row(0) + "\x06\xFF\xFF\x03" + std::string(10, 'x')}}));
    CHECK(o.is_error);
    CHECK(text_of(o) == (dir.path() / "book.xlsb").string() +
                            " cannot be read as an Excel binary workbook: its part \"xl/worksheets/sheet1.bin\" "
                            "cannot be read: it ends inside a record.");
  }
  SUBCASE("a wanted record over the cap is refused before it is held") {
    const auto o = read_book(dir, xlsb_bytes({{"S", row(0) + "\x06\xFF\xFF\xFF\x7F"}}));
    CHECK(text_of(o) == (dir.path() / "book.xlsb").string() +
                            " cannot be read as an Excel binary workbook: its part \"xl/worksheets/sheet1.bin\" "
                            "cannot be read: a record claims 268435455 bytes, more than the 1048576 read of one record.");
  }
  SUBCASE("a header whose variable-length integers run on") {
    const auto o = read_book(dir, xlsb_bytes({{"S", row(0) + "\x86\x80\x80"}}));
    CHECK(text_of(o) == (dir.path() / "book.xlsb").string() +
                            " cannot be read as an Excel binary workbook: its part \"xl/worksheets/sheet1.bin\" "
                            "cannot be read: a record header is damaged.");
  }
  SUBCASE("a string whose count passes its record, and cells too short, show nothing") {
    const auto o = read_book(dir, xlsb_bytes({{"S", row(0) + rec(6, cell(0) + u32(1000) + "ab") + rec(5, cell(1) + "12") +
                                                        rec(2, u32(2)) + rec(6, cell(3) + wide("ok"))}}));
    CHECK(table_of(o) == "| Row | D |\n| ---: | --- |\n| 1 | ok |");
  }
  SUBCASE("columns past XFD, out of order, and rows past the last are left out") {
    const auto o = read_book(dir, xlsb_bytes({{"S", row(0) + rec(6, cell(16384) + wide("far")) + rec(6, cell(2) + wide("c")) +
                                                        rec(6, cell(1) + wide("back")) + row(1u << 20) +
                                                        rec(6, cell(0) + wide("deep"))}}));
    CHECK(table_of(o) == "| Row | C |\n| ---: | --- |\n| 1 | c |");
  }
  SUBCASE("garbage named .xlsb") {
    std::string garbage;
    for (int i = 0; i < 16; ++i) garbage += std::string("\x93\x00\xFF\x01", 4);
    const auto o = read_book(dir, garbage, "g.xlsb");
    CHECK(o.is_error);
    CHECK(text_of(o) == (dir.path() / "g.xlsb").string() +
                            " is named like an Excel binary workbook but is not one: its content is a binary file, "
                            "data (application/octet-stream), 64 bytes.");
  }
  SUBCASE("an empty file named .xlsb") {
    const auto o = read_book(dir, "", "e.xlsb");
    CHECK(o.is_error);
    CHECK(text_of(o) == (dir.path() / "e.xlsb").string() +
                            " cannot be read as an Excel binary workbook: it is not a readable zip archive (Not a zip "
                            "archive).");
  }
}
