// The read tool on what a single window of lines cannot show: a line longer than the line cap
// (`column` reads on, the cut says how), one-line JSON (file_type="json", pretty-printed lines),
// and `column` asked of what has no lines.
#include "fixtures.hpp"
#include "image_fixtures.hpp"
#include "mcp_client.hpp"
#include "pdf_fixtures.hpp"

#include <doctest/doctest.h>

#include <string>

using mcpread::test::McpClient;
using mcpread::test::TempDir;
using nlohmann::json;

namespace {

std::string text_of(const json& result) { return result["content"][0]["text"].get<std::string>(); }

}  // namespace

TEST_CASE("read: a long line is read on with column") {
  TempDir root;
  // Minified code: one line of 4,100 characters, 'é' among them (2 bytes, one character).
  const std::string line = std::string(1999, 'a') + "\xC3\xA9" + std::string(2000, 'b') + std::string(100, 'c');
  root.write("app.min.js", "// header\n" + line + "\n");
  McpClient client({{root.path().string()}});
  client.initialize();

  const json first = client.call("read", {{"file_path", "app.min.js"}});
  CHECK(text_of(first) == "     1\t// header\n     2\t" + std::string(1999, 'a') + "\xC3\xA9" +
                              " \u2026 [line cut at 2000 of 4100 characters; read on with offset=2, "
                              "limit=1, column=2001]\n\n[Lines 1-2 of 2. End of file.]\n"
                              "[1 line(s) longer than 2000 characters were cut.]");
  // The call the cut names.
  const json second =
      client.call("read", {{"file_path", "app.min.js"}, {"offset", 2}, {"limit", 1}, {"column", 2001}});
  CHECK_FALSE(second.contains("isError"));
  CHECK(text_of(second) == "     2\t" + std::string(2000, 'b') +
                               " \u2026 [line cut at 4000 of 4100 characters; read on with offset=2, "
                               "limit=1, column=4001]\n\n[Lines 2-2 of 2. End of file.]\n"
                               "[Lines are shown from character 2001 on; 1 line(s) were cut after "
                               "2000 characters.]");
  CHECK(second["_meta"]["column"] == 2001);
  const json last =
      client.call("read", {{"file_path", "app.min.js"}, {"offset", 2}, {"limit", 1}, {"column", "4001"}});
  CHECK(text_of(last) == "     2\t" + std::string(100, 'c') +
                             "\n\n[Lines 2-2 of 2. End of file.]\n"
                             "[Lines are shown from character 4001 on.]");
}

TEST_CASE("read: file_type=\"json\" shows one-line JSON pretty-printed") {
  TempDir root;
  root.write("data.json", R"({"name":"mcp-read","tags":["a","b"],"empty":{},"n":1.50})");
  McpClient client({{root.path().string()}});
  client.initialize();
  const std::string note =
      "[Pretty-printed JSON: line numbers, offset and limit count these lines, not the file's.]";

  SUBCASE("every line, numbered") {
    const json r = client.call("read", {{"file_path", "data.json"}, {"file_type", "json"}});
    CHECK_FALSE(r.contains("isError"));
    CHECK(text_of(r) == "     1\t{\n     2\t  \"name\": \"mcp-read\",\n     3\t  \"tags\": [\n"
                        "     4\t    \"a\",\n     5\t    \"b\"\n     6\t  ],\n     7\t  \"empty\": {},\n"
                        "     8\t  \"n\": 1.50\n     9\t}\n\n[Lines 1-9 of 9. End of file.]\n" + note);
    CHECK(r["_meta"]["kind"] == "json");
    CHECK(r["_meta"]["total_lines"] == 9);
  }
  SUBCASE("offset and limit count the pretty lines") {
    const json r = client.call("read", {{"file_path", "data.json"}, {"file_type", "json"},
                                        {"offset", 3}, {"limit", 2}});
    CHECK(text_of(r) == "     3\t  \"tags\": [\n     4\t    \"a\",\n\n"
                        "[Lines 3-4 of 9. To read more, call read again with offset=5.]\n" + note);
    CHECK(r["_meta"]["next_offset"] == 5);
  }
  SUBCASE("a long one-line .json read as text points to file_type=\"json\"") {
    root.write("big.json", "[" + std::string(3000, '1') + "]");
    const json r = client.call("read", {{"file_path", "big.json"}});
    CHECK(text_of(r).ends_with("[1 line(s) longer than 2000 characters were cut.]\n"
                               "[To read this JSON a value per line, call read with "
                               "file_type=\"json\": it is shown pretty-printed.]"));
  }
  SUBCASE("invalid JSON is refused with the byte and the way to read it") {
    root.write("bad.json", R"({"a": 1,})");
    const json r = client.call("read", {{"file_path", "bad.json"}, {"file_type", "json"}});
    CHECK(r["isError"] == true);
    CHECK(text_of(r) == (root.path() / "bad.json").string() +
                            " is not valid JSON: at byte 9, syntax error while parsing object key - "
                            "unexpected '}'; expected string literal. Call read with "
                            "file_type=\"text\" to see the file as it is.");
  }
}

TEST_CASE("read: column is refused where there are no lines of text") {
  TempDir root;
  root.write("pic.png", mcpread::test::encode_picture({32, 16, 3, mcpread::test::Pattern::gradient}, ".png"));
  root.write("doc.pdf", mcpread::test::text_pdf(1));
  root.write("sub/a.txt", "a\n");
  McpClient client({{root.path().string()}});
  client.initialize();
  const std::string how = ". Call read without column (or with file_type=\"text\" to read it as text).";

  SUBCASE("an image") {
    const json r = client.call("read", {{"file_path", "pic.png"}, {"column", 10}});
    CHECK(r["isError"] == true);
    CHECK(text_of(r) == "The \"column\" argument applies to lines of text, and " +
                            (root.path() / "pic.png").string() + " is an image" + how);
    CHECK(r["_meta"]["kind"] == "image");
  }
  SUBCASE("a PDF") {
    const json r = client.call("read", {{"file_path", "doc.pdf"}, {"column", 2}});
    CHECK(text_of(r) == "The \"column\" argument applies to lines of text, and " +
                            (root.path() / "doc.pdf").string() + " is a PDF document" + how);
  }
  SUBCASE("a directory") {
    const json r = client.call("read", {{"file_path", "sub"}, {"column", 2}});
    CHECK(r["isError"] == true);
    CHECK(text_of(r) == "The \"column\" argument applies to lines of text, and " +
                            (root.path() / "sub").string() +
                            " is a directory. Call read without column; offset and limit page "
                            "through a listing.");
  }
  SUBCASE("column 1 is the start of every line, for any file") {
    const json r = client.call("read", {{"file_path", "pic.png"}, {"column", 1}});
    CHECK_FALSE(r.contains("isError"));
  }
  SUBCASE("a PDF read as text takes no column either: its text has no lines to number") {
    const json r = client.call("read", {{"file_path", "doc.pdf"}, {"file_type", "text"}, {"column", 3}});
    CHECK(r["isError"] == true);
  }
}
