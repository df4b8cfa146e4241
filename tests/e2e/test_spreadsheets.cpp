// Excel and OpenDocument spreadsheets through the binary: sheets as Markdown tables, `pages` by
// name, rows paged with the way on, a formula with no stored result shown as its formula, an
// unknown sheet and a hostile workbook refused with a sentence; every message schema-valid.
#include "fixtures.hpp"
#include "mcp_client.hpp"
#include "office_fixtures.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace mcpread::test;
using nlohmann::json;

namespace {

std::string budget_xlsx() {
  std::string rows = "<row r=\"1\"><c r=\"A1\" t=\"s\"><v>0</v></c><c r=\"B1\" t=\"s\"><v>1</v></c></row>";
  for (int r = 2; r <= 5; ++r)
    rows += "<row r=\"" + std::to_string(r) + "\"><c r=\"A" + std::to_string(r) + "\" t=\"inlineStr\"><is><t>item " +
            std::to_string(r - 1) + "</t></is></c><c r=\"B" + std::to_string(r) + "\" s=\"1\"><v>" +
            std::to_string(r * 1000 + 0.5) + "</v></c></row>";
  return xlsx_bytes({{"Budget", rows}, {"Notes", "<row r=\"1\"><c r=\"A1\" t=\"inlineStr\"><is><t>draft</t></is></c></row>", "hidden"}},
                    {"Item", "Cost"}, "<cellXfs count=\"2\"><xf numFmtId=\"0\"/><xf numFmtId=\"4\"/></cellXfs>");
}

}  // namespace

TEST_CASE("an Excel workbook through the binary") {
  TempDir root;
  root.write("budget.xlsx", budget_xlsx());
  for (const char* version : {"2024-11-05", "2025-06-18", "2025-11-25"}) {
    CAPTURE(version);
    McpClient client({{root.path().string()}});
    client.initialize(version);
    const json r = client.call("read", {{"file_path", "budget.xlsx"}, {"pages", "Budget"}, {"limit", 3}});
    CHECK_FALSE(r.contains("isError"));
    REQUIRE(r["content"].size() == 1);
    CHECK(r["content"][0]["text"] ==
          "Excel workbook " + (root.path() / "budget.xlsx").string() +
              ": 2 sheets: 1 \"Budget\", 2 \"Notes\" (hidden).\n\n## Sheet 1: Budget\n\n| Row | A | B |\n"
              "| ---: | --- | --- |\n| 1 | Item | Cost |\n| 2 | item 1 | 2,000.50 |\n| 3 | item 2 | 3,000.50 |\n\n"
              "[Rows 1-3 of sheet 1. To read more, call read again with pages=\"1\" and offset=4.]");
    CHECK(r["_meta"]["next_offset"] == 4);
    CHECK(r["_meta"]["kind"] == "xlsx");
  }
}

TEST_CASE("a workbook whose writer did not calculate: the formula shown, counted under the table") {
  // As openpyxl writes a total: the formula and an empty <v/>, no result.
  TempDir root;
  root.write("totals.xlsx",
             xlsx_bytes({{"T", "<row r=\"2\"><c r=\"C2\"><v>4</v></c></row><row r=\"3\"><c r=\"C3\"><v>5</v></c></row>"
                               "<row r=\"4\"><c r=\"B4\" t=\"inlineStr\"><is><t>Total</t></is></c><c r=\"C4\"><f>SUM(C2:C3)</f><v/></c>"
                               "</row>"}}));
  McpClient client({{root.path().string()}});
  client.initialize("2025-11-25");
  const json r = client.call("read", {{"file_path", "totals.xlsx"}});
  CHECK_FALSE(r.contains("isError"));
  CHECK(r["content"][0]["text"] ==
        "Excel workbook " + (root.path() / "totals.xlsx").string() + ": 1 sheet: 1 \"T\".\n\n## Sheet 1: T\n\n| Row | B | C |\n"
        "| ---: | --- | --- |\n| 2 |  | 4 |\n| 3 |  | 5 |\n| 4 | Total | `=SUM(C2:C3)` |\n\nFormulas with no stored result: 1 cell "
        "in rows 2-4 shows its formula in backticks instead of a value. The file holds no value for it (the program that "
        "wrote it did not calculate formulas); opening the file in a spreadsheet program would calculate it.\n\n"
        "[Rows 2-4 of sheet 1. End of sheet.]");
}

TEST_CASE("spreadsheets refused with a sentence through the binary") {
  TempDir root;
  root.write("budget.xlsx", budget_xlsx());
  root.write("bomb.ods", ods_bytes("<table:table table:name=\"T\"><table:table-row><table:table-cell><text:p>" +
                                   std::string(8u << 20, ' ') + "</text:p></table:table-cell></table:table-row></table:table>"));
  McpClient client({{root.path().string()}});
  client.initialize("2025-11-25");
  const json unknown = client.call("read", {{"file_path", "budget.xlsx"}, {"pages", "Totals"}});
  CHECK(unknown["isError"] == true);
  CHECK(unknown["content"][0]["text"] == "pages=\"Totals\" names no sheet of " + (root.path() / "budget.xlsx").string() +
                                             ". Its sheets: 1 \"Budget\", 2 \"Notes\" (hidden). Give sheets by number "
                                             "(\"2\", \"1-3\") or by name.");
  const json bomb = client.call("read", {{"file_path", "bomb.ods"}});
  CHECK(bomb["isError"] == true);
  const std::string message = bomb["content"][0]["text"];
  CHECK(message.starts_with((root.path() / "bomb.ods").string() +
                            " cannot be read as an OpenDocument spreadsheet: \"content.xml\" is compressed "));
  CHECK(message.find(" to 1, over the ratio of 200 allowed (a zip bomb?).") != std::string::npos);
}

TEST_CASE("a CSV file through the binary: a table under its header, paged by rows") {
  TempDir root;
  std::string csv = "city;temp\n";
  for (int i = 1; i <= 50; ++i) csv += "Town " + std::to_string(i) + ";" + std::to_string(i % 30) + ",5\n";
  root.write("temps.csv", csv);
  for (const char* version : {"2024-11-05", "2025-06-18", "2025-11-25"}) {
    CAPTURE(version);
    McpClient client({{root.path().string()}});
    client.initialize(version);
    const json r = client.call("read", {{"file_path", "temps.csv"}, {"offset", 40}, {"limit", 2}});
    CHECK_FALSE(r.contains("isError"));
    REQUIRE(r["content"].size() == 1);
    CHECK(r["content"][0]["text"] ==
          "CSV file " + (root.path() / "temps.csv").string() +
              " (semicolon-separated): row 1 is the header, naming 2 columns; 51 rows in all. A row is a record: "
              "a quoted line break stays in its cell.\n\n| Row | city | temp |\n| ---: | --- | --- |\n"
              "| 40 | Town 39 | 9,5 |\n| 41 | Town 40 | 10,5 |\n\n[Rows 40-41 of 51. To read more, call read again with offset=42.]");
    CHECK(r["_meta"]["kind"] == "csv");
    CHECK(r["_meta"]["next_offset"] == 42);
  }
}
