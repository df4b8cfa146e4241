// CSV and TSV files through read_file: one Markdown table under the header row, paged by rows
// (records: a quoted line break stays in its cell), any charset, deep pages found again from the
// remembered record starts; file_type="text" keeps the source.
#include "fixtures.hpp"
#include "reader_fixtures.hpp"
#include "tool_wording.hpp"

#include "mcpread/readers/caches.hpp"
#include "mcpread/readers/read.hpp"

#include <doctest/doctest.h>

#include <optional>
#include <string>

using namespace mcpread::readers;
using namespace mcpread::test;

namespace {

ReadOutcome read_csv(const TempDir& dir, const std::string& name, std::optional<std::uint64_t> offset = {},
                     std::optional<std::uint64_t> limit = {}, const ReadLimits& limits = {},
                     std::string encoding = {}) {
  ReadRequest request = tool_worded(ReadRequest{});
  request.file_path = name;
  request.offset = offset;
  request.limit = limit;
  request.encoding = std::move(encoding);
  return read_file(roots_of(dir), request, limits, CancelToken{});
}

std::string numbered_rows(int n) {
  std::string out = "n,square\n";
  for (int i = 1; i <= n; ++i) out += std::to_string(i) + "," + std::to_string(i * i) + "\n";
  return out;
}

}  // namespace

TEST_CASE("csv: a table under its header row") {
  TempDir dir;
  SUBCASE("the answer, word for word") {
    dir.write("fruit.csv", "id,name,price\n1,Apple,0.5\n2,\"Banana, ripe\",0.25\n3,\"Two\nlines | \"\"q\"\"\",10\n");
    const ReadOutcome o = read_csv(dir, "fruit.csv");
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o) == "CSV file " + (dir.path() / "fruit.csv").string() +
                               " (comma-separated): row 1 is the header, naming 3 columns; 4 rows in all. A row "
                               "is a record: a quoted line break stays in its cell.\n\n"
                               "| Row | id | name | price |\n| ---: | --- | --- | --- |\n"
                               "| 2 | 1 | Apple | 0.5 |\n| 3 | 2 | Banana, ripe | 0.25 |\n"
                               "| 4 | 3 | Two<br>lines \\| \"q\" | 10 |\n\n[Rows 2-4 of 4. End of file.]");
    CHECK(o.meta["kind"] == "csv");
    CHECK(o.meta["mime"] == "text/csv");
    CHECK(o.meta["delimiter"] == ",");
    CHECK(o.meta["header"] == true);
    CHECK(o.meta["columns"] == 3);
    CHECK(o.meta["rows"] == 4);
    CHECK(o.meta["start_row"] == 2);
    CHECK(o.meta["end_row"] == 4);
    CHECK_FALSE(o.meta.contains("next_offset"));
  }
  SUBCASE("no header: columns lettered, row 1 is data; ragged rows widen the table") {
    dir.write("n.csv", "1,2\n3,4,5\n");
    const std::string text = first_text(read_csv(dir, "n.csv"));
    CHECK(text.find("no header row; columns are lettered; 2 rows in all") != std::string::npos);
    CHECK(text.find("| Row | A | B | C |\n| ---: | --- | --- | --- |\n| 1 | 1 | 2 |  |\n| 2 | 3 | 4 | 5 |") !=
          std::string::npos);
  }
  SUBCASE("a TSV, a semicolon export, a UTF-8 byte-order mark") {
    dir.write("t.tsv", "k\tv\nx\t1\n");
    const ReadOutcome t = read_csv(dir, "t.tsv");
    CHECK(t.meta["delimiter"] == "\t");
    CHECK(t.meta["mime"] == "text/tab-separated-values");
    dir.write("de.csv", "\xEF\xBB\xBFName;Betrag\nKaffee;1,50\n");
    const std::string text = first_text(read_csv(dir, "de.csv"));
    CHECK(text.find("(semicolon-separated)") != std::string::npos);
    CHECK(text.find("| Row | Name | Betrag |\n| ---: | --- | --- |\n| 2 | Kaffee | 1,50 |") != std::string::npos);
  }
  SUBCASE("a header and nothing under it; an empty file") {
    dir.write("h.csv", "a,b\n");
    dir.write("e.csv", "");
    const std::string h = first_text(read_csv(dir, "h.csv"));
    CHECK(h.find("1 row in all") != std::string::npos);
    CHECK(h.find("[Rows 1-1 of 1. End of file.]") != std::string::npos);  // one row: read as data
    const ReadOutcome e = read_csv(dir, "e.csv");
    CHECK(e.meta["kind"] == "csv");
    CHECK(first_text(e).find("[The file has no rows.]") != std::string::npos);
  }
  SUBCASE("file_type=\"text\" gives the source, numbered") {
    dir.write("s.csv", "a,b\n1,2\n");
    ReadRequest request = tool_worded(ReadRequest{});
    request.file_path = "s.csv";
    request.forced_kind = FileKind::text;
    const std::string text = first_text(read_file(roots_of(dir), request, ReadLimits{}, CancelToken{}));
    CHECK(text.find("     1\ta,b\n     2\t1,2") != std::string::npos);
  }
}

