// Resources through the binary: the file template, the paged listing of the roots, and reads of
// file:// URIs, in initialize sessions (2025-11-25, 2024-11-05) and stateless requests
// (2026-07-28). McpClient checks every answer against the schema of its version.
#include "fixtures.hpp"
#include "image_fixtures.hpp"
#include "mcp_client.hpp"
#include "roots_helpers.hpp"

#include <doctest/doctest.h>

#include <cctype>
#include <set>
#include <string>

using namespace mcpread::test;
using nlohmann::json;

namespace {

// file:// URI of a path, escaped as the server escapes it.
std::string uri_of(const std::filesystem::path& p) { return file_uri(p); }

void fill(const TempDir& root) {
  root.write("notes.md", "# Notes\n\nfirst line\n");
  root.write("dir/data.json", "{\"k\": [1, 2]}\n");
  root.write("space name.txt", "spaced\n");
  root.write(".git/HEAD", "ref: refs/heads/main\n");
  root.write("node_modules/x/index.js", "module.exports = 1;\n");
}

json read(McpClient& client, const std::string& uri) { return client.request("resources/read", {{"uri", uri}}); }

}  // namespace

TEST_CASE("resources over stdio, protocol 2025-11-25") {
  TempDir root;
  fill(root);
  McpClient client({{root.path().string()}});
  const json init = client.initialize("2025-11-25");
  CHECK(init["capabilities"]["resources"] == json::object());

  SUBCASE("one template, file:///{+path}") {
    const json r = client.request("resources/templates/list");
    REQUIRE(r["result"]["resourceTemplates"].size() == 1);
    const json& t = r["result"]["resourceTemplates"][0];
    CHECK(t["uriTemplate"] == "file:///{+path}");
    CHECK(t["name"] == "file");
    CHECK(t["title"] == "File or directory");
    CHECK_FALSE(t.contains("mimeType"));
  }
  SUBCASE("the listing: files with names, types and sizes; hidden and dependency directories left out") {
    const json r = client.request("resources/list");
    const json& list = r["result"]["resources"];
    REQUIRE(list.size() == 3);
    CHECK(list[0] == json{{"uri", uri_of(root.path() / "dir/data.json")},
                          {"name", "dir/data.json"},
                          {"mimeType", "application/json"},
                          {"size", 14}});
    CHECK(list[1]["name"] == "notes.md");
    CHECK(list[1]["mimeType"] == "text/markdown");
    CHECK(list[2]["name"] == "space name.txt");
    CHECK(list[2]["uri"] == uri_of(root.path()) + "/space%20name.txt");
    CHECK_FALSE(r["result"].contains("nextCursor"));
  }
  SUBCASE("a text file: its own text, not numbered") {
    const std::string uri = uri_of(root.path() / "notes.md");
    const json r = read(client, uri);
    REQUIRE(r["result"]["contents"].size() == 1);
    const json& c = r["result"]["contents"][0];
    CHECK(c["uri"] == uri);
    CHECK(c["mimeType"] == "text/markdown");
    CHECK(c["text"] == "# Notes\n\nfirst line\n");
    CHECK(c["_meta"]["truncated"] == false);
  }
  SUBCASE("every URI the listing gives can be read") {
    // The reply is kept in a variable: a range-for over a subscript of the temporary would
    // iterate over freed memory.
    const json listing = client.request("resources/list");
    for (const auto& resource : listing["result"]["resources"]) {
      const json r = read(client, resource["uri"].get<std::string>());
      CHECK(r.contains("result"));
    }
  }
  SUBCASE("an image: a blob") {
    const std::string png = encode_picture({}, ".png");
    root.write("p.png", png);
    const json r = read(client, uri_of(root.path() / "p.png"));
    const json& c = r["result"]["contents"][0];
    CHECK(c["mimeType"] == "image/png");
    CHECK(base64_decode(c["blob"].get<std::string>()) == png);
    CHECK_FALSE(c.contains("text"));
  }
  SUBCASE("a directory: its listing") {
    const json r = read(client, uri_of(root.path() / "dir"));
    CHECK(r["result"]["contents"][0]["mimeType"] == "text/plain");
    CHECK(r["result"]["contents"][0]["text"] ==
          "Directory " + (root.path() / "dir").string() + ": 1 entry (0 directories, 1 file)\ndata.json");
  }
  SUBCASE("missing and outside the roots: -32002 Resource not found, with the uri") {
    TempDir outside;
    outside.write("secret.txt", "top secret\n");
    for (const std::string& uri : {uri_of(root.path() / "nope.txt"), uri_of(outside.path() / "secret.txt")}) {
      const json r = read(client, uri);
      CHECK(r["error"]["code"] == -32002);
      CHECK(r["error"]["message"] == "Resource not found");
      CHECK(r["error"]["data"]["uri"] == uri);
    }
  }
  SUBCASE("not a file URI, no uri, a binary: -32602") {
    json r = read(client, "https://example.com/x");
    CHECK(r["error"]["code"] == -32602);
    CHECK(r["error"]["message"] == "Invalid params: \"https://example.com/x\" is not a file URI this server "
                                   "reads. Use file:///absolute/path with the path percent-encoded, as "
                                   "resources/list gives it.");
    r = client.request("resources/read");
    CHECK(r["error"]["code"] == -32602);
    CHECK(r["error"]["message"] == "Invalid params: \"resources/read\" needs \"uri\" (a non-empty string)");
    root.write("x.bin", std::string("\x7f" "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0", 16) + std::string(100, '\0'));
    r = read(client, uri_of(root.path() / "x.bin"));
    CHECK(r["error"]["code"] == -32602);
    CHECK(r["error"]["message"].get<std::string>().rfind(
              "Invalid params: " + (root.path() / "x.bin").string() + " is a binary file (", 0) == 0);
  }
}

