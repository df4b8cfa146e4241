// Stopping the HTTP server: SIGTERM (or SIGINT) ends every open event stream properly (the
// chunked terminator, not a reset), and the process exits 0 within 5 s, whether the clients
// close their connections once the streams end or keep them (the server then waits a moment for
// them before it closes: a lingering close). SIGTERM drains first: /readyz fails, new work is
// refused with 503, and the calls in flight finish (up to --drain-seconds) before the exit.
#include "fixtures.hpp"
#include "http_client.hpp"

#include <doctest/doctest.h>

#include <csignal>
#include <sstream>
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
  CHECK(server.stderr_text().find(name + " received; draining") != std::string::npos);
  CHECK(server.stderr_text().find("drained: no exchange in flight; shutting down") != std::string::npos);
}

namespace {

// The value of the unlabelled sample `name` in a /metrics text, or -1 when absent.
double gauge(const std::string& metrics, const std::string& name) {
  std::istringstream lines(metrics);
  for (std::string line; std::getline(lines, line);)
    if (line.starts_with(name + " ")) return std::stod(line.substr(name.size() + 1));
  return -1;
}

const std::string draining_message =
    "Service Unavailable: the server is shutting down; send the request to another replica (a session of "
    "this server ends with it: initialize again)";

// A session's tools/call of read, written on a socket of its own so that the test goes on while
// the call waits.
std::string read_call_request(const std::string& session) {
  const std::string body =
      R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"read","arguments":{"file_path":"a.txt"}}})";
  return "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
         "Accept: application/json, text/event-stream\r\nMcp-Session-Id: " + session +
         "\r\nMCP-Protocol-Version: 2025-11-25\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

}  // namespace

TEST_CASE("http: SIGTERM drains: the call in flight finishes, new work gets 503, then the process exits 0") {
  TempDir root;
  root.write("a.txt", "alpha\n");
  std::string drain_seconds = "30";
  bool answer_roots = true;
  SUBCASE("the call finishes within --drain-seconds") {}
  SUBCASE("the call outlasts --drain-seconds: it is cancelled and the process exits anyway") {
    drain_seconds = "1";
    answer_roots = false;
  }
  // A read waits for the client's roots: holding the roots/list answer back holds the read.
  ServerProcess server({root.path().string(), "--roots-wait-ms", "60000", "--drain-seconds", drain_seconds});
  McpHttp mcp(server.port());
  const std::string session = mcp.initialize("2025-11-25", {{"roots", json::object()}});
  Client stream(server.port());
  REQUIRE(stream.open("GET", "/mcp", {{"Accept", "text/event-stream"}, {"Mcp-Session-Id", session}}).status == 200);
  const auto event = stream.next_event(10s);
  REQUIRE(event);
  const json roots_list = json::parse(event->data);
  REQUIRE(roots_list["method"] == "roots/list");

  RawSocket call(server.port());
  REQUIRE(call.write(read_call_request(session)));
  Client ops(server.port());
  REQUIRE(eventually([&] { return gauge(ops.send("GET", "/metrics").body, "mcpread_http_requests_in_flight") == 1; }));
  REQUIRE(eventually([&] { return gauge(ops.send("GET", "/metrics").body, "mcpread_calls_in_flight") == 1; }));

  server.signal(SIGTERM);
  REQUIRE(eventually([&] { return ops.send("GET", "/readyz").status == 503; }));
  CHECK(ops.send("GET", "/readyz").body == "draining\n");
  CHECK(ops.send("GET", "/healthz").status == 200);
  CHECK(gauge(ops.send("GET", "/metrics").body, "mcpread_ready") == 0);

  // New work is refused: a request in the session, a new session, a stateless request, a stream.
  const Exchange ping = mcp.post({{"jsonrpc", "2.0"}, {"id", mcp.next_id("ping")}, {"method", "ping"}});
  expect_rpc_error(ping.http, 503, -32600, draining_message);
  CHECK(ping.http.header("Retry-After") == "1");
  CHECK(ping.http.header("Connection") == "close");
  McpHttp fresh(server.port());
  const Exchange init = fresh.post({{"jsonrpc", "2.0"}, {"id", fresh.next_id("initialize")}, {"method", "initialize"},
                                    {"params", {{"protocolVersion", "2025-11-25"}, {"capabilities", json::object()},
                                                {"clientInfo", {{"name", "t"}, {"version", "1"}}}}}});
  expect_rpc_error(init.http, 503, -32600, draining_message);
  CHECK(fresh.stateless("tools/list").http.status == 503);
  Client second_stream(server.port());
  CHECK(second_stream.send("GET", "/sse", {{"Accept", "text/event-stream"}}).status == 503);

  if (answer_roots) {
    // What finishes the work in flight still passes: the answer to the server's roots/list.
    const json roots = json::array({{{"uri", file_uri(root.path())}, {"name", "root"}}});
    const Exchange answer = mcp.post({{"jsonrpc", "2.0"}, {"id", roots_list["id"]}, {"result", {{"roots", roots}}}});
    CHECK(answer.http.status == 202);
  }
  CHECK(call.closed_within(20s));
  if (answer_roots) {
    CHECK(call.received().starts_with("HTTP/1.1 200 OK\r\n"));
    CHECK(call.received().find(R"(     1\talpha\n)") != std::string::npos);
  }

  const auto status = server.wait_exit(20s);
  REQUIRE_MESSAGE(status, "still running after the drain; stderr:\n" << server.stderr_text());
  CHECK(*status == 0);
  const std::string log = server.stderr_text();
  CHECK(log.find("SIGTERM received; draining: new requests are refused, 1 exchange(s) in flight get up to " +
                 drain_seconds + " s") != std::string::npos);
  CHECK(log.find(answer_roots ? "drained: no exchange in flight; shutting down"
                              : "drain time over with 1 exchange(s) in flight; cancelling them and shutting down") !=
        std::string::npos);
}
