// The CSV reader's parts: records as RFC 4180 and spreadsheets write them (quotes, line breaks in
// cells, CRLF, bare CR), the quick skip agreeing with the full parse on every boundary, the
// limits on one record, and the dialect guessed from a file's first bytes.
#include "csv/dialect.hpp"
#include "csv/record_reader.hpp"
#include "csv/sources.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace mcpread::readers::csv;

namespace {

using Rows = std::vector<std::vector<std::string>>;

Rows parse(const std::string& bytes, Dialect dialect = {}) {
  StringSource source(bytes);
  RecordReader reader(source, dialect, 0);
  Rows rows;
  Record r;
  while (reader.next(&r) == RecordReader::Got::record) rows.push_back(r.fields);
  return rows;
}

// Where each record starts, found by next() and by skip(): the two must agree.
std::vector<std::uint64_t> starts(const std::string& bytes, bool skipping, Dialect dialect = {}) {
  StringSource source(bytes);
  RecordReader reader(source, dialect, 0);
  std::vector<std::uint64_t> out;
  Record r;
  for (;;) {
    const std::uint64_t at = reader.position();
    if ((skipping ? reader.skip() : reader.next(&r)) != RecordReader::Got::record) break;
    out.push_back(at);
  }
  return out;
}

Dialect with(char delimiter, char newline = '\n') {
  Dialect d;
  d.delimiter = delimiter;
  d.newline = newline;
  return d;
}

}  // namespace

TEST_CASE("csv records: fields as spreadsheets write them") {
  SUBCASE("quoted fields hold delimiters, line breaks and doubled quotes") {
    CHECK(parse("a,\"b,c\",\"line 1\nline 2\",\"say \"\"hi\"\"\"\n") ==
          Rows{{"a", "b,c", "line 1\nline 2", "say \"hi\""}});
  }
  SUBCASE("CRLF line ends are not part of the last field; a CR inside quotes is") {
    CHECK(parse("a,b\r\n1,2\r\n") == Rows{{"a", "b"}, {"1", "2"}});
    CHECK(parse("\"x\r\",y\r\n") == Rows{{"x\r", "y"}});
    CHECK(parse("\"q\"\r\n") == Rows{{"q"}});
  }
  SUBCASE("lines ending in a bare CR, as classic Mac OS wrote them") {
    CHECK(parse("a,b\r1,2\r", with(',', '\r')) == Rows{{"a", "b"}, {"1", "2"}});
  }
  SUBCASE("a quote inside an unquoted field is kept; text after a closing quote joins the field") {
    CHECK(parse("5\" disk,ok\n\"ab\"cd,e\n") == Rows{{"5\" disk", "ok"}, {"abcd", "e"}});
  }
  SUBCASE("the last record needs no line end; an empty line is an empty record") {
    CHECK(parse("a\n\nb") == Rows{{"a"}, {""}, {"b"}});
    CHECK(parse("").empty());
    CHECK(parse("x,\n") == Rows{{"x", ""}});
  }
  SUBCASE("an unclosed quote runs to the end of the file") {
    CHECK(parse("a,\"open\nb,c\n") == Rows{{"a", "open\nb,c\n"}});
  }
  SUBCASE("other delimiters") {
    CHECK(parse("a;\"b;c\"\n", with(';')) == Rows{{"a", "b;c"}});
    CHECK(parse("a\t\"b\tc\"\n", with('\t')) == Rows{{"a", "b\tc"}});
    CHECK(parse("a,b|c\n", with('|')) == Rows{{"a,b", "c"}});
  }
}

TEST_CASE("csv records: skip() finds the same record starts as next()") {
  // Quotes opening after delimiters, mid-field quotes, quoted line breaks, CRLF, and records
  // straddling the reader's 256 KiB buffer many times over.
  std::string bytes;
  for (int i = 0; i < 30000; ++i) {
    bytes += std::to_string(i) + ",plain,\"quoted, with\nbreak " + std::to_string(i % 7) + "\",5\" x\r\n";
    if (i % 1000 == 0) bytes += "\"\"\"\",\"a\"\"\nb\"\n";
  }
  const auto parsed = starts(bytes, false);
  CHECK(parsed.size() == 30030);
  CHECK(parsed == starts(bytes, true));
  CHECK(starts(bytes, false, with(';')) == starts(bytes, true, with(';')));
}

