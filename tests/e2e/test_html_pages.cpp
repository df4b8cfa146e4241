// HTML pages through the binary: readable text on every version, the source with
// file_type="text"; every message schema-valid.
#include "fixtures.hpp"
#include "mcp_client.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace mcpread::test;
using nlohmann::json;

TEST_CASE("an HTML page through the binary") {
  TempDir root;
  root.write("page.html",
             "<html><head><title>x</title><script>alert(1)</script></head><body><h2>News</h2>"
             "<p>See <a href=\"https://example.org/\">the site</a>.</p><ol><li>first</li><li>second</li></ol></body></html>");
  for (const char* version : {"2024-11-05", "2025-11-25"}) {
    CAPTURE(version);
    McpClient client({{root.path().string()}});
    client.initialize(version);
    const json r = client.call("read", {{"file_path", "page.html"}});
    CHECK_FALSE(r.contains("isError"));
    REQUIRE(r["content"].size() == 1);
    CHECK(r["content"][0]["text"] == "HTML page " + (root.path() / "page.html").string() +
                                         ": 6 lines of text (file_type=\"text\" reads the source).\n\n"
                                         "## News\n\nSee [the site](https://example.org/).\n\n1. first\n2. second\n\n"
                                         "[Lines 1-6 of 6. End of page.]");
    CHECK(r["_meta"]["kind"] == "html");
    const json source = client.call("read", {{"file_path", "page.html"}, {"file_type", "text"}});
    CHECK(source["content"][0]["text"].get<std::string>().starts_with("     1\t<html><head><title>x</title>"));
  }
}
