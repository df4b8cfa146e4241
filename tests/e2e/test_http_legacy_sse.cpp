// The legacy HTTP+SSE transport (protocol 2024-11-05): GET /sse opens the session's stream and
// names the URL to POST to; every answer travels on the stream, the POSTs are only acknowledged.
#include "fixtures.hpp"
#include "http_client.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace mcpread::test;
using namespace mcpread::test::http;
using nlohmann::json;

namespace {

constexpr std::string_view endpoint_prefix = "/messages?sessionId=";

// The next message on the stream, validated.
json next_message(Client& stream, McpHttp& validator) {
  const auto event = stream.next_event(20s);
  REQUIRE_MESSAGE(event, "no event; the stream " << to_string(stream.state()));
  CHECK(event->name == "message");
  const json message = json::parse(event->data);
  validator.validate(message);
  return message;
}

}  // namespace

TEST_CASE("http: the legacy HTTP+SSE transport") {
  TempDir root;
  root.write("notes.txt", "alpha\nbeta\n");
  ServerProcess server({root.path().string()});
  McpHttp validator(server.port());  // validates what arrives on the stream, by request id

  Client stream(server.port());
  const Reply head = stream.open("GET", "/sse", {{"Accept", "text/event-stream"}});
  REQUIRE(head.status == 200);
  CHECK(head.is_event_stream());
  const auto endpoint = stream.next_event(10s);
  REQUIRE(endpoint);
  CHECK(endpoint->name == "endpoint");
  REQUIRE(endpoint->data.rfind(endpoint_prefix, 0) == 0);
  const std::string session = endpoint->data.substr(endpoint_prefix.size());
  CHECK(session.size() == 32);
  const std::string url = endpoint->data;

  Client poster(server.port());
  auto post = [&](const json& message) {
    return poster.send("POST", url, {{"Content-Type", "application/json"}}, message.dump());
  };

  const long long init = validator.next_id("initialize");
  Reply r = post({{"jsonrpc", "2.0"},
                  {"id", init},
                  {"method", "initialize"},
                  {"params",
                   {{"protocolVersion", "2024-11-05"},
                    {"capabilities", json::object()},
                    {"clientInfo", {{"name", "mcpread-http-e2e"}, {"version", "1.0"}}}}}});
  CHECK(r.status == 202);
  CHECK(r.body.empty());
  const json initialized = next_message(stream, validator);
  CHECK(initialized["id"] == init);
  REQUIRE(initialized.contains("result"));
  CHECK(initialized["result"]["protocolVersion"] == "2024-11-05");
  validator.set_session({}, "2024-11-05");
  CHECK(post({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}).status == 202);

  SUBCASE("tools/call read: the result arrives on the stream") {
    const long long id = validator.next_id("tools/call");
    r = post({{"jsonrpc", "2.0"},
              {"id", id},
              {"method", "tools/call"},
              {"params", {{"name", "read"}, {"arguments", {{"file_path", "notes.txt"}}}}}});
    CHECK(r.status == 202);
    const json answer = next_message(stream, validator);
    CHECK(answer["id"] == id);
    CHECK(answer["result"]["content"][0]["text"].get<std::string>().rfind("     1\talpha\n     2\tbeta\n", 0) == 0);
  }
  SUBCASE("errors arrive on the stream too") {
    const long long id = validator.next_id("prompts/list");
    CHECK(post({{"jsonrpc", "2.0"}, {"id", id}, {"method", "prompts/list"}}).status == 202);
    const json answer = next_message(stream, validator);
    CHECK(answer["id"] == id);
    CHECK(answer["error"]["code"] == -32601);
  }
  SUBCASE("a POST to an unknown sessionId: 404") {
    const Reply unknown = poster.send("POST", std::string(endpoint_prefix) + "00000000000000000000000000000000",
                                      {{"Content-Type", "application/json"}},
                                      json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "ping"}}.dump());
    expect_rpc_error(unknown, 404, -32600,
                     "Not Found: session 00000000000000000000000000000000 does not exist or its stream has closed; "
                     "open a new one with GET /sse");
  }
  SUBCASE("a POST without a sessionId: 400; one that is not JSON: 415") {
    expect_rpc_error(poster.send("POST", "/messages", {{"Content-Type", "application/json"}}, "{}"), 400, -32600,
                     "Bad Request: no sessionId; POST to the URL of the stream's endpoint event");
    expect_rpc_error(poster.send("POST", url, {{"Content-Type", "text/plain"}}, "{}"), 415, -32600,
                     "Unsupported Media Type: the body must be application/json");
  }
  SUBCASE("once the client closes the stream, its sessionId is unknown") {
    stream.close();
    const std::string gone = "Not Found: session " + session +
                             " does not exist or its stream has closed; open a new one with GET /sse";
    Reply last;
    CHECK(eventually([&] {
      last = post({{"jsonrpc", "2.0"}, {"id", 99}, {"method", "ping"}});
      return last.status == 404;
    }));
    expect_rpc_error(last, 404, -32600, gone);
  }
}
