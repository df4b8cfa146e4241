// The session state machine with a fake handler: deterministic ordering, cancellation, batches,
// progress and logging, roots requests.
#include "fake_handler.hpp"
#include "mcpread/protocol/session.hpp"

#include <doctest/doctest.h>

#include <deque>
#include <functional>

using namespace mcpread::protocol;

namespace {

struct Harness {
  FakeHandler handler;
  std::vector<json> outbound;
  std::vector<std::pair<json, bool>> replies;
  Session session{ServerInfo{"mcp-read", "Title", "1.0", "use it"}, handler,
                  [this](std::string m) { outbound.push_back(json::parse(m)); }};

  bool send(const json& message) {
    return session.receive(message.dump(), [this](std::string m, bool final) {
      replies.emplace_back(m.empty() ? json() : json::parse(m), final);
    });
  }
  json last() { return replies.back().first; }
  void init(const std::string& version = "2025-11-25", json caps = json::object()) {
    send({{"jsonrpc", "2.0"}, {"id", 0}, {"method", "initialize"},
          {"params", {{"protocolVersion", version}, {"capabilities", caps}}}});
    send({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
    replies.clear();
  }
  json call(json id, json extra_params = json::object()) {
    json params{{"name", "echo"}, {"arguments", json::object()}};
    params.update(extra_params);
    return json{{"jsonrpc", "2.0"}, {"id", std::move(id)}, {"method", "tools/call"}, {"params", params}};
  }
};

}  // namespace

TEST_CASE("session: receive tells whether an answer is due") {
  Harness h;
  CHECK(h.send({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "ping"}}));
  CHECK_FALSE(h.send({{"jsonrpc", "2.0"}, {"method", "notifications/x"}}));
  CHECK(h.session.receive("garbage", [](std::string, bool) {}));
}

TEST_CASE("session: initialize result") {
  Harness h;
  h.send({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"},
          {"params", {{"protocolVersion", "2025-06-18"}, {"capabilities", json::object()}}}});
  const json r = h.last()["result"];
  CHECK(r["protocolVersion"] == "2025-06-18");
  CHECK(r["serverInfo"] == json{{"name", "mcp-read"}, {"title", "Title"}, {"version", "1.0"}});
  CHECK(r["instructions"] == "use it");
  CHECK(r["capabilities"] == json{{"logging", json::object()}, {"tools", {{"listChanged", false}}}});
  CHECK(h.session.negotiated_version() == "2025-06-18");
}

TEST_CASE("session: tool calls") {
  Harness h;
  h.init();
  SUBCASE("the answer goes out when the handler completes") {
    h.send(h.call(7));
    CHECK(h.replies.empty());
    CHECK(h.session.in_flight() == 1);
    REQUIRE(h.handler.calls.size() == 1);
    CHECK(h.handler.calls[0].protocol_version == "2025-11-25");
    h.handler.finish(json{{"content", json::array({{{"type", "text"}, {"text", "hi"}}})}});
    CHECK(h.last()["id"] == 7);
    CHECK(h.last()["result"]["content"][0]["text"] == "hi");
    CHECK(h.replies.back().second);
    CHECK(h.session.in_flight() == 0);
  }
  SUBCASE("a cancelled call is flagged and its answer dropped") {
    h.send(h.call("c1"));
    h.send({{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", "c1"}}}});
    CHECK(h.handler.calls[0].cancelled->load());
    h.handler.finish();
    REQUIRE(h.replies.size() == 1);
    CHECK(h.replies[0].first.is_null());  // an empty final reply: nothing to send
    CHECK(h.replies[0].second);
  }
  SUBCASE("cancel_all flags every call") {
    h.send(h.call(1));
    h.send(h.call(2));
    h.session.cancel_all();
    CHECK(h.handler.calls[0].cancelled->load());
    CHECK(h.handler.calls[1].cancelled->load());
    CHECK(h.session.in_flight() == 0);
  }
  SUBCASE("cancelling an unknown id changes nothing") {
    h.send(h.call(1));
    h.send({{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", 99}}}});
    CHECK_FALSE(h.handler.calls[0].cancelled->load());
    h.handler.finish();
    CHECK(h.last()["id"] == 1);
  }
  SUBCASE("an id may be reused once its call finished") {
    h.send(h.call(1));
    h.handler.finish();
    h.send(h.call(1));
    CHECK(h.session.in_flight() == 1);
  }
  SUBCASE("progress notifications go to the exchange, only with a progressToken") {
    h.send(h.call(1, {{"_meta", {{"progressToken", "tok"}}}}));
    h.handler.calls[0].progress(1, 4, "page 1");
    REQUIRE(h.replies.size() == 1);
    CHECK_FALSE(h.replies[0].second);
    CHECK(h.replies[0].first["method"] == "notifications/progress");
    CHECK(h.replies[0].first["params"] == json{{"progressToken", "tok"}, {"progress", 1.0}, {"total", 4.0}, {"message", "page 1"}});
    h.send(h.call(2));
    h.handler.calls[1].progress(1, std::nullopt, "x");
    CHECK(h.replies.size() == 1);
  }
  SUBCASE("log messages respect the client's level") {
    h.send(h.call(1));
    h.handler.calls[0].log(LogLevel::info, "quiet");  // default threshold: warning
    CHECK(h.replies.empty());
    h.handler.calls[0].log(LogLevel::error, "loud");
    REQUIRE(h.replies.size() == 1);
    CHECK(h.replies[0].first["params"] == json{{"level", "error"}, {"logger", "mcp-read"}, {"data", "loud"}});
    h.send({{"jsonrpc", "2.0"}, {"id", 2}, {"method", "logging/setLevel"}, {"params", {{"level", "debug"}}}});
    h.handler.calls[0].log(LogLevel::debug, "now heard");
    CHECK(h.last()["params"]["data"] == "now heard");
  }
  SUBCASE("a handler that throws gives an internal error") {
    struct Throwing : FakeHandler {
      void call_tool(ToolCall, std::function<void(ToolOutcome)>) override { throw std::runtime_error("boom"); }
    } thrower;
    std::vector<json> out;
    Session s{ServerInfo{"n", "", "1", ""}, thrower, [](std::string) {}};
    auto reply = [&out](std::string m, bool) { out.push_back(json::parse(m)); };
    s.receive(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}})", reply);
    s.receive(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}})", reply);
    CHECK(out.back()["error"]["code"] == -32603);
    CHECK(out.back()["error"]["message"] == "Internal error: boom");
    CHECK(s.in_flight() == 0);
  }
}

TEST_CASE("session: batches wait for their slowest call") {
  Harness h;
  h.init("2025-03-26");
  CHECK(h.send(json::array({h.call(1), {{"jsonrpc", "2.0"}, {"id", 2}, {"method", "ping"}}})));
  CHECK(h.replies.empty());
  h.handler.finish();
  REQUIRE(h.replies.size() == 1);
  CHECK(h.last().size() == 2);
  SUBCASE("a batch of notifications expects nothing") {
    CHECK_FALSE(h.send(json::array({{{"jsonrpc", "2.0"}, {"method", "notifications/x"}}})));
  }
}

TEST_CASE("session: roots") {
  Harness h;
  SUBCASE("requested after initialized when the client has roots") {
    h.init("2025-11-25", {{"roots", json::object()}});
    REQUIRE(h.outbound.size() == 1);
    CHECK(h.outbound[0]["method"] == "roots/list");
    CHECK(h.handler.roots_requests == 1);
    h.send({{"jsonrpc", "2.0"}, {"id", h.outbound[0]["id"]},
            {"result", {{"roots", json::array({{{"uri", "file:///a"}}, {{"uri", "file:///b"}}})}}}});
    CHECK(h.handler.received == std::vector<std::string>{"file:///a", "file:///b"});
    // A second answer with the same id is not ours any more.
    h.handler.received.clear();
    h.send({{"jsonrpc", "2.0"}, {"id", h.outbound[0]["id"]}, {"result", {{"roots", json::array()}}}});
    CHECK(h.handler.received.empty());
  }
  SUBCASE("an error answer is reported") {
    h.init("2025-11-25", {{"roots", json::object()}});
    h.send({{"jsonrpc", "2.0"}, {"id", h.outbound[0]["id"]}, {"error", {{"code", -1}, {"message", "nope"}}}});
    CHECK(h.handler.failure == "the client answered roots/list with an error: nope");
  }
  SUBCASE("a malformed result is reported") {
    h.init("2025-11-25", {{"roots", json::object()}});
    h.send({{"jsonrpc", "2.0"}, {"id", h.outbound[0]["id"]}, {"result", {{"roots", 3}}}});
    CHECK(h.handler.failure == "the roots/list result has no \"roots\" array");
  }
  SUBCASE("not requested without the capability") {
    h.init();
    CHECK(h.outbound.empty());
    h.send({{"jsonrpc", "2.0"}, {"method", "notifications/roots/list_changed"}});
    CHECK(h.outbound.empty());
  }
}
