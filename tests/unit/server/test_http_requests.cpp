// What the HTTP endpoints read from requests: Accept, Content-Type, query parameters, SSE framing,
// and the 2026-07-28 header/body agreement (-32020).
#include "http/answer.hpp"
#include "http/replies.hpp"
#include "http/sse.hpp"
#include "http/stateless_headers.hpp"

#include <doctest/doctest.h>

#include <map>
#include <tuple>
#include <vector>

using namespace mcpread::server::http;
using nlohmann::json;
namespace protocol = mcpread::protocol;

TEST_CASE("http requests: Accept and Content-Type") {
  CHECK(accepts("application/json, text/event-stream", "application/json"));
  CHECK(accepts("application/json, text/event-stream", "text/event-stream"));
  CHECK(accepts("text/event-stream;q=0.9, application/json", "application/json"));
  CHECK(accepts("*/*", "text/event-stream"));
  CHECK(accepts("text/*", "text/event-stream"));
  CHECK_FALSE(accepts("application/json", "text/event-stream"));
  CHECK_FALSE(accepts(std::nullopt, "application/json"));
  Request r;
  r.set("Content-Type", "application/json; charset=utf-8");
  CHECK(is_json_content(r));
  r.set("Content-Type", "text/plain");
  CHECK_FALSE(is_json_content(r));
}

TEST_CASE("http requests: path and query") {
  Request r;
  r.target("/messages?x=1&sessionId=ab%20c+d&y");
  CHECK(path_of(r) == "/messages");
  CHECK(query_param(r, "sessionId") == "ab c d");
  CHECK(query_param(r, "y") == "");
  CHECK_FALSE(query_param(r, "z"));
  r.target("/mcp");
  CHECK(path_of(r) == "/mcp");
  CHECK_FALSE(query_param(r, "sessionId"));
}

TEST_CASE("http requests: SSE framing") {
  CHECK(sse_event("message", "{\"a\":1}") == "event: message\ndata: {\"a\":1}\n\n");
  CHECK(sse_event("", "x") == "data: x\n\n");
  CHECK(sse_event("endpoint", "l1\nl2") == "event: endpoint\ndata: l1\ndata: l2\n\n");
}

