// Hostile spreadsheets are refused with a sentence saying why (zip bombs, entries outside the
// package, DTDs and entities, absurd nesting, encryption, oversized shared strings), or read
// safely (references past column XFD, shared-string indexes that point nowhere).
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

// `n` random letters (text that does not compress to a zip bomb).
std::string letters(std::size_t n, std::uint32_t seed) {
  std::string s = pseudo_random(n, seed);
  for (char& c : s) c = static_cast<char>('a' + static_cast<unsigned char>(c) % 26);
  return s;
}

std::string one_sheet(const std::string& rows, const std::vector<std::string>& shared = {}) {
  return xlsx_bytes({{"S", rows}}, shared);
}

}  // namespace

TEST_CASE("sheets hostile: zip bombs and package tricks") {
  TempDir dir;
  const std::string prefix = (dir.path() / "h.xlsx").string() + " cannot be read as an Excel workbook: ";
  SUBCASE("a sheet compressed far beyond what cells compress to") {
    const ReadOutcome o = read_written(dir, "h.xlsx", one_sheet("<row r=\"1\"><c r=\"A1\" t=\"inlineStr\"><is><t>" +
                                                             std::string(8u << 20, ' ') + "</t></is></c></row>"));
    CHECK(error_text(o).starts_with(prefix + "\"xl/worksheets/sheet1.xml\" is compressed "));
    CHECK(first_text(o).ends_with(" to 1, over the ratio of 200 allowed (a zip bomb?)."));
  }
  SUBCASE("an entry named ../ is refused") {
    const ReadOutcome o = read_written(dir, "h.xlsx", zip_bytes({{"xl/workbook.xml", "<workbook/>"}, {"../evil", "x"}}));
    CHECK(error_text(o) == prefix + "its zip archive holds an entry named \"../evil\", which points outside the "
                                 "package; such a file is refused.");
  }
  SUBCASE("a workbook without sheets") {
    const ReadOutcome o = read_written(dir, "h.xlsx", xlsx_bytes({}));
    CHECK(error_text(o) == prefix + "its workbook names no sheet.");
  }
}

TEST_CASE("sheets hostile: XML") {
  TempDir dir;
  const std::string prefix = (dir.path() / "x.xlsx").string() + " cannot be read as an Excel workbook: ";
  const std::string ns = "xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\"";
  auto with_part = [&](const std::string& xml) {
    return zip_bytes({{"[Content_Types].xml", "<Types/>"},
                      {"xl/workbook.xml", "<workbook " + ns + " xmlns:r=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships\">"
                                          "<sheets><sheet name=\"S\" sheetId=\"1\" r:id=\"rId1\"/></sheets></workbook>"},
                      {"xl/_rels/workbook.xml.rels",
                       "<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\"><Relationship "
                       "Id=\"rId1\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet\" "
                       "Target=\"worksheets/sheet1.xml\"/></Relationships>"},
                      {"xl/worksheets/sheet1.xml", xml}});
  };
  SUBCASE("a DTD stops the parser: no entity is ever expanded") {
    const std::string doctype =
        "<!DOCTYPE worksheet [<!ENTITY lol \"lol\"><!ENTITY lol2 \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">"
        "<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>";
    const ReadOutcome o = read_written(dir, "x.xlsx", with_part("<?xml version=\"1.0\"?>" + doctype + "<worksheet " + ns +
                                                             "><sheetData><row r=\"1\"><c r=\"A1\" t=\"inlineStr\"><is><t>&lol2;&xxe;"
                                                             "</t></is></c></row></sheetData></worksheet>"));
    CHECK(error_text(o) == prefix + "\"xl/worksheets/sheet1.xml\" declares a DTD, which office documents never do "
                                 "(entity tricks?).");
  }
  SUBCASE("an undeclared entity is an error, not text fetched from somewhere") {
    const ReadOutcome o = read_written(dir, "x.xlsx", with_part("<worksheet " + ns + "><sheetData><row r=\"1\"><c r=\"A1\" "
                                                             "t=\"inlineStr\"><is><t>&xxe;</t></is></c></row></sheetData></worksheet>"));
    CHECK(error_text(o).starts_with(prefix + "\"xl/worksheets/sheet1.xml\" is not well-formed XML (Entity 'xxe' not defined"));
  }
  SUBCASE("absurd nesting") {
    std::string deep;
    for (int i = 0; i < 5000; ++i) deep += "<x>";
    for (int i = 0; i < 5000; ++i) deep += "</x>";
    const ReadOutcome o = read_written(dir, "x.xlsx", with_part("<worksheet " + ns + "><sheetData>" + deep + "</sheetData></worksheet>"));
    CHECK(error_text(o) == prefix + "\"xl/worksheets/sheet1.xml\" is nested more than 100 elements deep.");
  }
  SUBCASE("XML that is not well-formed") {
    const ReadOutcome o = read_written(dir, "x.xlsx", with_part("<worksheet " + ns + "><sheetData></worksheet>"));
    CHECK(error_text(o).starts_with(prefix + "\"xl/worksheets/sheet1.xml\" is not well-formed XML ("));
  }
}

