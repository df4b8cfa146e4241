// --replica-id: every session id starts with the replica's id, the key a load balancer routes a
// session by (deploy/nginx/mcp-read.conf); a bad id is refused at start.
#include "fixtures.hpp"
#include "http_client.hpp"

#include <doctest/doctest.h>

#include <regex>
#include <string>

using namespace mcpread::test;
using namespace mcpread::test::http;
using nlohmann::json;

TEST_CASE("http: --replica-id starts every session id") {
  TempDir root;
  ServerProcess server({root.path().string(), "--replica-id", "r2"});
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
}

TEST_CASE("http: a --replica-id that cannot start a header value safely is refused") {
  TempDir root;
  for (const char* bad : {"a.b", "r 1", "", "r/1"}) {
    CAPTURE(bad);
    CHECK_THROWS_WITH_AS(ServerProcess({root.path().string(), "--replica-id", bad}),
                         doctest::Contains("exited with status 2"), std::runtime_error);
  }
}
