// Spreadsheets through read_file and the plugin of the Document Liberation Project's importers:
// Lotus 1-2-3 (WK1) and Works/Lotus (WKS) workbooks built record by record, paged and picked as
// XLSX and ODS workbooks are, and the refusals (garbage, truncated, empty, a record claiming more
// than the file holds, another kind forced). The Windows build has no plugin: there its refusal
// is checked.
#include "fixtures.hpp"
#include "pdf_fixtures.hpp"  // sets the plugin directory for the test executables
#include "reader_fixtures.hpp"
#include "tool_wording.hpp"

#include "mcpread/readers/read.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <string>

using namespace mcpread::readers;
using namespace mcpread::test;

namespace {

std::string le16(std::uint16_t v) { return {static_cast<char>(v & 0xff), static_cast<char>(v >> 8)}; }

std::string record(std::uint16_t type, const std::string& data) {
  return le16(type) + le16(static_cast<std::uint16_t>(data.size())) + data;
}

// A cell record's head: format byte (0xFF: the sheet's default), column, row.
std::string at(std::uint16_t column, std::uint16_t row) { return "\xFF" + le16(column) + le16(row); }

std::string label(std::uint16_t column, std::uint16_t row, const std::string& text) {
  return record(0x0F, at(column, row) + "'" + text + std::string(1, '\0'));
}

std::string integer(std::uint16_t column, std::uint16_t row, std::int16_t v) {
  return record(0x0D, at(column, row) + le16(static_cast<std::uint16_t>(v)));
}

std::string number(std::uint16_t column, std::uint16_t row, double v) {
  std::string bytes(8, '\0');
  std::memcpy(bytes.data(), &v, 8);  // little-endian IEEE 754, as Lotus stores it
  return record(0x0E, at(column, row) + bytes);
}

// A Lotus worksheet: BOF with `version` (0x0406 a WK1, 0x0404 a WKS), the cells, EOF.
std::string lotus(const std::string& cells, std::uint16_t version = 0x0406) {
  return record(0x00, le16(version)) + record(0x06, le16(0) + le16(0) + le16(2) + le16(3)) + cells + record(0x01, "");
}

std::string prices() {
  return label(0, 0, "Item") + label(1, 0, "Count") + label(2, 0, "Price") + label(0, 1, "Apples") +
         integer(1, 1, 12) + number(2, 1, 0.5) + label(0, 2, "Pears") + integer(1, 2, -3) + number(2, 2, 1.25) +
         label(0, 3, "Total") + number(2, 3, 2.75);
}

}  // namespace

#if defined(_WIN32)
TEST_CASE("calc: the Windows build refuses spreadsheets of the importers") {
  TempDir dir;
  const auto o = read_worded(dir, "a.wk1", lotus(prices()));
  CHECK(error_text(o) == "Cannot read " + (dir.path() / "a.wk1").string() +
                             " as a spreadsheet: the Windows build of mcp-read does not include librevenge's importers, "
                             "which read it: open it in LibreOffice and save it as XLSX or ODS, or use mcp-read on "
                             "Linux.");
}
#else
TEST_CASE("calc: Lotus 1-2-3 and Works worksheets") {
  TempDir dir;
  SUBCASE("a WK1 worksheet as a Markdown table") {
    const auto o = read_worded(dir, "prices.wk1", lotus(prices()));
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o) == "Lotus 1-2-3 spreadsheet " + (dir.path() / "prices.wk1").string() +
                               ": 1 sheet: 1 \"Sheet1\".\n\n## Sheet 1: Sheet1\n\n"
                               "| Row | A | B | C |\n| ---: | --- | --- | --- |\n"
                               "| 1 | Item | Count | Price |\n| 2 | Apples | 12 | 0.5 |\n| 3 | Pears | -3 | 1.25 |\n"
                               "| 4 | Total |  | 2.75 |\n\n[Rows 1-4 of sheet 1. End of sheet.]");
    CHECK(o.meta["kind"] == "calc");
    CHECK(o.meta["format"] == "Lotus 1-2-3 spreadsheet");
    CHECK(o.meta["sheets"] == 1);
  }
  SUBCASE("the first record decides, whatever the name: a WKS named .bin") {
    const auto o = read_worded(dir, "data.bin", lotus(prices(), 0x0404));
    REQUIRE_FALSE(o.is_error);
    CHECK(o.meta["kind"] == "calc");
    CHECK(o.meta["format"] == "Microsoft Works spreadsheet");
    CHECK(first_text(o).find("| 3 | Pears | -3 | 1.25 |") != std::string::npos);
  }
  SUBCASE("offset and limit page the rows as the sheet numbers them") {
    const auto o = read_worded(dir, "prices.wk1", lotus(prices()), 2, 2);
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o) == "Lotus 1-2-3 spreadsheet " + (dir.path() / "prices.wk1").string() +
                               ": 1 sheet: 1 \"Sheet1\".\n\n## Sheet 1: Sheet1\n\n"
                               "| Row | A | B | C |\n| ---: | --- | --- | --- |\n"
                               "| 2 | Apples | 12 | 0.5 |\n| 3 | Pears | -3 | 1.25 |\n\n"
                               "[Rows 2-3 of sheet 1. To read more, call read again with pages=\"1\" and offset=4.]");
    CHECK(o.meta["next_offset"] == 4);
  }
  SUBCASE("a sheet that is not there is named in the refusal") {
    dir.write("prices.wk1", lotus(prices()));
    ReadRequest request = tool_worded(ReadRequest{});
    request.file_path = "prices.wk1";
    request.pages = "2";
    const auto o = read_file(roots_of(dir), request, ReadLimits{}, CancelToken{});
    CHECK(error_text(o) == "pages=\"2\" asks for sheets 2, but " + (dir.path() / "prices.wk1").string() +
                               " has 1 sheet. Its sheets: 1 \"Sheet1\". Give sheets by number (\"2\", \"1-3\") or by name.");
  }
}

