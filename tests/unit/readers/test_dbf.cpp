// dBASE tables through read_file: field names in row 1 and the records under them, each type
// shown as a spreadsheet shows it, deleted records left out and counted, the charset from a .cpg
// or the header's code page, memo text from the .dbt or .fpt beside the table, recognition by
// the header's agreement with the file, and hostile headers refused with the reason.
#include "fixtures.hpp"
#include "reader_fixtures.hpp"

#include "mcpread/readers/read.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

using namespace mcpread::readers;
using namespace mcpread::test;

namespace {

std::string le16(std::uint32_t v) { return {static_cast<char>(v & 0xFF), static_cast<char>(v >> 8 & 0xFF)}; }
std::string le32(std::uint32_t v) { return le16(v & 0xFFFF) + le16(v >> 16); }
std::string be32(std::uint32_t v) {
  return {static_cast<char>(v >> 24), static_cast<char>(v >> 16 & 0xFF), static_cast<char>(v >> 8 & 0xFF),
          static_cast<char>(v & 0xFF)};
}

struct FieldSpec {
  std::string name;
  char type;
  int length;
  int decimals = 0;
};

// A table as dBASE writes one: the header, the field descriptors, 0x0D, (Visual FoxPro's 263
// bytes of backlink), the records (each its deletion flag and its fields' bytes), 0x1A.
std::string table(std::uint8_t version, const std::vector<FieldSpec>& fields, const std::vector<std::string>& records,
                  std::uint8_t ldid = 0) {
  const bool vfp = version == 0x30;
  int record_length = 1;
  for (const auto& f : fields) record_length += f.length;
  const auto header_length = static_cast<std::uint32_t>(32 + 32 * fields.size() + 1 + (vfp ? 263 : 0));
  std::string out;
  out += static_cast<char>(version);
  out += std::string("\x7E\x01\x0F", 3);  // 2026-01-15
  out += le32(static_cast<std::uint32_t>(records.size())) + le16(header_length) +
         le16(static_cast<std::uint32_t>(record_length));
  out += std::string(17, '\0') + static_cast<char>(ldid) + std::string(2, '\0');
  for (const auto& f : fields) {
    std::string name = f.name;
    name.resize(11, '\0');
    out += name + f.type + std::string(4, '\0') + static_cast<char>(f.length) + static_cast<char>(f.decimals) +
           std::string(14, '\0');
  }
  out += '\x0D';
  if (vfp) out += std::string(263, '\0');
  for (const auto& r : records) {
    REQUIRE(r.size() == static_cast<std::size_t>(record_length));
    out += r;
  }
  return out + '\x1A';
}

// A name, price and date list: the dBASE III types of most tables.
const std::vector<FieldSpec> kItems = {{"NAME", 'C', 8}, {"PRICE", 'N', 6, 2}, {"OK", 'L', 1}, {"DAY", 'D', 8}};

std::string items(const std::vector<std::string>& records, std::uint8_t ldid = 0) {
  return table(0x03, kItems, records, ldid);
}

std::string header_line(const std::string& path, const std::string& sheet) {
  return "dBASE table " + path + ": 1 sheet: 1 \"" + sheet + "\".\n\n";
}

}  // namespace

