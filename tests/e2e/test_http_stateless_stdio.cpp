// The stateless requests of protocol 2026-07-28 over stdio, as the HTTP transport serves them:
// no initialize needed, the version in `_meta`, results marked complete.
#include "fixtures.hpp"
#include "mcp_client.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace mcpread::test;
using nlohmann::json;

TEST_CASE("stateless 2026-07-28 requests over stdio, as over http") {
  TempDir root;
  root.write("notes.txt", "alpha\nbeta\n");
  McpClient client({{root.path().string()}});

  SUBCASE("server/discover without initialize") {
    const json r = client.stateless_request("server/discover");
    REQUIRE(r.contains("result"));
    CHECK(r["result"]["resultType"] == "complete");
    CHECK(r["result"]["supportedVersions"] ==
          json::array({"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}));
    CHECK(r["result"]["capabilities"].contains("tools"));
  }
  SUBCASE("tools/call read") {
    const json r = client.stateless_request("tools/call", {{"name", "read"}, {"arguments", {{"file_path", "notes.txt"}}}});
    REQUIRE(r.contains("result"));
    CHECK(r["result"]["resultType"] == "complete");
    CHECK(r["result"]["content"][0]["text"].get<std::string>().rfind("     1\talpha\n     2\tbeta\n", 0) == 0);
  }
  SUBCASE("an unsupported version: -32022 listing the supported ones") {
    const json r = client.stateless_request("tools/list", json::object(), "1900-01-01");
    REQUIRE(r.contains("error"));
    CHECK(r["error"]["code"] == -32022);
    CHECK(r["error"]["message"] == "Unsupported protocol version: 1900-01-01");
    CHECK(r["error"]["data"]["requested"] == "1900-01-01");
    CHECK(r["error"]["data"]["supported"] ==
          json::array({"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}));
  }
  SUBCASE("stateless requests beside an initialized session") {
    client.initialize("2025-06-18");
    const json r = client.stateless_request("tools/list");
    REQUIRE(r.contains("result"));
    CHECK(r["result"]["resultType"] == "complete");
    CHECK(client.call("read", {{"file_path", "notes.txt"}})["content"][0]["text"].get<std::string>().rfind("     1\talpha", 0) == 0);
  }
}

TEST_CASE("subscriptions/listen over stdio: acknowledged, then closed with its result when input ends") {
  TempDir root;
  McpClient client({{root.path().string()}});
  const json meta{{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                  {"io.modelcontextprotocol/clientCapabilities", json::object()}};
  const long long id =
      client.send_request("subscriptions/listen", {{"_meta", meta}, {"notifications", {{"toolsListChanged", true}}}});
  const auto acknowledged = client.receive();
  REQUIRE(acknowledged);
  CHECK(*acknowledged == json{{"jsonrpc", "2.0"},
                              {"method", "notifications/subscriptions/acknowledged"},
                              {"params",
                               {{"_meta", {{"io.modelcontextprotocol/subscriptionId", id}}},
                                {"notifications", {{"toolsListChanged", true}}}}}});
  SUBCASE("the end of input: the stream's result, then the process exits 0") {
    client.close_stdin();
    const auto closing = client.wait_for_id(id);
    REQUIRE(closing);
    CHECK((*closing)["result"]["resultType"] == "complete");
    CHECK((*closing)["result"]["_meta"]["io.modelcontextprotocol/subscriptionId"] == id);
    const auto status = client.wait_exit();
    REQUIRE(status);
    CHECK(*status == 0);
  }
  SUBCASE("notifications/cancelled ends it without an answer; the session goes on") {
    client.send({{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", id}}}});
    const json r = client.stateless_request("server/discover");
    CHECK(r["result"]["capabilities"]["tools"] == json{{"listChanged", true}});
    client.close_stdin();
    CHECK_FALSE(client.receive(std::chrono::seconds(5)));  // EOF, with no closing result for a cancelled stream
    const auto status = client.wait_exit();
    REQUIRE(status);
    CHECK(*status == 0);
  }
}
