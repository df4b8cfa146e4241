// A worksheet part held in the cache is read through an index of its rows and pugixml: every
// page must be the page the streaming path (RowSkipper and libxml2) gives for the same bytes,
// parts it cannot index safely are streamed as before, and an index is never used for a file
// that changed.
#include "fixtures.hpp"
#include "package/part_cache.hpp"
#include "office_fixtures.hpp"
#include "reader_fixtures.hpp"
#include "sheets/reader.hpp"
#include "sheets/row_index.hpp"
#include "sheets/xml_fragment.hpp"
#include "sheets/xml_stream.hpp"
#include "xml_event_recorder.hpp"
#include "tool_wording.hpp"

#include "mcpread/readers/caches.hpp"

#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <vector>

using namespace mcpread::readers;
using namespace mcpread::test;
using package::PartCache;
using sheets::RowIndex;

namespace {

const std::string kNs = "xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\"";

using Recorder = mcpread::test::XmlEventRecorder;

std::vector<std::string> libxml2_events(const std::string& rows) {
  Recorder r;
  std::string error;
  auto stream = sheets::XmlStream::create(r, "p.xml", &error);
  REQUIRE(stream != nullptr);
  REQUIRE(stream->feed("<worksheet " + kNs + " xmlns:x=\"u\"><sheetData>" + rows + "</sheetData></worksheet>", true));
  // Without the frame's own events.
  return std::vector<std::string>(r.events.begin() + 2, r.events.end() - 2);
}

std::vector<std::string> pugixml_events(const std::string& rows, std::string* error) {
  Recorder r;
  sheets::XmlFragment fragment;
  std::string bytes = rows;
  const auto result = fragment.run(bytes, "p.xml", 2, r, [] { return false; }, error);
  return result == sheets::XmlFragment::Result::read ? r.events : std::vector<std::string>{"failed"};
}

// A sheet that exercises what cells hold: shared and inline strings with runs and phonetic
// text, CDATA, entities and character references, CR LF, a space alone, rows and cells
// without r, rows out of order, prefixes, namespace declarations on cells, comments.
std::string rich_rows() {
  std::string rows =
      "<row r=\"2\"><c r=\"A2\" t=\"s\"><v>0</v></c><c r=\"B2\" t=\"inlineStr\"><is><r><t>a&amp;b</t></r><r><t> c</t></r>"
      "<rPh><t>ignored</t></rPh></is></c></row>"
      "<row><c><v>1.5</v></c><c t=\"str\"><v><![CDATA[x<y]]></v></c><c t=\"inlineStr\"><is><t xml:space=\"preserve\"> </t></is></c></row>"
      "<!-- a comment between rows --><x:row xmlns:r=\"urn:r\" r=\"5\" xmlns:x=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\"><x:c r=\"C5\" t=\"b\"><x:v>1</x:v></x:c></x:row>"
      "<row r=\"4\"><c r=\"A4\"><v>4</v></c></row>"
      "<row r=\"6\"><c r=\"A6\" t=\"inlineStr\"><is><t>line&#10;two\r\nthree &#x263A;</t></is></c><c r=\"B6\"/></row>"
      "<row r=\"7\"/><row r=\"8\"><c r=\"A8\" t=\"e\"><v>#DIV/0!</v></c></row>";
  for (int i = 9; i <= 400; ++i) {
    const std::string n = std::to_string(i);
    rows += "<row r=\"" + n + "\"><c r=\"A" + n + "\"><v>" + n + "</v></c><c r=\"B" + n + "\" t=\"s\"><v>" +
            std::to_string(i % 2) + "</v></c>" + (i % 7 == 0 ? "" : "<c r=\"D" + n + "\" s=\"1\"><v>" + n + ".25</v></c>") +
            "</row>";
  }
  return rows;
}

std::string rich_book() {
  return xlsx_bytes({{"R", rich_rows(), {}, "<mergeCells><mergeCell ref=\"A2:B2\"/><mergeCell ref=\"A399:B400\"/></mergeCells>",
                      "A2:D400"}},
                    {"shared one", "shared two"},
                    "<numFmts><numFmt numFmtId=\"164\" formatCode=\"0.0\"/></numFmts><cellXfs><xf numFmtId=\"0\"/>"
                    "<xf numFmtId=\"164\"/></cellXfs>");
}

std::string text_of(const ReadOutcome& o) {
  REQUIRE_FALSE(o.blocks.empty());
  return std::get<TextBlock>(o.blocks.front()).text;
}

}  // namespace