TEST_CASE("http requests: 2026-07-28 headers must match the body") {
  json body{{"jsonrpc", "2.0"}, {"id", 7}, {"method", "tools/call"},
            {"params", {{"name", "read"}, {"_meta", {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"}}}}}};
  const protocol::Message m = std::get<protocol::Message>(protocol::to_message(body));
  std::map<std::string, std::string> headers{
      {"MCP-Protocol-Version", "2026-07-28"}, {"Mcp-Method", "tools/call"}, {"Mcp-Name", "read"}};
  auto lookup = [&headers](std::string_view name) -> std::optional<std::string_view> {
    const auto it = headers.find(std::string(name));
    if (it == headers.end()) return std::nullopt;
    return std::string_view(it->second);
  };
  SUBCASE("matching") { CHECK_FALSE(check_stateless_headers(m, lookup)); }
  SUBCASE("Mcp-Name in its base64 form") {
    headers["Mcp-Name"] = "=?base64?cmVhZA==?=";
    CHECK_FALSE(check_stateless_headers(m, lookup));
  }
  SUBCASE("a body without _meta, or without its version: nothing to match (the _meta check refuses it)") {
    for (const json& params : {json{{"name", "read"}}, json{{"name", "read"}, {"_meta", json::object()}},
                               json{{"name", "read"}, {"_meta", nullptr}}, json()}) {
      json bare = body;
      bare["params"] = params;
      if (params.is_null()) bare.erase("params");
      const auto parsed = protocol::to_message(bare);
      REQUIRE(std::holds_alternative<protocol::Message>(parsed));
      CHECK_FALSE(check_stateless_headers(std::get<protocol::Message>(parsed), lookup));
    }
  }
  SUBCASE("mismatches, with the messages a client sees") {
    headers["Mcp-Name"] = "write";
    auto e = check_stateless_headers(m, lookup);
    REQUIRE(e);
    CHECK(e->code == -32020);
    CHECK(e->id == 7);
    CHECK(e->message == "Header mismatch: Mcp-Name header value 'write' does not match body value 'read'");
    headers.erase("Mcp-Name");
    CHECK(check_stateless_headers(m, lookup)->message ==
          "Header mismatch: the Mcp-Name header is missing (tools/call needs it)");
    headers["Mcp-Method"] = "tools/list";
    CHECK(check_stateless_headers(m, lookup)->message ==
          "Header mismatch: Mcp-Method header value 'tools/list' does not match body value 'tools/call'");
    headers["MCP-Protocol-Version"] = "2025-11-25";
    CHECK(check_stateless_headers(m, lookup)->message ==
          "Header mismatch: MCP-Protocol-Version header value '2025-11-25' does not match body value '2026-07-28'");
    headers.erase("MCP-Protocol-Version");
    CHECK(check_stateless_headers(m, lookup)->message == "Header mismatch: the MCP-Protocol-Version header is missing");
  }
  SUBCASE("broken base64 and control characters are refused") {
    headers["Mcp-Name"] = "=?base64?***?=";
    CHECK(check_stateless_headers(m, lookup)->message ==
          "Header mismatch: the Mcp-Name header's base64 form cannot be decoded");
    headers["Mcp-Name"] = "re\x01" "ad";
    CHECK(check_stateless_headers(m, lookup)->message ==
          "Header mismatch: the Mcp-Name header holds invalid characters");
  }
  CHECK(decode_header_value("plain") == "plain");
  CHECK(decode_header_value("=?base64?SGVsbG8sIOS4lueVjA==?=") == "Hello, 世界");
}

TEST_CASE("http requests: arguments mirrored into Mcp-Param-* headers (x-mcp-header)") {
  const std::vector<protocol::ToolDefinition> tools = {
      {"weather", "", "Weather for a region",
       json{{"type", "object"},
            {"properties",
             {{"region", {{"type", "string"}, {"x-mcp-header", "Region"}}},
              {"days", {{"type", "integer"}, {"x-mcp-header", "Days"}}},
              {"note", {{"type", "string"}}}}}},
       std::nullopt, json::object()}};
  std::map<std::string, std::string> headers;
  auto lookup = [&headers](std::string_view name) -> std::optional<std::string_view> {
    const auto it = headers.find(std::string(name));
    if (it == headers.end()) return std::nullopt;
    return std::string_view(it->second);
  };
  const auto check = [&](json arguments) {
    json body{{"jsonrpc", "2.0"}, {"id", 3}, {"method", "tools/call"},
              {"params", {{"name", "weather"}, {"arguments", std::move(arguments)}}}};
    return check_param_headers(std::get<protocol::Message>(protocol::to_message(body)), tools, lookup);
  };
  SUBCASE("accepted: base64, a literal that looks like base64, a literal with half the markers") {
    for (const auto& [header, value] : std::vector<std::pair<std::string, std::string>>{
             {"=?base64?SGVsbG8=?=", "Hello"}, {"SGVsbG8=", "SGVsbG8="}, {"=?base64?SGVsbG8=", "=?base64?SGVsbG8="}}) {
      headers = {{"Mcp-Param-Region", header}};
      CHECK_FALSE(check({{"region", value}}));
    }
    headers = {{"Mcp-Param-Region", "eu"}, {"Mcp-Param-Days", "3"}};
    CHECK_FALSE(check({{"region", "eu"}, {"days", 3}, {"note", "not mirrored"}}));
  }
  SUBCASE("refused with -32020: bad padding, bad characters, missing, different, set without the argument") {
    const std::vector<std::tuple<std::map<std::string, std::string>, json, std::string>> cases = {
        {{{"Mcp-Param-Region", "=?base64?SGVsbG8?="}}, {{"region", "Hello"}},
         "Header mismatch: the Mcp-Param-Region header's base64 form cannot be decoded"},
        {{{"Mcp-Param-Region", "=?base64?SGVs!!!bG8=?="}}, {{"region", "Hello"}},
         "Header mismatch: the Mcp-Param-Region header's base64 form cannot be decoded"},
        {{}, {{"region", "test-value"}}, "Header mismatch: the Mcp-Param-Region header is missing (arguments.region is set)"},
        {{{"Mcp-Param-Region", "us"}}, {{"region", "eu"}},
         "Header mismatch: Mcp-Param-Region header value 'us' does not match body value 'eu'"},
        {{{"Mcp-Param-Region", "eu"}, {"Mcp-Param-Days", "4"}}, {{"region", "eu"}, {"days", 3}},
         "Header mismatch: Mcp-Param-Days header value '4' does not match body value '3'"},
        {{{"Mcp-Param-Days", "3"}}, json::object(),
         "Header mismatch: the Mcp-Param-Days header is set but arguments.days is not"},
    };
    for (const auto& [sent, arguments, message] : cases) {
      headers = sent;
      const auto e = check(arguments);
      REQUIRE(e);
      CHECK(e->code == -32020);
      CHECK(e->id == 3);
      CHECK(e->message == message);
    }
  }
}

namespace {

// Records what an Answer sends.
struct RecordingSink : ResponseSink {
  std::vector<unsigned> statuses;
  void respond(Response response) override { statuses.push_back(response.result_int()); }
  void open_stream(Headers) override {}
  bool event(std::string) override { return true; }
  void end_stream() override {}
  void on_close(std::function<void()>) override {}
  [[nodiscard]] bool closed() const override { return false; }
};

unsigned status_of_answer(const std::string& message, Answer::ErrorStatus errors) {
  auto sink = std::make_shared<RecordingSink>();
  Answer::to(sink, {}, errors)(message, true);
  REQUIRE(sink->statuses.size() == 1);
  return sink->statuses.front();
}

std::string error_message(int code) {
  return protocol::serialize(json{{"jsonrpc", "2.0"}, {"id", 4}, {"error", {{"code", code}, {"message", "m"}}}});
}

}  // namespace

TEST_CASE("http requests: the status of an error answered once the request has started") {
  SUBCASE("2026-07-28: the codes its transport maps, whenever the error arises") {
    CHECK(status_of_answer(error_message(-32601), Answer::ErrorStatus::by_code) == 404);
    for (const int code : {-32020, -32021, -32022})
      CHECK(status_of_answer(error_message(code), Answer::ErrorStatus::by_code) == 400);
    for (const int code : {-32602, -32603, -32002})
      CHECK(status_of_answer(error_message(code), Answer::ErrorStatus::by_code) == 200);
    const std::string result = protocol::serialize(json{{"jsonrpc", "2.0"}, {"id", 4}, {"result", json::object()}});
    CHECK(status_of_answer(result, Answer::ErrorStatus::by_code) == 200);
  }
  SUBCASE("the session era: 200 with the error in the body") {
    CHECK(status_of_answer(error_message(-32601), Answer::ErrorStatus::always_200) == 200);
    CHECK(status_of_answer(error_message(-32021), Answer::ErrorStatus::always_200) == 200);
  }
}

TEST_CASE("http requests: task methods carry Mcp-Name = params.taskId (SEP-2663 routing headers)") {
  for (const char* method : {"tasks/get", "tasks/update", "tasks/cancel"}) {
    CAPTURE(method);
    json body{{"jsonrpc", "2.0"}, {"id", 8}, {"method", method},
              {"params", {{"taskId", "abc123"}, {"_meta", {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"}}}}}};
    const protocol::Message m = std::get<protocol::Message>(protocol::to_message(body));
    std::map<std::string, std::string> headers{
        {"MCP-Protocol-Version", "2026-07-28"}, {"Mcp-Method", method}, {"Mcp-Name", "abc123"}};
    auto lookup = [&headers](std::string_view name) -> std::optional<std::string_view> {
      const auto it = headers.find(std::string(name));
      if (it == headers.end()) return std::nullopt;
      return std::string_view(it->second);
    };
    // sep-2663-routing-headers-accepted-on-tasks-get
    CHECK_FALSE(check_stateless_headers(m, lookup));
    // sep-2663-server-rejects-mismatched-mcp-name-on-tasks-get
    headers["Mcp-Name"] = "sep-2663-wrong-task-id-for-routing-header-mismatch";
    auto e = check_stateless_headers(m, lookup);
    REQUIRE(e);
    CHECK(e->code == -32020);
    CHECK(e->message == "Header mismatch: Mcp-Name header value 'sep-2663-wrong-task-id-for-routing-header-mismatch' "
                        "does not match body value 'abc123'");
    headers.erase("Mcp-Name");
    CHECK(check_stateless_headers(m, lookup)->message ==
          std::string("Header mismatch: the Mcp-Name header is missing (") + method + " needs it)");
  }
}
