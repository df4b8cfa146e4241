// The GET stream of a Streamable HTTP session: one per session, the server's own requests
// (roots/list) travel on it, and protocol 2026-07-28 has none.
#include "fixtures.hpp"
#include "http_client.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace mcpread::test;
using namespace mcpread::test::http;
using nlohmann::json;

namespace {

Headers stream_headers(const std::string& session) {
  return {{"Accept", "text/event-stream"}, {"Mcp-Session-Id", session}};
}

bool denied(const json& result) {
  return result.value("isError", false) &&
         result["content"][0]["text"].get<std::string>().rfind("Access denied: ", 0) == 0;
}

}  // namespace

TEST_CASE("http: the GET stream of a session") {
  TempDir root;
  root.write("top.txt", "top\n");
  root.write("sub/in.txt", "inside\n");
  ServerProcess server({root.path().string()});
  McpHttp mcp(server.port());

  SUBCASE("GET opens an event stream; a second GET while it is open: 409") {
    const std::string session = mcp.initialize();
    Client stream(server.port());
    const Reply head = stream.open("GET", "/mcp", stream_headers(session));
    CHECK(head.status == 200);
    CHECK(head.is_event_stream());
    CHECK(head.header("Cache-Control") == "no-cache");
    CHECK(head.header("Transfer-Encoding") == "chunked");
    CHECK(stream.state() == StreamState::open);

    Client second(server.port());
    expect_rpc_error(second.send("GET", "/mcp", stream_headers(session)), 409, -32600,
                     "Conflict: this session's stream is already open; close it first");

    // Once the client closes it, the server notices, and a new GET is accepted.
    stream.close();
    CHECK(eventually([&] {
      Client again(server.port());
      return again.open("GET", "/mcp", stream_headers(session)).status == 200;
    }));
  }
  SUBCASE("GET refusals: no session id, an unknown one, an Accept without text/event-stream") {
    mcp.initialize();
    Client client(server.port());
    expect_rpc_error(client.send("GET", "/mcp", {{"Accept", "text/event-stream"}}), 400, -32600,
                     "Bad Request: no Mcp-Session-Id header; send initialize first, or give each request "
                     "_meta[\"io.modelcontextprotocol/protocolVersion\"]");
    expect_rpc_error(client.send("GET", "/mcp", stream_headers("ffffffffffffffffffffffffffffffff")), 404, -32600,
                     "Not Found: session ffffffffffffffffffffffffffffffff does not exist or has ended; send "
                     "initialize to start a new one");
    expect_rpc_error(client.send("GET", "/mcp", {{"Accept", "application/json"}, {"Mcp-Session-Id", mcp.session_id()}}),
                     406, -32600, "Not Acceptable: the Accept header must allow text/event-stream");
  }
  SUBCASE("DELETE of the session ends its open stream") {
    const std::string session = mcp.initialize();
    Client stream(server.port());
    REQUIRE(stream.open("GET", "/mcp", stream_headers(session)).status == 200);
    Client client(server.port());
    CHECK(client.send("DELETE", "/mcp", {{"Mcp-Session-Id", session}}).status == 200);
    CHECK_FALSE(stream.next_event(10s));
    CHECK(stream.state() == StreamState::ended);
  }
  SUBCASE("roots/list arrives on the GET stream; the client's answer narrows the roots") {
    const std::string session = mcp.initialize("2025-11-25", {{"roots", json::object()}});
    Client stream(server.port());
    REQUIRE(stream.open("GET", "/mcp", stream_headers(session)).status == 200);
    const auto event = stream.next_event(10s);
    REQUIRE_MESSAGE(event, "no roots/list request; stream " << to_string(stream.state()) << "; stderr:\n"
                                                            << server.stderr_text());
    CHECK(event->name == "message");
    const json request = json::parse(event->data);
    mcp.validate(request);
    CHECK(request["method"] == "roots/list");
    REQUIRE(request.contains("id"));

    const json roots = json::array({{{"uri", file_uri(root.path() / "sub")}, {"name", "sub"}}});
    const Exchange answer = mcp.post({{"jsonrpc", "2.0"}, {"id", request["id"]}, {"result", {{"roots", roots}}}});
    CHECK(answer.http.status == 202);
    CHECK(answer.http.body.empty());

    CHECK(denied(mcp.call("read", {{"file_path", (root.path() / "top.txt").string()}})));
    const json inside = mcp.call("read", {{"file_path", (root.path() / "sub/in.txt").string()}});
    CHECK_FALSE(inside.contains("isError"));
    CHECK(inside["content"][0]["text"].get<std::string>().rfind("     1\tinside\n", 0) == 0);
  }
  SUBCASE("protocol 2026-07-28: GET and DELETE are 405") {
    Client client(server.port());
    for (const char* method : {"GET", "DELETE"}) {
      CAPTURE(method);
      const Reply r = client.send(method, "/mcp", {{"Accept", "text/event-stream"}, {"MCP-Protocol-Version", "2026-07-28"}});
      CHECK(r.status == 405);
      CHECK(r.header("Allow") == "POST");
      CHECK(r.body.empty());
    }
  }
  SUBCASE("other methods: 405 naming the allowed ones") {
    Client client(server.port());
    const Reply r = client.send("PUT", "/mcp", {{"Content-Type", "application/json"}}, "{}");
    CHECK(r.status == 405);
    CHECK(r.header("Allow") == "GET, POST, DELETE");
  }
}