TEST_CASE("dbf: records under the field names") {
  TempDir dir;
  SUBCASE("dBASE III types; a deleted record left out and counted") {
    const auto o = read_written(dir, "items.dbf",
                                items({" Apples    1.50T20240131", "*Gone      9.99F20240201", " Pears    12.00F        ",
                                       " Figs          ?00000000"}));
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o) ==
          header_line((dir.path() / "items.dbf").string(), "items") +
              "dBASE III/IV table, 4 fields: NAME (C 8), PRICE (N 6.2), OK (L), DAY (D). 4 records (1 deleted, "
              "left out); row 1 holds the field names, record n is row n+1. Text: UTF-8 (the table does not say; "
              "guessed from its text).\n\n## Sheet 1: items (cells A1:D5)\n\n"
              "| Row | A | B | C | D |\n| ---: | --- | --- | --- | --- |\n"
              "| 1 | NAME | PRICE | OK | DAY |\n| 2 | Apples | 1.50 | TRUE | 2024-01-31 |\n"
              "| 4 | Pears | 12.00 | FALSE |  |\n| 5 | Figs |  |  |  |\n\n[Rows 1-5 of sheet 1. End of sheet.]");
    CHECK(o.meta["kind"] == "dbf");
    CHECK(o.meta["records"] == 4);
    CHECK(o.meta["deleted"] == 1);
  }
  SUBCASE("offset and limit page the records as rows") {
    ReadRequest request;
    request.file_path = "items.dbf";
    request.offset = 3;
    request.limit = 1;
    dir.write("items.dbf", items({" Apples    1.50T20240131", " Plums     2.00T20240131", " Pears    12.00F20240131"}));
    const auto o = read_file(roots_of(dir), request, ReadLimits{}, CancelToken{});
    REQUIRE_FALSE(o.is_error);
    const std::string text = first_text(o);
    CHECK(text.find("| 3 | Plums | 2.00 | TRUE | 2024-01-31 |\n\n[Rows 3-3 of sheet 1. To read more, ") != std::string::npos);
    CHECK(text.find("Apples") == std::string::npos);
    CHECK(o.meta["next_offset"] == 4);
  }
  SUBCASE("a deep page starts at the record its offset names, deleted records left out") {
    // 3,000 records: every third (index 1, 4, ...) deleted, and the last five.
    std::vector<std::string> records;
    for (int i = 0; i < 3000; ++i) {
      std::string id = std::to_string(i);
      records.push_back(std::string(i % 3 == 1 || i >= 2995 ? "*" : " ") + std::string(6 - id.size(), ' ') + id);
    }
    dir.write("deep.dbf", table(0x03, {{"ID", 'N', 6}}, records));
    ReadRequest request;
    request.file_path = "deep.dbf";
    SUBCASE("the offset's record deleted: the page starts at the next one shown") {
      request.offset = 2001;  // record 1999, deleted
      request.limit = 3;
      const auto o = read_file(roots_of(dir), request, ReadLimits{}, CancelToken{});
      REQUIRE_FALSE(o.is_error);
      const std::string text = first_text(o);
      CHECK(text.find("3000 records (1003 deleted, left out)") != std::string::npos);
      CHECK(text.find("| 2002 | 2000 |\n| 2003 | 2001 |\n| 2005 | 2003 |\n\n[Rows 2002-2005 of sheet 1. To read more, ") !=
            std::string::npos);
      CHECK(o.meta["next_offset"] == 2006);
    }
    SUBCASE("past the last record shown: the last row with values named") {
      request.offset = 2997;  // records 2995-2999 deleted; 2994 is the last shown, row 2996
      const auto o = read_file(roots_of(dir), request, ReadLimits{}, CancelToken{});
      REQUIRE_FALSE(o.is_error);
      CHECK(first_text(o).find("[No rows with values from row 2997 on: the last row with values is 2996.]") !=
            std::string::npos);
    }
    SUBCASE("past the end of the table") {
      request.offset = 5000;
      const auto o = read_file(roots_of(dir), request, ReadLimits{}, CancelToken{});
      REQUIRE_FALSE(o.is_error);
      CHECK(first_text(o).find("[No rows with values from row 5000 on: the last row with values is 2996.]") !=
            std::string::npos);
    }
  }
  SUBCASE("one field, one record: said in the singular") {
    const auto o = read_written(dir, "one.dbf", table(0x03, {{"ID", 'N', 3}}, {"  42"}));
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o).find("dBASE III/IV table, 1 field: ID (N 3). 1 record; row 1 holds") != std::string::npos);
    CHECK(first_text(o).find("| 1 | ID |\n| 2 | 42 |") != std::string::npos);
  }
  SUBCASE("recognised by its header whatever its name") {
    const auto o = read_written(dir, "export.dat", items({" Apples    1.50T20240131"}));
    REQUIRE_FALSE(o.is_error);
    CHECK(o.meta["kind"] == "dbf");
    CHECK(first_text(o).find("| 2 | Apples | 1.50 | TRUE | 2024-01-31 |") != std::string::npos);
  }
  SUBCASE("Visual FoxPro: integer, currency, date-time, double; _NullFlags not shown") {
    const std::vector<FieldSpec> fields = {{"N", 'I', 4}, {"COST", 'Y', 8}, {"AT", 'T', 8}, {"X", 'B', 8}, {"_NullFlags", '0', 1}};
    // 2451545 is the Julian day of 2000-01-01; 45,296,000 ms is 12:34:56.
    const std::string record = std::string(" ") + le32(static_cast<std::uint32_t>(-42)) + le32(1234500) + le32(0) +
                               le32(2451545) + le32(45296000) + std::string("\0\0\0\0\0\0\xF8\x3F", 8) + std::string(1, '\0');
    const auto o = read_written(dir, "fox.dbf", table(0x30, fields, {record}, 0x03));
    REQUIRE_FALSE(o.is_error);
    const std::string text = first_text(o);
    CHECK(text.find("Visual FoxPro table, 4 fields: N (I), COST (Y), AT (T), X (B). 1 record; ") != std::string::npos);
    CHECK(text.find("Text: CP1252, its header's code page.") != std::string::npos);
    CHECK(text.find("| 1 | N | COST | AT | X |\n| 2 | -42 | 123.45 | 2000-01-01 12:34:56 | 1.5 |") != std::string::npos);
  }
}