TEST_CASE("sheets row index: pugixml gives the events libxml2 gives for the same rows") {
  std::string error;
  const std::string rows = rich_rows().substr(0, 1200);
  const std::string cut = rows.substr(0, rows.rfind("</row>") + 6);
  CHECK(pugixml_events(cut, &error) == libxml2_events(cut));
  SUBCASE("an undeclared entity is left to libxml2, which refuses it") {
    CHECK(pugixml_events("<row><c><v>&xxe;</v></c></row>", &error) == std::vector<std::string>{"failed"});
    CHECK(error == "\"p.xml\" is not well-formed XML (an entity that is not declared)");
  }
  SUBCASE("rows not well-formed, or nested past 100") {
    CHECK(pugixml_events("<row><c></row>", &error) == std::vector<std::string>{"failed"});
    CHECK(error.starts_with("\"p.xml\" is not well-formed XML ("));
    std::string deep;
    for (int i = 0; i < 99; ++i) deep += "<x>";
    for (int i = 0; i < 99; ++i) deep += "</x>";
    CHECK(pugixml_events(deep, &error) == std::vector<std::string>{"failed"});
    CHECK(error == "\"p.xml\" is nested more than 100 elements deep");
    CHECK(pugixml_events(deep.substr(3, deep.size() - 7), &error).size() == 2 * 98);
  }
}

TEST_CASE("sheets row index: each row's bytes and number, the frame's extent and merged cells") {
  const std::string head = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><worksheet " + kNs + "><dimension ref=\"A1:B5\"/><sheetData>";
  const std::string rows = "<row r=\"2\"><c><v>1</v></c></row>\n<row><c/></row><row r=\"5\"/>";
  const std::string tail = "</sheetData><mergeCells><mergeCell ref=\"A2:B2\"/></mergeCells></worksheet>";
  const std::string xml = head + rows + tail;
  const auto index = sheets::index_rows(xml, "p.xml");
  REQUIRE(index != nullptr);
  REQUIRE(index->rows.size() == 3);
  const auto bytes = [&](const RowIndex::Entry& e) { return xml.substr(e.begin, e.end - e.begin); };
  CHECK(index->rows[0].number == (2 | RowIndex::kValue));
  CHECK(bytes(index->rows[0]) == "<row r=\"2\"><c><v>1</v></c></row>");
  CHECK(index->rows[1].number == 3);
  CHECK(bytes(index->rows[1]) == "<row><c/></row>");
  CHECK(index->rows[2].number == 5);
  CHECK(bytes(index->rows[2]) == "<row r=\"5\"/>");
  CHECK(index->extent == "A1:B5");
  CHECK(index->merges == std::vector<std::string>{"A2:B2"});
  SUBCASE("not indexed: another encoding, a DOCTYPE, a declaration in a row, a frame libxml2 refuses, a huge row") {
    const std::string latin = "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>" + xml.substr(xml.find("?>") + 2);
    CHECK(sheets::index_rows(latin, "p.xml") == nullptr);
    CHECK(sheets::index_rows("<!DOCTYPE worksheet []>" + xml.substr(xml.find("?>") + 2), "p.xml") == nullptr);
    CHECK(sheets::index_rows(head + "<row><!ENTITY x 'y'></row>" + tail, "p.xml") == nullptr);
    CHECK(sheets::index_rows(head + rows + "</sheetData></worksheet></worksheet>", "p.xml") == nullptr);
    const std::string huge = "<row><c t=\"inlineStr\"><is><t>" + std::string(sheets::kMaxIndexedRow, 'x') + "</t></is></c></row>";
    CHECK(sheets::index_rows(head + huge + tail, "p.xml") == nullptr);
    CHECK(sheets::index_rows(head + huge.substr(0, huge.size() - 200) + "</t></is></c></row>" + tail, "p.xml") != nullptr);
  }
}