TEST_CASE("sheets hostile: cells") {
  TempDir dir;
  SUBCASE("a cell at XFD1048576 beside A1: the columns between are left out, references past XFD ignored") {
    const ReadOutcome o = read_written(dir, "c.xlsx", one_sheet("<row r=\"1\"><c r=\"A1\"><v>1</v></c><c r=\"XFE1\"><v>9</v></c>"
                                                             "<c r=\"ZZZZZZZZZZ1\"><v>8</v></c></row>"
                                                             "<row r=\"1048576\"><c r=\"XFD1048576\"><v>2</v></c></row>"
                                                             "<row r=\"99999999999\"><c><v>3</v></c></row>"));
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o).find("| Row | A | B | C | XFD |\n| ---: | --- | --- | --- | --- |\n| 1 | 1 | 9 | 8 |  |\n"
                          "| 1048576 |  |  |  | 2 |\n| 1048577 | 3 |  |  |  |") != std::string::npos);
  }
  SUBCASE("a long text repeated across every column: the row is held within bounds and cut to the cap") {
    const std::string text = letters(10000, 5);
    const ReadOutcome o = read_written(dir, "w.ods", ods_bytes("<table:table table:name=\"W\"><table:table-row>"
                                                            "<table:table-cell table:number-columns-repeated=\"16384\">"
                                                            "<text:p>" + text + "</text:p></table:table-cell>"
                                                            "</table:table-row></table:table>"));
    REQUIRE_FALSE(o.is_error);
    const std::string t = first_text(o);
    CHECK(t.size() < 110 * 1024);
    CHECK(t.find(" \u2026 |\n\n[Row 1 is cut: it holds more text than one answer shows.]\n\n[Rows 1-1 of sheet 1. End of sheet.]") !=
          std::string::npos);
  }
  SUBCASE("rows numbered again or out of order are left out: the way on lies past the rows shown") {
    const ReadOutcome o = read_written(dir, "c.xlsx", one_sheet("<row r=\"2\"><c r=\"A2\"><v>1</v></c></row>"
                                                             "<row r=\"2\"><c r=\"A2\"><v>2</v></c></row>"
                                                             "<row r=\"1\"><c r=\"A1\"><v>3</v></c></row>"
                                                             "<row r=\"3\"><c r=\"A3\"><v>4</v></c></row>"));
    CHECK(first_text(o).find("| 2 | 1 |\n| 3 | 4 |\n\n[Rows 2-3 of sheet 1. End of sheet.]") != std::string::npos);
  }
  SUBCASE("a shared-string index that points nowhere") {
    const ReadOutcome o = read_written(dir, "c.xlsx", one_sheet("<row r=\"1\"><c r=\"A1\" t=\"s\"><v>0</v></c><c r=\"B1\" t=\"s\">"
                                                             "<v>99</v></c><c r=\"C1\" t=\"s\"><v>-1</v></c></row>",
                                                             {"ok"}));
    CHECK(first_text(o).find("| 1 | ok | [no shared string 99] | [no shared string -1] |") != std::string::npos);
  }
  SUBCASE("shared strings beyond --sheet-max-shared-strings-bytes") {
    ReadLimits limits;
    limits.sheet_max_shared_strings_bytes = 1 << 16;
    const ReadOutcome o = read_written(dir, "c.xlsx", one_sheet("", {letters(50000, 3), letters(50000, 4)}), limits);
    CHECK(error_text(o) == (dir.path() / "c.xlsx").string() +
                            " cannot be read as an Excel workbook: its shared-strings table (\"xl/sharedStrings.xml\") "
                            "holds more than the 64.0 KB of text read into memory for one workbook.");
  }
}

TEST_CASE("sheets hostile: encrypted workbooks are named as such") {
  TempDir dir;
  SUBCASE("Office's password-protected XLSX: an OLE2 file with an EncryptionInfo stream") {
    std::string cfb = "\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1" + std::string(600, '\0');
    for (char c : std::string("EncryptionInfo")) cfb += std::string{c, '\0'};
    cfb += std::string(600, '\0');
    const ReadOutcome o = read_written(dir, "e.xlsx", cfb);
    CHECK(error_text(o) == (dir.path() / "e.xlsx").string() +
                            " is a password-protected (encrypted) Excel workbook: its cells cannot be read without the password.");
  }
  SUBCASE("a legacy .xls named .xlsx") {
    const ReadOutcome o = read_written(dir, "l.xlsx", "\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1" + std::string(1200, '\0'));
    CHECK(error_text(o) == (dir.path() / "l.xlsx").string() +
                            " is an OLE2 compound file (a legacy Excel .xls?), not an XLSX spreadsheet; it cannot be read as one.");
  }
  SUBCASE("an ODS whose manifest lists encryption data") {
    const std::string manifest =
        "<manifest:manifest xmlns:manifest=\"urn:oasis:names:tc:opendocument:xmlns:manifest:1.0\">"
        "<manifest:file-entry manifest:full-path=\"content.xml\"><manifest:encryption-data/></manifest:file-entry>"
        "</manifest:manifest>";
    const ReadOutcome o = read_written(dir, "e.ods", ods_bytes("garbage", {}, {{"META-INF/manifest.xml", manifest}}));
    CHECK(error_text(o) == (dir.path() / "e.ods").string() +
                            " cannot be read as an OpenDocument spreadsheet: it is password-protected (encrypted): its "
                            "cells cannot be read without the password.");
  }
}
