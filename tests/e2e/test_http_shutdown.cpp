// Stopping the HTTP server: SIGTERM (or SIGINT) ends every open event stream properly (the
// chunked terminator, not a reset), and the process exits 0 within 5 s, whether the clients
// close their connections once the streams end or keep them (the server then waits a moment for
// them before it closes: a lingering close).
#include "fixtures.hpp"
#include "http_client.hpp"

#include <doctest/doctest.h>

#include <csignal>
#include <string>

using namespace mcpread::test;
using namespace mcpread::test::http;
using nlohmann::json;
using clock_type = std::chrono::steady_clock;

TEST_CASE("http: a signal ends the open streams and the process exits 0") {
  TempDir root;
  ServerProcess server({root.path().string()});
  McpHttp mcp(server.port());
  const std::string session = mcp.initialize();

  Client get_stream(server.port());
  REQUIRE(get_stream.open("GET", "/mcp", {{"Accept", "text/event-stream"}, {"Mcp-Session-Id", session}}).status == 200);
  Client sse_stream(server.port());
  REQUIRE(sse_stream.open("GET", "/sse", {{"Accept", "text/event-stream"}}).status == 200);
  const auto endpoint = sse_stream.next_event(10s);
  REQUIRE(endpoint);
  CHECK(endpoint->name == "endpoint");

  int sig = SIGTERM;
  std::string name = "SIGTERM";
  bool clients_close = true;
  SUBCASE("SIGTERM; the clients close their connections once the streams end") {}
  SUBCASE("SIGINT; the clients keep their connections") {
    sig = SIGINT;
    name = "SIGINT";
    clients_close = false;
  }
  const auto start = clock_type::now();
  server.signal(sig);

  CHECK_FALSE(get_stream.next_event(5s));
  CHECK_MESSAGE(get_stream.state() == StreamState::ended, "the GET stream was " << to_string(get_stream.state()));
  CHECK_FALSE(sse_stream.next_event(5s));
  CHECK_MESSAGE(sse_stream.state() == StreamState::ended, "the /sse stream was " << to_string(sse_stream.state()));
  if (clients_close) {
    get_stream.close();
    sse_stream.close();
    mcp.client().close();
  }

  const auto status = server.wait_exit(5s);
  REQUIRE_MESSAGE(status, "still running 5 s after " << name << "; stderr:\n" << server.stderr_text());
  CHECK(*status == 0);
  CHECK(clock_type::now() - start < 5s);
  CHECK(server.stderr_text().find(name + " received; shutting down") != std::string::npos);
}
