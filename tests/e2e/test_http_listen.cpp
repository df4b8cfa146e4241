// subscriptions/listen over Streamable HTTP (2026-07-28): the POST's answer is an event stream
// that opens with the acknowledgment, carries the list changes the client asked for (made by a
// request on another connection), tagged with the stream's id, and ends with the listen
// request's result when the server shuts down. The conformance fixture has the tools that change
// its lists; mcp-read declares its tool list subscribable. Every message is schema-validated.
#include "fixtures.hpp"
#include "http_client.hpp"

#include <doctest/doctest.h>

#include <csignal>
#include <string>

using namespace mcpread::test;
using namespace mcpread::test::http;
using nlohmann::json;

namespace {

constexpr const char* sid = "io.modelcontextprotocol/subscriptionId";

json meta() {
  return json{{"io.modelcontextprotocol/protocolVersion", stateless_version},
              {"io.modelcontextprotocol/clientCapabilities", json::object()}};
}

// Opens a listen stream on `client`; the answer's head must be an event stream.
void open_listen(Client& client, const json& id, const json& notifications) {
  const json body{{"jsonrpc", "2.0"},
                  {"id", id},
                  {"method", "subscriptions/listen"},
                  {"params", {{"_meta", meta()}, {"notifications", notifications}}}};
  const Reply head = client.open("POST", "/mcp",
                                 {{"Content-Type", "application/json"},
                                  {"Accept", "application/json, text/event-stream"},
                                  {"MCP-Protocol-Version", stateless_version},
                                  {"Mcp-Method", "subscriptions/listen"}},
                                 body.dump());
  REQUIRE(head.status == 200);
  REQUIRE(head.is_event_stream());
}

// The next message of a listen stream, validated (`final`: as the listen request's result).
json next_message(Client& client, bool final = false) {
  const auto event = client.next_event(20s);
  REQUIRE_MESSAGE(event, "the listen stream stopped: " << to_string(client.state()));
  const json message = json::parse(event->data);
  validate_server_message(stateless_version, message, final ? "subscriptions/listen" : "");
  return message;
}

json ack(const json& id, json agreed) {
  return json{{"jsonrpc", "2.0"},
              {"method", "notifications/subscriptions/acknowledged"},
              {"params", {{"_meta", {{sid, id}}}, {"notifications", std::move(agreed)}}}};
}

json changed(const std::string& list, const json& id) {
  return json{{"jsonrpc", "2.0"}, {"method", "notifications/" + list + "/list_changed"}, {"params", {{"_meta", {{sid, id}}}}}};
}

void trigger(McpHttp& mcp, const std::string& tool) {
  const Exchange e = mcp.stateless("tools/call", {{"name", tool}, {"arguments", json::object()}});
  REQUIRE(e.http.status == 200);
  REQUIRE(e.last().contains("result"));
  CHECK_FALSE(e.last()["result"].value("isError", false));
}

// SIGTERM: the stream ends with the listen request's result, then the chunked terminator; the
// process exits 0.
void shutdown_closes(ServerProcess& server, Client& stream, const json& id, const std::string& server_name) {
#if defined(_WIN32)
  // A console event would stop it (tests/windows/test_console.cpp), but Wine 8 sends none.
  (void)server, (void)stream, (void)id, (void)server_name;
  MESSAGE("skipped on Windows: the shutdown that ends a listen stream is started by SIGTERM");
  return;
#endif
  server.signal(SIGTERM);
  const json last = next_message(stream, true);
  CHECK(last["id"] == id);
  CHECK(last["result"]["resultType"] == "complete");
  CHECK(last["result"]["_meta"][sid] == id);
  CHECK(last["result"]["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == server_name);
  CHECK_FALSE(stream.next_event(5s));
  CHECK_MESSAGE(stream.state() == StreamState::ended, "the listen stream was " << to_string(stream.state()));
  stream.close();
  const auto status = server.wait_exit(5s);
  REQUIRE_MESSAGE(status, "still running 5 s after SIGTERM; stderr:\n" << server.stderr_text());
  CHECK(*status == 0);
}

}  // namespace

TEST_CASE("http listen: a change made on another connection arrives on the stream that asked for it") {
  ServerProcess server({}, {}, MCPREAD_FIXTURE_BINARY);
  Client tools_stream(server.port());
  open_listen(tools_stream, 1700000000001, {{"toolsListChanged", true}});
  CHECK(next_message(tools_stream) == ack(1700000000001, {{"toolsListChanged", true}}));
  Client prompts_stream(server.port());
  open_listen(prompts_stream, "prompts", {{"promptsListChanged", true}});
  CHECK(next_message(prompts_stream) == ack("prompts", {{"promptsListChanged", true}}));

  McpHttp mcp(server.port());
  trigger(mcp, "test_trigger_tool_change");
  CHECK(next_message(tools_stream) == changed("tools", 1700000000001));
  trigger(mcp, "test_trigger_prompt_change");
  // The prompts stream's first change is the prompt change: the tool change never went there.
  CHECK(next_message(prompts_stream) == changed("prompts", "prompts"));

  SUBCASE("a stream the client closed is dropped; the others go on") {
    prompts_stream.close();
    trigger(mcp, "test_trigger_prompt_change");
    trigger(mcp, "test_trigger_tool_change");
    CHECK(next_message(tools_stream) == changed("tools", 1700000000001));
  }
  SUBCASE("shutdown ends the stream with the listen request's result") {
    prompts_stream.close();
    shutdown_closes(server, tools_stream, 1700000000001, "mcp-read-conformance-fixture");
  }
}

TEST_CASE("http listen: mcp-read's tool list is subscribable from 2026-07-28") {
  TempDir root;
  ServerProcess server({root.path().string()});
  McpHttp mcp(server.port());
  const Exchange discover = mcp.stateless("server/discover");
  CHECK(discover.last()["result"]["capabilities"]["tools"] == json{{"listChanged", true}});

  Client stream(server.port());
  open_listen(stream, 7, {{"toolsListChanged", true}, {"promptsListChanged", true}, {"resourcesListChanged", true}});
  // It has no prompts and its resource list is not followed: only the tool list is agreed to.
  CHECK(next_message(stream) == ack(7, {{"toolsListChanged", true}}));
  shutdown_closes(server, stream, 7, "mcp-read");
}

TEST_CASE("http listen: a malformed filter is refused with 400 and -32602") {
  TempDir root;
  ServerProcess server({root.path().string()});
  McpHttp mcp(server.port());
  const Exchange e = mcp.stateless("subscriptions/listen", {{"notifications", {{"toolsListChanged", 1}}}});
  CHECK(e.http.status == 400);
  CHECK(e.last()["error"]["code"] == -32602);
  CHECK(e.last()["error"]["message"] == "Invalid params: notifications.toolsListChanged must be a boolean");
}