TEST_CASE("resources over stdio: pages of 200 and cursors") {
  TempDir root;
  for (int i = 0; i < 450; ++i) root.write("many/" + std::to_string(10000 + i) + ".log", "x\n");
  McpClient client({{root.path().string()}});
  client.initialize("2025-11-25");
  std::set<std::string> names;
  json params = json::object();
  int pages = 0;
  for (;;) {
    const json r = client.request("resources/list", params);
    REQUIRE(r.contains("result"));
    ++pages;
    for (const auto& resource : r["result"]["resources"]) names.insert(resource["name"].get<std::string>());
    if (!r["result"].contains("nextCursor")) break;
    CHECK(r["result"]["resources"].size() == 200);
    params = {{"cursor", r["result"]["nextCursor"]}};
  }
  CHECK(pages == 3);
  CHECK(names.size() == 450);
  CHECK(*names.begin() == "many/10000.log");
  const json bad = client.request("resources/list", {{"cursor", "not-a-cursor"}});
  CHECK(bad["error"]["code"] == -32602);
  CHECK(bad["error"]["message"] == "Invalid params: unknown \"cursor\"; pass a nextCursor from an earlier resources/list");
}

TEST_CASE("resources over stdio, protocol 2024-11-05") {
  TempDir root;
  fill(root);
  McpClient client({{root.path().string()}});
  const json init = client.initialize("2024-11-05");
  CHECK(init["protocolVersion"] == "2024-11-05");
  CHECK(init["capabilities"]["resources"] == json::object());
  const json templates = client.request("resources/templates/list");
  CHECK_FALSE(templates["result"]["resourceTemplates"][0].contains("title"));
  CHECK(client.request("resources/list")["result"]["resources"].size() == 3);
  CHECK(read(client, uri_of(root.path() / "dir/data.json"))["result"]["contents"][0]["text"] == "{\"k\": [1, 2]}\n");
  const json missing = read(client, uri_of(root.path() / "gone"));
  CHECK(missing["error"]["code"] == -32002);
  CHECK(missing["error"]["data"]["uri"] == uri_of(root.path() / "gone"));
}

TEST_CASE("resources over stdio, stateless 2026-07-28") {
  TempDir root;
  fill(root);
  McpClient client({{root.path().string()}});

  SUBCASE("server/discover advertises resources") {
    const json r = client.stateless_request("server/discover");
    CHECK(r["result"]["capabilities"]["resources"] == json::object());
  }
  SUBCASE("templates: complete, public") {
    const json r = client.stateless_request("resources/templates/list");
    CHECK(r["result"]["resultType"] == "complete");
    CHECK(r["result"]["cacheScope"] == "public");
    CHECK(r["result"]["resourceTemplates"][0]["uriTemplate"] == "file:///{+path}");
  }
  SUBCASE("list: private, a few seconds") {
    const json r = client.stateless_request("resources/list");
    CHECK(r["result"]["resultType"] == "complete");
    CHECK(r["result"]["cacheScope"] == "private");
    CHECK(r["result"]["ttlMs"] == 5000);
    CHECK(r["result"]["resources"].size() == 3);
    CHECK(r["result"]["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == "mcp-read");
  }
  SUBCASE("read: private, stale at once") {
    const json r = client.stateless_request("resources/read", {{"uri", uri_of(root.path() / "notes.md")}});
    CHECK(r["result"]["cacheScope"] == "private");
    CHECK(r["result"]["ttlMs"] == 0);
    CHECK(r["result"]["contents"][0]["text"] == "# Notes\n\nfirst line\n");
  }
  SUBCASE("a missing resource: -32602") {
    const std::string uri = uri_of(root.path() / "nope.txt");
    const json r = client.stateless_request("resources/read", {{"uri", uri}});
    CHECK(r["error"]["code"] == -32602);
    CHECK(r["error"]["message"] == "Resource not found");
    CHECK(r["error"]["data"]["uri"] == uri);
  }
}

TEST_CASE("resources over stdio: reads wait for the client's roots") {
  TempDir root;
  root.write("top.txt", "top\n");
  root.write("sub/in.txt", "inside\n");
  McpClient client({{root.path().string()}});
  client.initialize("2025-11-25", roots_capability);
  const json roots_id = expect_roots_request(client);
  // Sent before the roots arrive: answered only once they narrowed the roots to sub/.
  const long long early = client.send_request("resources/read", {{"uri", uri_of(root.path() / "top.txt")}});
  answer_roots(client, roots_id, {root.path() / "sub"});
  const auto answer = client.wait_for_id(early);
  REQUIRE(answer);
  CHECK((*answer)["error"]["code"] == -32002);
  CHECK(read(client, uri_of(root.path() / "sub/in.txt"))["result"]["contents"][0]["text"] == "inside\n");
  const json list = client.request("resources/list");
  REQUIRE(list["result"]["resources"].size() == 1);
  CHECK(list["result"]["resources"][0]["name"] == "in.txt");
}