TEST_CASE("dbf: the charset of the text") {
  TempDir dir;
  const std::string cordoba = " C\xA2rdoba   0.00T20240131";  // 0xA2 is ó in CP850, ¢ in windows-1252
  SUBCASE("the header's code page byte") {
    const auto o = read_written(dir, "dos.dbf", items({cordoba}, 0x02));
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o).find("| 2 | Córdoba | 0.00 | TRUE |") != std::string::npos);
    CHECK(first_text(o).find("Text: CP850, its header's code page.") != std::string::npos);
  }
  SUBCASE("a .cpg beside the table wins over the header") {
    dir.write("win.cpg", "1252\r\n");
    const auto o = read_written(dir, "win.dbf", items({cordoba}, 0x02));
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o).find("| 2 | C¢rdoba |") != std::string::npos);
    CHECK(first_text(o).find("as its .cpg file says") != std::string::npos);
  }
  SUBCASE("a UTF-8 .cpg") {
    dir.write("u.cpg", "UTF-8");
    const auto o = read_written(dir, "u.dbf", items({" Köln     0.00T20240131"}, 0x02));
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o).find("| 2 | Köln | 0.00 |") != std::string::npos);
  }
}

TEST_CASE("dbf: memo fields") {
  TempDir dir;
  const std::vector<FieldSpec> fields = {{"TITLE", 'C', 4}, {"NOTE", 'M', 10}};
  SUBCASE("dBASE III: text from the .dbt, blocks of 512 bytes ending with 0x1A") {
    std::string memo(512, '\0');
    memo += std::string("Ripe in\r\nautumn.\x1A\x1A", 18);
    memo.resize(1024, '\0');
    dir.write("m.dbt", memo);
    const auto o = read_written(dir, "m.dbf", table(0x83, fields, {" Figs         1", " Kiwi          "}));
    REQUIRE_FALSE(o.is_error);
    const std::string text = first_text(o);
    CHECK(text.find("dBASE III with memo table, 2 fields: TITLE (C 4), NOTE (M).") != std::string::npos);
    CHECK(text.find("Memo text is read from m.dbt.") != std::string::npos);
    CHECK(text.find("| 2 | Figs | Ripe in<br>autumn. |\n| 3 | Kiwi |  |") != std::string::npos);
  }
  SUBCASE("no .dbt beside the table: said, and the cells say [memo]") {
    const auto o = read_written(dir, "m.dbf", table(0x83, fields, {" Figs         1"}));
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o).find("The memo file (.dbt) is not beside the table: the memo fields' text is not read "
                             "(their cells show [memo]).") != std::string::npos);
    CHECK(first_text(o).find("| 2 | Figs | [memo] |") != std::string::npos);
  }
  SUBCASE("FoxPro: the .fpt's block size, type and length") {
    std::string memo = be32(8) + std::string("\0\0", 2) + std::string("\0\x40", 2);  // blocks of 64 bytes
    memo.resize(64, '\0');
    memo += be32(1) + be32(5) + "Sweet";
    memo.resize(128, '\0');
    memo += be32(2) + be32(3) + "\x01\x02\x03";
    dir.write("f.fpt", memo);
    const auto o = read_written(dir, "f.dbf", table(0xF5, fields, {" Figs         1", " Kiwi         2"}));
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o).find("| 2 | Figs | Sweet |\n| 3 | Kiwi | [binary memo: 3 bytes] |") != std::string::npos);
  }
  SUBCASE("a memo block past the end of the memo file, a length past its end") {
    std::string memo(512, '\0');
    memo += std::string("\xFF\xFF\x08\x00", 4) + le32(0xFFFFFFF0u) + "short";
    dir.write("h.dbt", memo);
    const auto o = read_written(dir, "h.dbf", table(0x8B, fields, {" Figs     99999", " Kiwi         1"}));
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o).find("| 2 | Figs | [memo 99999: outside the memo file] |\n| 3 | Kiwi | short [memo cut at "
                             "65536 bytes] |") != std::string::npos);
  }
}

