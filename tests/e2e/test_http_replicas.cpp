// --replica-id: every session id and task id starts with the replica's id, the key a load
// balancer routes a session or a task by (deploy/nginx/mcp-read.conf); a bad id is refused at start.
#include "fixtures.hpp"
#include "http_client.hpp"

#include <doctest/doctest.h>

#include <regex>
#include <string>

using namespace mcpread::test;
using namespace mcpread::test::http;
using nlohmann::json;

TEST_CASE("http: --replica-id starts every session id and task id") {
  TempDir root;
  root.write("a.txt", "alpha\n");
  ServerProcess server({root.path().string(), "--replica-id", "r2", "--task-after-ms", "0"});
  SUBCASE("Streamable HTTP sessions") {
    McpHttp mcp(server.port());
    const std::string id = mcp.initialize();
    CHECK(std::regex_match(id, std::regex("r2\\.[0-9a-f]{32}")));
    CHECK(mcp.request("ping").is_object());
    // A session another replica made is unknown here: 404, as for any ended session.
    Client other(server.port());
    const Reply r = other.send("POST", "/mcp", post_headers({{"Mcp-Session-Id", "r1.0123456789abcdef0123456789abcdef"},
                                                             {"MCP-Protocol-Version", "2025-11-25"}}),
                               R"({"jsonrpc":"2.0","id":1,"method":"ping"})");
    CHECK(r.status == 404);
  }
  SUBCASE("HTTP+SSE sessions") {
    Client stream(server.port());
    REQUIRE(stream.open("GET", "/sse", {{"Accept", "text/event-stream"}}).status == 200);
    const auto endpoint = stream.next_event(10s);
    REQUIRE(endpoint);
    CHECK(std::regex_match(endpoint->data, std::regex("/messages\\?sessionId=r2\\.[0-9a-f]{32}")));
  }
  SUBCASE("tasks (2026-07-28): the id tasks/get carries in Mcp-Name") {
    McpHttp mcp(server.port());
    json params = {{"name", "read"}, {"arguments", {{"file_path", "a.txt"}}}};
    params["_meta"]["io.modelcontextprotocol/clientCapabilities"] = {
        {"extensions", {{"io.modelcontextprotocol/tasks", json::object()}}}};
    const json created = mcp.stateless("tools/call", params).last()["result"];
    REQUIRE(created["resultType"] == "task");
    const std::string id = created["taskId"];
    CHECK(std::regex_match(id, std::regex("r2\\.[0-9a-f]{32}")));
    json get = {{"taskId", id}};
    get["_meta"] = params["_meta"];
    CHECK(mcp.stateless("tasks/get", get).last()["result"]["taskId"] == id);
  }
}

TEST_CASE("http: a --replica-id that cannot start a header value safely is refused") {
  TempDir root;
  for (const char* bad : {"a.b", "r 1", "", "r/1"}) {
    CAPTURE(bad);
    CHECK_THROWS_WITH_AS(ServerProcess({root.path().string(), "--replica-id", bad}),
                         doctest::Contains("exited with status 2"), std::runtime_error);
  }
}
