// MCP roots: the client's roots narrow the command line's (or replace the default cwd), are
// asked for again on list_changed, and a failing roots/list keeps what was there.
#include "fixtures.hpp"
#include "mcp_client.hpp"
#include "roots_helpers.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace mcpread::test;
using nlohmann::json;

namespace {
bool denied(const json& result) {
  return result.value("isError", false) &&
         result["content"][0]["text"].get<std::string>().rfind("Access denied: ", 0) == 0;
}
}  // namespace

TEST_CASE("client roots narrow the server's roots") {
  TempDir root;
  root.write("top.txt", "top\n");
  root.write("sub/in.txt", "inside\n");
  root.write("other/o.txt", "other\n");
  McpClient client({{root.path().string()}});
  client.initialize("2025-11-25", roots_capability);
  answer_roots(client, expect_roots_request(client), {root.path() / "sub"});

  SUBCASE("reads inside the client's root work, the rest of the server's root is closed") {
    CHECK_FALSE(client.call("read", {{"file_path", (root.path() / "sub/in.txt").string()}}).contains("isError"));
    CHECK(denied(client.call("read", {{"file_path", (root.path() / "top.txt").string()}})));
  }
  SUBCASE("relative paths now resolve against the client's root") {
    const json r = client.call("read", {{"file_path", "in.txt"}});
    CHECK(r["content"][0]["text"].get<std::string>().rfind("     1\tinside\n", 0) == 0);
  }
  SUBCASE("roots/list_changed asks again and applies the new roots") {
    client.send({{"jsonrpc", "2.0"}, {"method", "notifications/roots/list_changed"}});
    answer_roots(client, expect_roots_request(client), {root.path() / "other"});
    CHECK_FALSE(client.call("read", {{"file_path", (root.path() / "other/o.txt").string()}}).contains("isError"));
    CHECK(denied(client.call("read", {{"file_path", (root.path() / "sub/in.txt").string()}})));
  }
}

TEST_CASE("client roots outside the server's roots leave nothing readable") {
  TempDir root, elsewhere;
  root.write("a.txt", "a\n");
  McpClient client({{root.path().string()}});
  client.initialize("2025-11-25", roots_capability);
  answer_roots(client, expect_roots_request(client), {elsewhere.path()});
  const json r = client.call("read", {{"file_path", (root.path() / "a.txt").string()}});
  CHECK(r["isError"] == true);
  CHECK(r["content"][0]["text"] == "No directory may be read: the client's roots leave no allowed "
                                   "directory. Add a root that contains the file.");
}

TEST_CASE("client roots replace the default root (the working directory)") {
  TempDir cwd, project;
  cwd.write("here.txt", "here\n");
  project.write("p.txt", "project\n");
  McpClient client({{}, cwd.path()});
  client.initialize("2025-11-25", roots_capability);
  answer_roots(client, expect_roots_request(client), {project.path()});
  CHECK_FALSE(client.call("read", {{"file_path", (project.path() / "p.txt").string()}}).contains("isError"));
  CHECK(denied(client.call("read", {{"file_path", (cwd.path() / "here.txt").string()}})));
}

TEST_CASE("a failing roots/list keeps the server's roots") {
  TempDir root;
  root.write("a.txt", "a\n");
  McpClient client({{root.path().string()}});
  client.initialize("2025-11-25", roots_capability);
  const json id = expect_roots_request(client);
  client.send({{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", -32601}, {"message", "no roots here"}}}});
  CHECK_FALSE(client.call("read", {{"file_path", "a.txt"}}).contains("isError"));
}

TEST_CASE("no roots capability, no roots/list request") {
  TempDir root;
  McpClient client({{root.path().string()}});
  client.initialize();
  CHECK(client.request("ping")["result"] == json::object());
  CHECK(client.others().empty());
}

TEST_CASE("the applied roots are reported to the client's log at info") {
  TempDir root;
  root.write("sub/x.txt", "x\n");
  McpClient client({{root.path().string()}});
  const json init = client.request("initialize", {{"protocolVersion", "2025-06-18"},
                                                  {"capabilities", roots_capability},
                                                  {"clientInfo", {{"name", "t"}, {"version", "1"}}}});
  REQUIRE(init.contains("result"));
  CHECK(client.request("logging/setLevel", {{"level", "info"}})["result"] == json::object());
  client.send({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
  answer_roots(client, expect_roots_request(client), {root.path() / "sub"});
  auto m = client.receive();
  REQUIRE(m);
  CHECK((*m)["method"] == "notifications/message");
  CHECK((*m)["params"]["level"] == "info");
  CHECK((*m)["params"]["data"] == "Client roots applied: reads are now confined to " + (root.path() / "sub").string());
}