TEST_CASE("dbf: hostile and damaged tables") {
  TempDir dir;
  const std::string good = items({" Apples    1.50T20240131", " Pears    12.00F20240131"});
  const auto refusal = [&](const std::string& name, const std::string& bytes) {
    return error_text(read_written(dir, name, bytes));
  };
  SUBCASE("an empty file and text named .dbf are not tables") {
    CHECK(refusal("empty.dbf", "").find("empty") != std::string::npos);
    const auto o = read_written(dir, "notes.dbf", "[Mon Jan 1] a log line\n");
    CHECK(o.meta["kind"] == "text");
    CHECK(error_text(o).find("is named like a dBASE table but is not one") != std::string::npos);
  }
  SUBCASE("records cut off: the header's counts do not fit the file") {
    const auto o = read_written(dir, "cut.dbf", good.substr(0, good.size() - 10));
    CHECK(error_text(o) == (dir.path() / "cut.dbf").string() +
                               " cannot be read as a dBASE table: its header claims 2 records of 24 bytes after 161 "
                               "bytes of header (209 bytes), but the file has 200 bytes; it is damaged or not a "
                               "dBASE table.");
  }
  SUBCASE("a header claiming 4 billion records") {
    std::string bytes = good;
    bytes.replace(4, 4, le32(0xFFFFFFFFu));
    CHECK(refusal("huge.dbf", bytes).find("its header claims 4294967295 records") != std::string::npos);
  }
  SUBCASE("fields longer than the record") {
    std::string bytes = good;
    bytes.replace(10, 2, le16(10));
    const auto o = read_written(dir, "long.dbf", bytes);
    CHECK(o.is_error);
    CHECK(o.meta["kind"] != "dbf");  // the sniffer does not take it: it is not dBASE
  }
  SUBCASE("a header length past the file") {
    std::string bytes = good;
    bytes.replace(8, 2, le16(0xFFFF));
    const auto o = read_written(dir, "hl.dbf", bytes);
    CHECK(o.meta["kind"] == "dbf");
    CHECK(error_text(o) == (dir.path() / "hl.dbf").string() +
                               " cannot be read as a dBASE table: its header claims 2 records of 24 bytes after 65535 "
                               "bytes of header (65583 bytes), but the file has 210 bytes; it is damaged or not a "
                               "dBASE table.");
  }
  SUBCASE("a field list with no end mark") {
    std::string bytes = good;
    bytes[32 + 4 * 32] = 'X';
    CHECK(read_written(dir, "noend.dbf", bytes).is_error);
  }
}
