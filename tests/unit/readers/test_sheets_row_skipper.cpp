// The rows before a page are cut out of a worksheet's XML before libxml2 parses it: what is kept
// comes out byte for byte, the rows cut are numbered as the sheet numbers them, and the result
// does not depend on where the zip's chunks end.
#include "sheets/row_skipper.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

using mcpread::readers::sheets::RowSkipper;

namespace {

struct Run {
  std::string kept;
  std::vector<std::string> skipped;  // "3" for a row without a value, "3v" with one
  std::string error;
  bool ok = true;
};

// `xml` fed in pieces of `piece` bytes (0: whole).
Run skip(const std::string& xml, std::uint64_t first_row, std::size_t piece = 0, std::size_t stop_after = 0) {
  Run run;
  RowSkipper skipper(
      first_row, "xl/worksheets/sheet1.xml",
      [&](std::uint64_t n, bool value) {
        run.skipped.push_back(std::to_string(n) + (value ? "v" : ""));
        return stop_after == 0 || run.skipped.size() < stop_after;
      },
      [&](std::string_view bytes) {
        run.kept += bytes;
        return true;
      });
  const std::size_t step = piece == 0 ? xml.size() : piece;
  for (std::size_t at = 0; at < xml.size() && run.ok; at += step) run.ok = skipper.feed(std::string_view(xml).substr(at, step));
  if (run.ok) run.ok = skipper.finish();
  run.error = skipper.error();
  return run;
}

// The same for every piece size from 1 to 40 and whole.
Run skip_all_ways(const std::string& xml, std::uint64_t first_row) {
  const Run whole = skip(xml, first_row);
  for (std::size_t piece = 1; piece <= 40; ++piece) {
    const Run r = skip(xml, first_row, piece);
    CAPTURE(piece);
    CHECK(r.kept == whole.kept);
    CHECK(r.skipped == whole.skipped);
    CHECK(r.error == whole.error);
  }
  return whole;
}

const std::string kHead =
    "<?xml version=\"1.0\"?><worksheet xmlns=\"s\"><dimension ref=\"A1:B9\"/><!-- <row r=\"1\"> --><sheetData>";
const std::string kTail = "</sheetData><mergeCells><mergeCell ref=\"A1:B1\"/></mergeCells></worksheet>";

}  // namespace

TEST_CASE("sheets row skipper: rows before the page are cut, the rest kept byte for byte") {
  SUBCASE("numbered rows, with and without values") {
    const std::string rows = "<row r=\"1\"><c r=\"A1\"><v>1</v></c></row><row r=\"2\" spans=\"1:2\"><c r=\"A2\"/></row>"
                             "<row r=\"4\"><c r=\"A4\" t=\"inlineStr\"><is><t>x</t></is></c></row>";
    const std::string kept = "<row r=\"7\"><c r=\"A7\"><v>7</v></c></row>";
    const Run r = skip_all_ways(kHead + rows + kept + kTail, 5);
    CHECK(r.ok);
    CHECK(r.kept == kHead + kept + kTail);
    CHECK(r.skipped == std::vector<std::string>{"1v", "2", "4v"});
  }
  SUBCASE("rows without r count on from the one before; self-closing rows; prefixes; quotes") {
    const std::string rows = "<x:row r='3' a=\"x>y\"><x:c><x:v>1</x:v></x:c></x:row><x:row><x:c/></x:row><x:row r=\"6\"/>"
                             "<x:row><x:c><x:v>2</x:v></x:c></x:row>";
    const std::string kept = "<x:row><x:c><x:v>8</x:v></x:c></x:row>";
    const Run r = skip_all_ways(kHead + rows + kept + kTail, 8);
    CHECK(r.kept == kHead + kept + kTail);
    CHECK(r.skipped == std::vector<std::string>{"3v", "4", "6", "7v"});
  }
  SUBCASE("comments, CDATA and processing instructions inside a row do not end it") {
    const std::string rows = "<row r=\"1\"><!-- </row> <v> --><c><v><![CDATA[</row>]]></v></c><?pi </row>?></row>";
    const std::string kept = "<row r=\"2\"/>";
    const Run r = skip_all_ways(kHead + rows + kept + kTail, 2);
    CHECK(r.kept == kHead + kept + kTail);
    CHECK(r.skipped == std::vector<std::string>{"1v"});
  }
  SUBCASE("every row before the page: the end of the sheet data and the merged cells are kept") {
    const Run r = skip_all_ways(kHead + "<row r=\"1\"><c><v>1</v></c></row>" + kTail, 100);
    CHECK(r.kept == kHead + kTail);
    CHECK(r.skipped == std::vector<std::string>{"1v"});
  }
  SUBCASE("a row numbered past the last row of a sheet counts on from the one before") {
    const Run r = skip_all_ways(kHead + "<row r=\"2\"/><row r=\"9999999\"><c><v>1</v></c></row><row r=\"5\"/>" + kTail, 5);
    CHECK(r.kept == kHead + "<row r=\"5\"/>" + kTail);
    CHECK(r.skipped == std::vector<std::string>{"2", "3v"});
  }
  SUBCASE("a namespace declaration xmlns:r is not the row's r; one-letter tags, <v> or <f> or neither") {
    // A formula with no stored result is shown (as its formula): its row holds a value too.
    const std::string rows = "<row xmlns:r=\"u\" r=\"3\"><c r=\"A3\"><t/></c></row><row><c><v>1</v></c></row>"
                             "<row><c><f>1</f></c></row>";
    const std::string kept = "<row r=\"9\"/>";
    const Run r = skip_all_ways(kHead + rows + kept + kTail, 9);
    CHECK(r.kept == kHead + kept + kTail);
    CHECK(r.skipped == std::vector<std::string>{"3", "4v", "5v"});
  }
  SUBCASE("a stop from the sink stops the scan without an error") {
    const Run r = skip(kHead + "<row r=\"1\"><c><v>1</v></c></row><row r=\"2\"><c><v>1</v></c></row>" + kTail, 5, 0, 1);
    CHECK_FALSE(r.ok);
    CHECK(r.error.empty());
    CHECK(r.skipped == std::vector<std::string>{"1v"});
  }
}

