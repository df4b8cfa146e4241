// The operator's endpoints over HTTP: /healthz, /readyz and /metrics (Prometheus text format),
// their access rules (--auth-token, --metrics-token), and what /metrics counts.
#include "fixtures.hpp"
#include "http_client.hpp"

#include <doctest/doctest.h>

#include <cstring>
#include <regex>
#include <set>
#include <sstream>
#include <string>

using namespace mcpread::test;
using namespace mcpread::test::http;
using nlohmann::json;

namespace {

const auto sample = metric_sample;

// Every line is a comment (# HELP / # TYPE) or a sample `name{label="v",...} number`, and every
// sample's family was declared by a # TYPE line first: the text format's grammar.
std::string format_problem(const std::string& metrics) {
  static const std::regex sample_line(
      R"(([a-zA-Z_:][a-zA-Z0-9_:]*)(\{([a-zA-Z_][a-zA-Z0-9_]*="[^"\\\n]*",?)*\})? (-?[0-9.e+-]+|\+Inf|NaN))");
  static const std::regex type_line(R"(# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram))");
  std::set<std::string> declared;
  std::istringstream lines(metrics);
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (line.starts_with("# HELP ")) continue;
    if (std::regex_match(line, m, type_line)) {
      declared.insert(m[1]);
      continue;
    }
    if (!std::regex_match(line, m, sample_line)) return "not a sample: " + line;
    std::string family = m[1];
    for (const char* suffix : {"_bucket", "_sum", "_count"})
      if (family.ends_with(suffix) && declared.count(family.substr(0, family.size() - std::strlen(suffix))))
        family = family.substr(0, family.size() - std::strlen(suffix));
    if (!declared.count(family)) return "no # TYPE before: " + line;
  }
  return metrics.ends_with("\n") ? "" : "no final line break";
}

}  // namespace

TEST_CASE("http: /healthz, /readyz and /metrics") {
  TempDir root;
  root.write("a.txt", "alpha\n");
  ServerProcess server({root.path().string()});
  Client ops(server.port());

  SUBCASE("health and readiness answer in plain text") {
    const Reply health = ops.send("GET", "/healthz");
    CHECK(health.status == 200);
    CHECK(health.body == "ok\n");
    const Reply ready = ops.send("GET", "/readyz");
    CHECK(ready.status == 200);
    CHECK(ready.body == "ready\n");
    CHECK(ops.send("POST", "/healthz", {{"Content-Type", "text/plain"}}, "x").status == 405);
  }
  SUBCASE("/metrics counts MCP exchanges by route, method and outcome") {
    McpHttp mcp(server.port());
    mcp.initialize();
    mcp.call("read", {{"file_path", "a.txt"}});
    mcp.call("read", {{"file_path", "a.txt"}});
    mcp.call("read", {{"file_path", "missing.txt"}});
    // A stateless request names its method in Mcp-Method; a made-up method is counted as "other".
    Client raw(server.port());
    const Reply bad = raw.send("POST", "/mcp", post_headers({{"Mcp-Method", "no/such-method"}}), "{");
    CHECK(bad.status == 400);

    const Reply m = ops.send("GET", "/metrics");
    REQUIRE(m.status == 200);
    CHECK(m.header("Content-Type") == "text/plain; version=0.0.4; charset=utf-8");
    CHECK(format_problem(m.body) == "");
    CHECK(sample(m.body, R"(mcpread_http_requests_total{route="/mcp",method="tools/call",outcome="2xx"})") == 3);
    CHECK(sample(m.body, R"(mcpread_http_requests_total{route="/mcp",method="other",outcome="4xx"})") == 1);
    CHECK(sample(m.body, R"(mcpread_http_request_duration_seconds_count{route="/mcp",method="tools/call"})") == 3);
    CHECK(sample(m.body, R"(mcpread_http_request_duration_seconds_bucket{route="/mcp",method="tools/call",le="+Inf"})") ==
          sample(m.body, R"(mcpread_http_request_duration_seconds_count{route="/mcp",method="tools/call"})"));
    CHECK(sample(m.body, "mcpread_sessions_open") == 1);
    CHECK(sample(m.body, "mcpread_ready") == 1);
    CHECK(sample(m.body, "mcpread_http_requests_in_flight") == 0);
    CHECK(sample(m.body, "mcpread_http_response_bytes_total") > 0);
    // What the tool host reports: reads by kind and outcome, its queue and calls running.
    CHECK(sample(m.body, R"(mcpread_read_calls_total{kind="text",outcome="ok"})") == 2);
    CHECK(sample(m.body, R"(mcpread_read_calls_total{kind="none",outcome="error"})") == 1);
    CHECK(sample(m.body, "mcpread_worker_queue_depth") == 0);
    CHECK(sample(m.body, "mcpread_calls_in_flight") == 0);
    // The operator's own requests are not counted as MCP traffic.
    CHECK(m.body.find("route=\"/metrics\"") == std::string::npos);
  }
}

TEST_CASE("http: the operator's endpoints follow the access rules") {
  TempDir root;
  SUBCASE("--auth-token alone guards them too") {
    ServerProcess server({root.path().string(), "--auth-token", "s3cret"});
    Client c(server.port());
    CHECK(c.send("GET", "/metrics").status == 401);
    CHECK(c.send("GET", "/healthz", {{"Authorization", "Bearer s3cret"}}).status == 200);
  }
  SUBCASE("--metrics-token: a scraper's token opens them, and only them") {
    ServerProcess server({root.path().string(), "--auth-token", "s3cret", "--metrics-token", "scrape"});
    Client c(server.port());
    CHECK(c.send("GET", "/metrics", {{"Authorization", "Bearer scrape"}}).status == 200);
    CHECK(c.send("GET", "/readyz", {{"Authorization", "Bearer scrape"}}).status == 200);
    CHECK(c.send("GET", "/metrics", {{"Authorization", "Bearer s3cret"}}).status == 401);
    const Reply mcp = c.send("POST", "/mcp", post_headers({{"Authorization", "Bearer scrape"}}),
                             R"({"jsonrpc":"2.0","id":1,"method":"ping"})");
    CHECK(mcp.status == 401);
  }
  SUBCASE("a foreign Host is refused (DNS rebinding)") {
    ServerProcess server({root.path().string()});
    Client c(server.port());
    CHECK(c.send("GET", "/metrics", {{"Host", "evil.example.com"}}).status == 403);
  }
}