TEST_CASE("csv: paging by rows") {
  TempDir dir;
  dir.write("sq.csv", numbered_rows(10000));
  SUBCASE("offset and limit count rows; the header heads every page") {
    const ReadOutcome o = read_csv(dir, "sq.csv", 5000, 2);
    REQUIRE_FALSE(o.is_error);
    const std::string text = first_text(o);
    CHECK(text.find("| Row | n | square |\n| ---: | --- | --- |\n| 5000 | 4999 | 24990001 |\n| 5001 | 5000 | 25000000 |\n\n"
                    "[Rows 5000-5001 of 10001. To read more, call read again with offset=5002.]") != std::string::npos);
    CHECK(o.meta["next_offset"] == 5002);
    CHECK(o.meta["truncated"] == false);
  }
  SUBCASE("a deep page is the same read fresh and read from remembered record starts") {
    release_caches();
    const std::string fresh = first_text(read_csv(dir, "sq.csv", 9000, 3));
    const std::string again = first_text(read_csv(dir, "sq.csv", 9000, 3));
    const std::string near = first_text(read_csv(dir, "sq.csv", 8191, 3));  // just before a remembered start
    CHECK(fresh == again);
    CHECK(fresh.find("| 9000 | 8999 | 80982001 |") != std::string::npos);
    CHECK(near.find("| 8191 | 8190 | 67076100 |\n| 8192 | 8191 | 67092481 |\n| 8193 | 8192 | 67108864 |") !=
          std::string::npos);
  }
  SUBCASE("a file changed between calls is read as it is now") {
    CHECK(read_csv(dir, "sq.csv", 9000, 1).meta["rows"] == 10001);
    dir.write("sq.csv", numbered_rows(12000));
    const ReadOutcome o = read_csv(dir, "sq.csv", 11000, 1);
    CHECK(o.meta["rows"] == 12001);
    CHECK(first_text(o).find("| 11000 | 10999 | 120978001 |") != std::string::npos);
  }
  SUBCASE("past the end: refused with the last row") {
    const ReadOutcome o = read_csv(dir, "sq.csv", 20000);
    CHECK(o.is_error);
    CHECK(first_text(o) == "Row 20000 is past the end of " + (dir.path() / "sq.csv").string() +
                               ": its last row is 10001. Call read with offset=2 to read from the start.");
  }
  SUBCASE("the output cap gives the rows that do not fit back to the next call") {
    ReadLimits limits;
    limits.text.max_output_bytes = 4096;
    const ReadOutcome o = read_csv(dir, "sq.csv", {}, {}, limits);
    const std::string text = first_text(o);
    CHECK(text.size() <= 4096);
    CHECK(o.meta["truncated"] == true);
    const auto next = o.meta["next_offset"].get<std::uint64_t>();
    CHECK(o.meta["end_row"].get<std::uint64_t>() + 1 == next);
    CHECK(text.find("(the output cap is reached). To read more, call read again with offset=" + std::to_string(next)) !=
          std::string::npos);
  }
  SUBCASE("rows are counted only in files up to count_lines_max_bytes") {
    ReadLimits limits;
    limits.text.count_lines_max_bytes = 1000;
    release_caches();
    const ReadOutcome o = read_csv(dir, "sq.csv", {}, 2, limits);
    CHECK_FALSE(o.meta.contains("rows"));
    CHECK(first_text(o).find("[Rows 2-3. To read more") != std::string::npos);
  }
}

