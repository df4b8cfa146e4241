// Who may talk to the HTTP server, and how much: Host and Origin checks (DNS rebinding), CORS,
// the bearer token, the body and header limits, and the cut of clients that send too slowly.
#include "fixtures.hpp"
#include "http_client.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace mcpread::test;
using namespace mcpread::test::http;
using nlohmann::json;
using clock_type = std::chrono::steady_clock;

namespace {

// A stateless server/discover (it needs no session) with these extra headers.
Reply discover(Client& client, const Headers& extra = {}) {
  Headers headers = post_headers({{"MCP-Protocol-Version", "2026-07-28"}, {"Mcp-Method", "server/discover"}});
  headers.insert(headers.end(), extra.begin(), extra.end());
  return client.send("POST", "/mcp", headers, discover_request());
}

void check_served(const Reply& r) {
  CHECK(r.status == 200);
  const json body = r.json();
  validate_server_message("2026-07-28", body, "server/discover");
  CHECK(body["result"]["resultType"] == "complete");
}

// A whole exchange on a raw socket: the request asks the server to close, so the answer is
// everything received until then.
std::string raw_exchange(unsigned short port, const std::string& request) {
  RawSocket socket(port);
  socket.write(request);
  CHECK_MESSAGE(socket.closed_within(5s), "the server kept the connection open");
  return socket.received();
}

void check_token_required(ServerProcess& server) {
  Client client(server.port());
  const std::string www = "Bearer realm=\"mcp-read\"";
  Reply r = discover(client);
  expect_rpc_error(r, 401, -32600, "Unauthorized: send \"Authorization: Bearer <token>\"");
  CHECK(r.header("WWW-Authenticate") == www);
  r = discover(client, {{"Authorization", "Basic czNjcmV0"}});
  expect_rpc_error(r, 401, -32600, "Unauthorized: send \"Authorization: Bearer <token>\"");
  r = discover(client, {{"Authorization", "Bearer wrong"}});
  expect_rpc_error(r, 401, -32600, "Unauthorized: the bearer token is not valid");
  CHECK(r.header("WWW-Authenticate") == www);
  r = discover(client, {{"Authorization", "Bearer s3cret-and-more"}});
  expect_rpc_error(r, 401, -32600, "Unauthorized: the bearer token is not valid");
  check_served(discover(client, {{"Authorization", "Bearer s3cret"}}));
  check_served(discover(client, {{"Authorization", "bearer s3cret"}}));  // the scheme is case-insensitive
  // Every endpoint is behind the token, the legacy one too.
  expect_rpc_error(client.send("GET", "/sse", {{"Accept", "text/event-stream"}}), 401, -32600,
                   "Unauthorized: send \"Authorization: Bearer <token>\"");
  // A client that sends it has a working session.
  McpHttp mcp(server.port(), {{"Authorization", "Bearer s3cret"}});
  mcp.initialize();
  CHECK(mcp.call("read", {{"file_path", "notes.txt"}})["content"][0]["text"].get<std::string>().rfind("     1\tnote\n", 0) == 0);
}

}  // namespace