TEST_CASE("calc: refusals") {
  TempDir dir;
  const auto prefix = [&dir](const std::string& name) {
    return "Cannot read " + (dir.path() / name).string() + " as a spreadsheet: ";
  };
  const std::string none_recognises =
      "none of the importers (libetonyek, libstaroffice, libwps, libmwaw) recognises it as a spreadsheet.";
  const auto error_of = [&dir](const std::string& name, const std::string& bytes) {
    return error_text(read_worded(dir, name, bytes));
  };
  SUBCASE("an empty file named .wk1") {
    CHECK(error_of("empty.wk1", "") == prefix("empty.wk1") + "the file is empty (0 bytes).");
  }
  SUBCASE("garbage named .wk1 is refused as what it is, before any importer") {
    const auto o = read_worded(dir, "junk.wk1", std::string(3000, '\x8F'));
    CHECK(o.meta["kind"] == "text");
    CHECK(error_text(o).starts_with((dir.path() / "junk.wk1").string() +
                                    " is named like a spreadsheet but is not one: its content is a text file"));
  }
  SUBCASE("a BOF and nothing after it is no worksheet: too short for the sniffer") {
    const auto o = read_worded(dir, "cut.wk1", record(0x00, le16(0x0406)));
    CHECK(o.meta["kind"] == "binary");
    CHECK(error_text(o).starts_with((dir.path() / "cut.wk1").string() +
                                    " is named like a spreadsheet but is not one: its content is a binary file"));
  }
  SUBCASE("a worksheet cut in the middle of a record") {
    const std::string whole = lotus(prices());
    const auto o = read_worded(dir, "half.wk1", whole.substr(0, whole.size() / 2));
    REQUIRE_FALSE(o.is_error);  // the cells before the cut, the one cut off left out
    CHECK(first_text(o).ends_with("| 1 | Item | Count | Price |\n| 2 | Apples | 12 |  |\n\n"
                                  "[Rows 1-2 of sheet 1. End of sheet.]"));
  }
  SUBCASE("a label record claiming 65,535 bytes the file does not hold") {
    const std::string bytes = record(0x00, le16(0x0406)) + le16(0x0F) + le16(0xFFFF) + at(0, 0) + "'x";
    CHECK(error_of("claims.wk1", bytes) == prefix("claims.wk1") + none_recognises);
  }
  SUBCASE("file_type=calc on plain text says no importer recognises it") {
    const auto o = read_worded(dir, "plain.txt", "Just some text.\n", {}, {}, FileKind{"calc"});
    CHECK(error_text(o) == prefix("plain.txt") + none_recognises);
  }
}
#endif