TEST_CASE("sheets row skipper: what needs a parser is left to libxml2 or refused") {
  SUBCASE("a DOCTYPE: everything from it on is kept for libxml2 to refuse") {
    const std::string xml = "<!DOCTYPE x [<!ENTITY a \"b\">]><worksheet><sheetData><row r=\"1\"/></sheetData></worksheet>";
    const Run r = skip_all_ways(xml, 5);
    CHECK(r.ok);
    CHECK(r.kept == xml);
    CHECK(r.skipped.empty());
  }
  SUBCASE("a declaration inside a skipped row") {
    const Run r = skip_all_ways(kHead + "<row r=\"1\"><!ENTITY a \"b\"></row>" + kTail, 5);
    CHECK_FALSE(r.ok);
    CHECK(r.error == "\"xl/worksheets/sheet1.xml\" is not well-formed XML (a declaration inside row 1)");
  }
  SUBCASE("rows nested without end") {
    std::string rows = "<row r=\"1\">";
    for (int i = 0; i < 101; ++i) rows += "<row>";
    const Run r = skip_all_ways(kHead + rows, 5);
    CHECK_FALSE(r.ok);
    CHECK(r.error == "\"xl/worksheets/sheet1.xml\" is not well-formed XML (rows nested more than 100 deep in row 1)");
  }
  SUBCASE("a part ending inside a skipped row: the head is kept, libxml2 finds it unfinished") {
    const Run r = skip_all_ways(kHead + "<row r=\"1\"><c><v>1", 5);
    CHECK(r.ok);
    CHECK(r.kept == kHead);
    CHECK(r.skipped.empty());
  }
  SUBCASE("a row start tag longer than 64 KiB: kept for libxml2") {
    const std::string big = "<row r=\"1\" a=\"" + std::string(70000, 'x') + "\"/>";
    const Run r = skip(kHead + big + kTail, 5, 4096);
    CHECK(r.ok);
    CHECK(r.kept == kHead + big + kTail);
    CHECK(r.skipped.empty());
  }
}

TEST_CASE("sheets row skipper: where each row cut lies, whatever the pieces") {
  const std::string rows = "<row r=\"1\"><c><v>1</v></c></row>\n<row r=\"2\"/><x:row><x:c><x:v>3</x:v></x:c></x:row>";
  const std::string xml = kHead + rows + kTail;
  for (std::size_t piece : {std::size_t{1}, std::size_t{7}, xml.size()}) {
    CAPTURE(piece);
    std::vector<std::string> bounds;
    RowSkipper skipper(
        UINT64_MAX, "p.xml", [](std::uint64_t, bool) { return true; }, [](std::string_view) { return true; });
    skipper.on_bounds([&](std::uint64_t n, std::uint64_t begin, std::uint64_t end, bool value) {
      bounds.push_back(std::to_string(n) + (value ? "v " : " ") + xml.substr(begin, end - begin));
    });
    for (std::size_t at = 0; at < xml.size(); at += piece) REQUIRE(skipper.feed(std::string_view(xml).substr(at, piece)));
    REQUIRE(skipper.finish());
    CHECK_FALSE(skipper.passing());
    CHECK(bounds == std::vector<std::string>{"1v <row r=\"1\"><c><v>1</v></c></row>", "2 <row r=\"2\"/>",
                                             "3v <x:row><x:c><x:v>3</x:v></x:c></x:row>"});
  }
}