TEST_CASE("csv records: one record's size is bounded") {
  SUBCASE("a field past kMaxFieldBytes is cut and its rest counted") {
    const std::string bytes = "x," + std::string(kMaxFieldBytes + 10, 'a') + ",y\n";
    StringSource source(bytes);  // a view: the bytes outlive it
    RecordReader reader(source, {}, 0);
    Record r;
    REQUIRE(reader.next(&r) == RecordReader::Got::record);
    REQUIRE(r.fields.size() == 3);
    CHECK(r.fields[1].size() == kMaxFieldBytes);
    CHECK(r.bytes_left_out == 10);
    CHECK(r.fields[2] == "y");
  }
  SUBCASE("fields past kMaxFields are counted, not kept") {
    std::string line;
    for (std::size_t i = 0; i < kMaxFields + 5; ++i) line += "f,";
    line += "last\n";
    StringSource source(line);
    RecordReader reader(source, {}, 0);
    Record r;
    REQUIRE(reader.next(&r) == RecordReader::Got::record);
    CHECK(r.fields.size() == kMaxFields);
    CHECK(r.fields_left_out == 6);
  }
}

TEST_CASE("csv dialect: the delimiter, the line end and the header") {
  SUBCASE("commas; a header over numbers and dates") {
    const Dialect d = detect_dialect("id,name,when\n1,Ann,2024-01-02\n2,Bob,2024-03-04\n", "csv", true);
    CHECK(d.delimiter == ',');
    CHECK(d.newline == '\n');
    CHECK(d.header);
  }
  SUBCASE("semicolons over decimal commas, as European spreadsheets export") {
    const Dialect d = detect_dialect("Datum;Betrag\n01.02.2024;1,50\n02.02.2024;12,00\n", "csv", true);
    CHECK(d.delimiter == ';');
    CHECK(d.header);
  }
  SUBCASE("tabs, in a .tsv or found by their consistency") {
    CHECK(detect_dialect("a\tb\n1\t2\n", "tsv", true).delimiter == '\t');
    CHECK(detect_dialect("a\tb, c\n1\t2, 3\n", "txt", true).delimiter == '\t');
    CHECK(detect_dialect("only one column\nvalue\n", "tsv", true).delimiter == '\t');
  }
  SUBCASE("vertical bars; bare CR line ends") {
    CHECK(detect_dialect("a|b|c\n1|2|3\n", "csv", true).delimiter == '|');
    const Dialect d = detect_dialect("a,b\r1,2\r", "csv", true);
    CHECK(d.newline == '\r');
    CHECK(d.delimiter == ',');
  }
  SUBCASE("no header: the first row is numbers, or its values come again below") {
    CHECK_FALSE(detect_dialect("1,2,3\n4,5,6\n", "csv", true).header);
    CHECK_FALSE(detect_dialect("red,1\nblue,2\nred,3\n", "csv", true).header);
    CHECK_FALSE(detect_dialect("Alice,Paris\nBob,London\n", "csv", true).header);
    CHECK_FALSE(detect_dialect("name,city\n", "csv", true).header);  // nothing under it to tell
    // Text and numbers mixed under a name: the first row groups columns, the second names them.
    CHECK_FALSE(detect_dialect(",Crows,,Mosquitoes\nTime,Susceptible,Dead,Larvae\n0,1,0,12.794\n0.1,1.000,0.000,12.794\n", "csv", true).header);
  }
  SUBCASE("a header over codes of one length") {
    CHECK(detect_dialect("country,code\nFrance,FR\nGermany,DE\nItaly,IT\n", "csv", true).header);
  }
  SUBCASE("a cut last record in a head is not counted") {
    CHECK(detect_dialect("a;b\n1;2\n3;4\n5;\"unfinished, comma, comma", "csv", false).delimiter == ';');
  }
}

TEST_CASE("csv dialect: values are numbers, amounts, percentages, dates and times") {
  for (const char* v : {"12", "-1,234.5", "12%", "2024-03-01", "10:30", "1e5", " 3 ", "$4"}) CHECK_MESSAGE(value_like(v), v);
  for (const char* v : {"", "abc", "e5", "Q1", "N/A", "-"}) CHECK_MESSAGE(!value_like(v), v);
  CHECK(delimiter_name('\t') == "tab");
  CHECK(delimiter_name(';') == "semicolon");
}
