// Connections: keep-alive, many short-lived clients (each closing as soon as it has its answer),
// pipelined requests, and a client that goes away in the middle of a call.
#include "fixtures.hpp"
#include "http_client.hpp"
#include "pdf_fixtures.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace mcpread::test;
using namespace mcpread::test::http;
using nlohmann::json;

namespace {

const Headers discover_headers =
    post_headers({{"MCP-Protocol-Version", "2026-07-28"}, {"Mcp-Method", "server/discover"}});

// `count` occurrences of `needle` in `text`.
std::size_t occurrences(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + needle.size())) ++n;
  return n;
}

}  // namespace

TEST_CASE("http: one kept-alive connection carries many requests") {
  TempDir root;
  ServerProcess server({root.path().string()});
  McpHttp mcp(server.port());
  mcp.initialize();
  for (int i = 0; i < 50; ++i) CHECK(mcp.request("ping")["result"] == json::object());
}

TEST_CASE("http: short-lived clients, each closing once it has its answer") {
  TempDir root;
  ServerProcess server({root.path().string()});
  int answered = 0;
  for (int i = 0; i < 300; ++i) {
    Client client(server.port(), 5s);
    const Reply r = client.send("POST", "/mcp", discover_headers, discover_request(i));
    answered += r.status == 200 ? 1 : 0;
    // The client closes here, at once: often before the server has finished with the exchange.
  }
  CHECK(answered == 300);
  CHECK_FALSE(server.wait_exit(0ms));  // still running
  Client last(server.port(), 5s);
  CHECK(last.send("POST", "/mcp", discover_headers, discover_request(1)).status == 200);
}

TEST_CASE("http: pipelined requests are answered in order") {
  TempDir root;
  ServerProcess server({root.path().string()});
  const std::string one = discover_request(1);
  const std::string two = discover_request(2);
  auto request = [](const std::string& body, bool last) {
    std::string r = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json, text/event-stream\r\n"
                    "Content-Type: application/json\r\nMCP-Protocol-Version: 2026-07-28\r\n"
                    "Mcp-Method: server/discover\r\n";
    if (last) r += "Connection: close\r\n";
    return r + "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  };
  RawSocket socket(server.port());
  REQUIRE(socket.write(request(one, false) + request(two, true)));
  CHECK(socket.closed_within(10s));
  const std::string& answers = socket.received();
  CHECK(occurrences(answers, "HTTP/1.1 200 OK\r\n") == 2);
  const auto first = answers.find("\"id\":1");
  const auto second = answers.find("\"id\":2");
  CHECK(first != std::string::npos);
  CHECK(second != std::string::npos);
  CHECK(first < second);
}

TEST_CASE("http: a client that goes away during a call leaves the server serving") {
  TempDir root;
  root.write("deck.pdf", text_pdf(8));
  ServerProcess server({root.path().string()});
  McpHttp mcp(server.port());
  mcp.initialize();
  for (int i = 0; i < 5; ++i) {
    // A render that takes a while, abandoned as soon as its first progress event is out.
    Client client(server.port());
    const long long id = mcp.next_id("tools/call");
    const Reply head = client.open(
        "POST", "/mcp",
        post_headers({{"Mcp-Session-Id", mcp.session_id()}, {"MCP-Protocol-Version", mcp.version()}}),
        json{{"jsonrpc", "2.0"},
             {"id", id},
             {"method", "tools/call"},
             {"params",
              {{"name", "read"},
               {"arguments", {{"file_path", "deck.pdf"}, {"file_type", "image"}}},
               {"_meta", {{"progressToken", id}}}}}}
            .dump());
    CHECK(head.status == 200);
    CHECK(head.is_event_stream());
    const auto event = client.next_event(20s);
    REQUIRE(event);
    mcp.validate(json::parse(event->data));
    client.close();
  }
  CHECK(mcp.request("ping")["result"] == json::object());
  CHECK(mcp.call("read", {{"file_path", "deck.pdf"}, {"pages", "1"}})["content"][0]["text"].get<std::string>().find(
            "Page 1 of 8") != std::string::npos);
}