TEST_CASE("http: Host and Origin checks, CORS") {
  TempDir root;
  ServerProcess server({root.path().string(), "--allow-origin", "https://app.example"});
  Client client(server.port());
  const std::string port = std::to_string(server.port());

  SUBCASE("Host evil.example.com: 403") {
    expect_rpc_error(discover(client, {{"Host", "evil.example.com"}}), 403, -32600,
                     "Forbidden: Host 'evil.example.com' is not a loopback name; this server listens on loopback "
                     "only (DNS rebinding protection)");
  }
  SUBCASE("loopback Host names are served") {
    for (const std::string& host : std::vector<std::string>{"localhost:" + port, "127.0.0.1:" + port, "[::1]:" + port, "LOCALHOST"}) {
      CAPTURE(host);
      check_served(discover(client, {{"Host", host}}));
    }
  }
  SUBCASE("no Host header: 400") {
    const std::string answer =
        raw_exchange(server.port(), "POST /mcp HTTP/1.1\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
    CHECK(answer.rfind("HTTP/1.1 400 Bad Request\r\n", 0) == 0);
    const auto body = answer.find("\r\n\r\n");
    REQUIRE(body != std::string::npos);
    const json error = json::parse(answer.substr(body + 4));
    validate_server_message("2025-11-25", error);
    CHECK(error["error"]["code"] == -32600);
    CHECK(error["error"]["message"] == "Bad Request: the Host header is missing");
  }
  SUBCASE("Origin http://evil.example.com: 403, without CORS headers") {
    const Reply r = discover(client, {{"Origin", "http://evil.example.com"}});
    expect_rpc_error(r, 403, -32600,
                     "Forbidden: Origin 'http://evil.example.com' is not allowed; start the server with "
                     "--allow-origin http://evil.example.com to accept it");
    CHECK_FALSE(r.has_header("Access-Control-Allow-Origin"));
  }
  SUBCASE("Origin http://localhost:1234: served, Access-Control-Allow-Origin echoes it") {
    const Reply r = discover(client, {{"Origin", "http://localhost:1234"}});
    check_served(r);
    CHECK(r.header("Access-Control-Allow-Origin") == "http://localhost:1234");
    CHECK(r.header("Access-Control-Expose-Headers") == "Mcp-Session-Id, WWW-Authenticate");
    CHECK(r.header("Vary") == "Origin");
  }
  SUBCASE("the --allow-origin origin is served") {
    const Reply r = discover(client, {{"Origin", "https://app.example"}});
    check_served(r);
    CHECK(r.header("Access-Control-Allow-Origin") == "https://app.example");
    expect_rpc_error(discover(client, {{"Origin", "https://other.example"}}), 403, -32600,
                     "Forbidden: Origin 'https://other.example' is not allowed; start the server with "
                     "--allow-origin https://other.example to accept it");
  }
  SUBCASE("an OPTIONS preflight: 204 with the allowed methods and headers") {
    const Reply r = client.send("OPTIONS", "/mcp",
                                {{"Origin", "https://app.example"},
                                 {"Access-Control-Request-Method", "POST"},
                                 {"Access-Control-Request-Headers", "content-type, mcp-session-id"}});
    CHECK(r.status == 204);
    CHECK(r.body.empty());
    CHECK(r.header("Access-Control-Allow-Methods") == "GET, POST, DELETE, OPTIONS");
    CHECK(r.header("Access-Control-Allow-Headers") ==
          "Content-Type, Accept, Authorization, Mcp-Session-Id, MCP-Protocol-Version, Mcp-Method, Mcp-Name, "
          "Last-Event-ID");
    CHECK(r.header("Access-Control-Max-Age") == "86400");
    CHECK(r.header("Access-Control-Allow-Origin") == "https://app.example");
  }
  SUBCASE("an unknown path: 404 naming the endpoints") {
    expect_rpc_error(client.send("GET", "/other"), 404, -32600,
                     "Not Found: /other; MCP is served at /mcp (Streamable HTTP) and /sse (HTTP+SSE)");
  }
}

TEST_CASE("http: the bearer token") {
  TempDir root;
  root.write("notes.txt", "note\n");
  SUBCASE("from --auth-token") {
    ServerProcess server({root.path().string(), "--auth-token", "s3cret"});
    check_token_required(server);
  }
  SUBCASE("from MCP_READ_AUTH_TOKEN") {
    ServerProcess server({root.path().string()}, {"MCP_READ_AUTH_TOKEN=s3cret"});
    check_token_required(server);
  }
}

TEST_CASE("http: request size limits") {
  TempDir root;
  ServerProcess server({root.path().string(), "--max-body-bytes", "2048"});

  SUBCASE("a 10 KB body: 413, and the connection closes") {
    Client client(server.port());
    const std::string body =
        json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "ping"}, {"params", {{"padding", std::string(10 * 1024, 'x')}}}}
            .dump();
    const Reply r = client.send("POST", "/mcp", post_headers(), body);
    CHECK(r.status == 413);
    CHECK(r.header("Connection") == "close");
    CHECK(r.header("Content-Type") == "text/plain; charset=utf-8");
    CHECK(r.body == "Payload Too Large: the body exceeds 2048 bytes (--max-body-bytes)\n");
    check_served(discover(client));  // a new connection is served
  }
  SUBCASE("a body within the limit is served") {
    Client client(server.port());
    check_served(discover(client));
  }
  SUBCASE("a 20 KB header: 431") {
    const std::string answer = raw_exchange(
        server.port(), "GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + std::string(20 * 1024, 'a') + "\r\n\r\n");
    CHECK(answer.rfind("HTTP/1.1 431 Request Header Fields Too Large\r\n", 0) == 0);
    CHECK(answer.ends_with("\r\n\r\nRequest Header Fields Too Large\n"));
  }
  SUBCASE("a request that is not HTTP: 400, then the connection closes") {
    const std::string answer = raw_exchange(server.port(), "HELLO\x01 / HTTP/1.1\r\n\r\n");
    CHECK(answer.rfind("HTTP/1.1 400 Bad Request\r\n", 0) == 0);
    CHECK(answer.find("\r\n\r\nBad Request: ") != std::string::npos);
  }
}

TEST_CASE("http: a client that stops mid-header is cut after --idle-timeout-s while others are served") {
  TempDir root;
  ServerProcess server({root.path().string(), "--idle-timeout-s", "1"});
  const auto start = clock_type::now();
  RawSocket slow(server.port());
  REQUIRE(slow.write("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-"));

  McpHttp mcp(server.port());
  mcp.initialize();
  const auto before_ping = clock_type::now();
  CHECK(mcp.request("ping")["result"] == json::object());
  CHECK(clock_type::now() - before_ping < 500ms);
  CHECK_FALSE(slow.closed_within(0ms));  // the ping was answered while the slow client waited

  CHECK(slow.closed_within(5s));
  const auto elapsed = clock_type::now() - start;
  CHECK(elapsed >= 900ms);
  CHECK(elapsed < 5s);
  CHECK(slow.received().empty());  // cut without an answer
}

TEST_CASE("http: --host 0.0.0.0 accepts any Host name but still checks Origin") {
  TempDir root;
  ServerProcess server({root.path().string(), "--host", "0.0.0.0"});
  Client client(server.port());
  check_served(discover(client, {{"Host", "any.name:" + std::to_string(server.port())}}));
  check_served(discover(client, {{"Host", "any.name"}, {"Origin", "http://localhost:3000"}}));
  expect_rpc_error(discover(client, {{"Host", "any.name"}, {"Origin", "http://evil.example.com"}}), 403, -32600,
                   "Forbidden: Origin 'http://evil.example.com' is not allowed; start the server with "
                   "--allow-origin http://evil.example.com to accept it");
  CHECK(server.stderr_text().find("listening on 0.0.0.0 without --auth-token: anyone who can reach it can read the roots") !=
        std::string::npos);
}
