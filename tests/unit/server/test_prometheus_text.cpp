// Prometheus's text format as /metrics writes it (http/prometheus_text.hpp).
#include "http/prometheus_text.hpp"

#include <doctest/doctest.h>

#include <string>

namespace prometheus = mcpread::server::http::prometheus;

TEST_CASE("prometheus text: families and samples") {
  std::string out;
  SUBCASE("a family is its HELP line, then its TYPE line") {
    prometheus::family(out, "mcpread_ready", "gauge", "1 while the server accepts work.");
    CHECK(out == "# HELP mcpread_ready 1 while the server accepts work.\n# TYPE mcpread_ready gauge\n");
  }
  SUBCASE("a sample without labels has no braces") {
    prometheus::sample(out, "mcpread_ready", "", "1");
    CHECK(out == "mcpread_ready 1\n");
  }
  SUBCASE("labels in the order given, comma-separated") {
    prometheus::sample(out, "x_total", prometheus::labels({{"route", "mcp"}, {"method", "tools/call"}}), "3");
    CHECK(out == "x_total{route=\"mcp\",method=\"tools/call\"} 3\n");
  }
  SUBCASE("label values escape backslash, quote and newline") {
    CHECK(prometheus::labels({{"kind", "a\\b\"c\nd"}}) == "kind=\"a\\\\b\\\"c\\nd\"");
    CHECK(prometheus::labels({}) == "");
  }
}