TEST_CASE("csv: charsets") {
  TempDir dir;
  SUBCASE("a Windows-1252 export, detected") {
    dir.write("w.csv", iconv_encode("ville,prix\nCrème brûlée à Besançon,3\nÉté,4\n", "WINDOWS-1252"));
    const ReadOutcome o = read_csv(dir, "w.csv");
    const std::string text = first_text(o);
    CHECK(o.meta["charset"] != "UTF-8");
    CHECK(text.find("| 2 | Crème brûlée à Besançon | 3 |") != std::string::npos);
  }
  SUBCASE("UTF-16LE with a byte-order mark (a spreadsheet's \"Unicode text\")") {
    dir.write("u.tsv", "\xFF\xFE" + iconv_encode("Name\tWert\nÄpfel\t7\n日本\t8\n", "UTF-16LE"));
    const ReadOutcome o = read_csv(dir, "u.tsv");
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o).find("| Row | Name | Wert |\n| ---: | --- | --- |\n| 2 | Äpfel | 7 |\n| 3 | 日本 | 8 |") !=
          std::string::npos);
  }
  SUBCASE("the encoding argument overrides detection; an unknown one is refused") {
    dir.write("k.csv", iconv_encode("город,n\nМосква,1\n", "KOI8-R"));
    CHECK(first_text(read_csv(dir, "k.csv", {}, {}, {}, "koi8-r")).find("| 2 | Москва | 1 |") != std::string::npos);
    const ReadOutcome bad = read_csv(dir, "k.csv", {}, {}, {}, "no-such-charset");
    CHECK(bad.is_error);
    CHECK(first_text(bad).find("Unknown encoding \"no-such-charset\"") == 0);
  }
}

TEST_CASE("csv: hostile files stay bounded") {
  TempDir dir;
  SUBCASE("a quote never closed: one row, cut, the file read to its end") {
    dir.write("q.csv", "a,b\n1,\"" + std::string(3 << 20, 'x') + "\n2,3\n");
    const ReadOutcome o = read_csv(dir, "q.csv");
    REQUIRE_FALSE(o.is_error);
    const std::string text = first_text(o);
    CHECK(text.size() <= ReadLimits{}.text.max_output_bytes);
    CHECK(text.find("more characters]") != std::string::npos);
    CHECK(text.find("[Cut rows (more fields or text than one answer holds; the rest left out): 2.]") != std::string::npos);
    CHECK(o.meta["rows"] == 2);
  }
  SUBCASE("a row of 100,000 fields") {
    std::string wide;
    for (int i = 0; i < 100000; ++i) wide += "v,";
    dir.write("w.csv", wide + "\n");
    const ReadOutcome o = read_csv(dir, "w.csv");
    REQUIRE_FALSE(o.is_error);
    const std::string text = first_text(o);
    CHECK(text.size() <= ReadLimits{}.text.max_output_bytes);
    CHECK(o.meta["columns"] == 16384);
    CHECK(text.find(" of 16384 are not shown: the table's header alone would pass the output cap.]") != std::string::npos);
    CHECK(text.find("[Cut rows (more fields or text than one answer holds; the rest left out): 1.]") != std::string::npos);
  }
}