namespace {

// Each page of `book` (written at `path`) at each offset and cap, read through the index and streamed.
void check_every_page(const std::string& book, const std::filesystem::path& path, std::initializer_list<std::uint64_t> offsets) {
  const OpenedFile file = open_file(path);
  for (const std::size_t cap : {std::size_t{100 * 1024}, std::size_t{3000}}) {
    for (const std::uint64_t offset : offsets) {
      CAPTURE(cap);
      CAPTURE(offset);
      sheets::SheetOptions options;
      options.offset = offset;
      options.max_output_bytes = cap;
      const std::string streamed = text_of(sheets::read_spreadsheet_bytes(book, path.string(), sheets::Format::xlsx,
                                                                          options, CancelToken{}));
      const std::string indexed = text_of(sheets::read_spreadsheet(file, sheets::Format::xlsx, options, CancelToken{}));
      CHECK(indexed == streamed);
    }
  }
}

}  // namespace

TEST_CASE("sheets row index: every page read through the index is the page a fresh read streams") {
  PartCache::instance().release();
  TempDir dir;
  const std::string book = rich_book();
  const auto path = dir.write("book.xlsx", book);
  const OpenedFile file = open_file(path);
  check_every_page(book, path, {1, 2, 3, 4, 5, 6, 7, 8, 9, 200, 398, 400, 401, 5000});
  // The index was made once and kept beside the part.
  CHECK(PartCache::instance().get_value<RowIndex>(PartCache::key_of(file), "xlsx rows xl/worksheets/sheet1.xml") != nullptr);
  auto options = mcpread::test::tool_worded(sheets::SheetOptions{});
  options.offset = 5;
  options.limit = 2;
  const std::string two = text_of(sheets::read_spreadsheet(file, sheets::Format::xlsx, options, CancelToken{}));
  CHECK(two.find("| 5 |  |  | TRUE |\n| 6 | line<br>two<br>three \u263A |  |  |\n") != std::string::npos);
  CHECK(two.find("[Rows 5-6 of sheet 1. To read more, call read again with pages=\"1\" and offset=8.]") != std::string::npos);
  PartCache::instance().release();
}

TEST_CASE("sheets row index: formulas with no stored result show the same through the index") {
  PartCache::instance().release();
  TempDir dir;
  // As openpyxl writes them (no <v>) and as others do (<v/>), a shared formula whose followers
  // need its master from an earlier row, an array formula, a formula's empty string, pipes.
  std::string rows;
  for (int i = 1; i <= 120; ++i) {
    const std::string n = std::to_string(i);
    rows += "<row r=\"" + n + "\"><c r=\"A" + n + "\"><v>" + n + "</v></c><c r=\"B" + n + "\"><f>A" + n + "*2</f>" +
            (i % 3 == 0 ? "<v/>" : "") + "</c>" +
            (i == 2 ? "<c r=\"C2\"><f t=\"shared\" ref=\"C2:C120\" si=\"0\">A2+$B$1+SUM(A$1:A2)</f></c>"
             : i > 2 ? "<c r=\"C" + n + "\"><f t=\"shared\" si=\"0\"/>" + (i % 5 == 0 ? "<v>7</v>" : "") + "</c>" : "") +
            (i == 30 ? "<c r=\"D30\"><f t=\"array\" ref=\"D30:D31\">SUM(A1:A3*B1:B3)</f></c>" : "") +
            (i == 40 ? "<c r=\"E40\" t=\"str\"><f>\"\"</f><v></v></c><c r=\"F40\"><f>\"a|b\"&amp;A1</f></c>" : "") + "</row>";
  }
  const std::string book = xlsx_bytes({{"F", rows}});
  const auto path = dir.write("formulas.xlsx", book);
  check_every_page(book, path, {1, 2, 3, 30, 31, 41, 120, 121});
  sheets::SheetOptions options;
  options.offset = 40;
  options.limit = 1;
  CHECK(text_of(sheets::read_spreadsheet(open_file(path), sheets::Format::xlsx, options, CancelToken{}))
            .find("| 40 | 40 | `=A40*2` | 7 |  |  | `=\"a\\|b\"&A1` |") !=
        std::string::npos);
  options.offset = 1;
  options.limit = 3;
  CHECK(text_of(sheets::read_spreadsheet(open_file(path), sheets::Format::xlsx, options, CancelToken{}))
            .find("| 3 | 3 | `=A3*2` | `=A3+$B$1+SUM(A$1:A3)` |") != std::string::npos);
  PartCache::instance().release();
}

TEST_CASE("sheets row index: rows pugixml refuses are read by libxml2, which says what is wrong") {
  PartCache::instance().release();
  TempDir dir;
  std::string rows;
  for (int i = 1; i <= 50; ++i) rows += "<row r=\"" + std::to_string(i) + "\"><c><v>" + std::to_string(i) + "</v></c></row>";
  const std::string book = xlsx_bytes({{"S", rows + "<row r=\"51\"><c t=\"inlineStr\"><is><t>&xxe;</t></is></c></row>"}});
  const auto path = dir.write("book.xlsx", book);
  const OpenedFile file = open_file(path);
  for (const std::uint64_t offset : {1, 51}) {
    CAPTURE(offset);
    sheets::SheetOptions options;
    options.offset = offset;
    const auto streamed = sheets::read_spreadsheet_bytes(book, path.string(), sheets::Format::xlsx, options, CancelToken{});
    const auto indexed = sheets::read_spreadsheet(file, sheets::Format::xlsx, options, CancelToken{});
    CHECK(indexed.is_error);
    CHECK(text_of(indexed).find("Entity 'xxe' not defined") != std::string::npos);
    if (offset == 51) CHECK(text_of(indexed) == text_of(streamed));  // the same bytes given to libxml2
  }
  PartCache::instance().release();
}

TEST_CASE("sheets row index: a file rewritten in place is indexed again, its old index not used") {
  PartCache::instance().release();
  TempDir dir;
  const auto rows = [](const std::string& word) {
    std::string out;
    for (int i = 1; i <= 9; ++i)
      out += "<row r=\"" + std::to_string(i) + "\"><c t=\"inlineStr\"><is><t>" + word + std::to_string(i) + "</t></is></c></row>";
    return out;
  };
  const auto path = dir.write("book.xlsx", xlsx_bytes({{"S", rows("aaaa")}}));
  sheets::SheetOptions options;
  options.offset = 4;
  CHECK(text_of(sheets::read_spreadsheet(open_file(path), sheets::Format::xlsx, options, CancelToken{})).find("| 4 | aaaa4 |") !=
        std::string::npos);
  // The same size, another modification time: another file to the cache.
  dir.write("book.xlsx", xlsx_bytes({{"S", rows("bbbb")}}));
  std::filesystem::last_write_time(path, std::filesystem::last_write_time(path) + std::chrono::seconds(10));
  const std::string again = text_of(sheets::read_spreadsheet(open_file(path), sheets::Format::xlsx, options, CancelToken{}));
  CHECK(again.find("| 4 | bbbb4 |") != std::string::npos);
  CHECK(again.find("aaaa") == std::string::npos);
  PartCache::instance().release();
}
