// Stateless requests (protocol 2026-07-28): served without initialize, refused with the errors
// that protocol defines, results shaped (and validated) for it; and the dual-era session that
// serves them beside initialize.
#include "fake_handler.hpp"
#include "mcpread/protocol/session.hpp"
#include "mcpread/protocol/stateless.hpp"
#include "schema_validator.hpp"

#include <doctest/doctest.h>

using namespace mcpread::protocol;
using mcpread::test::server_message_errors;

namespace {

constexpr const char* modern = "2026-07-28";

json meta(const std::string& version = modern, json caps = json::object()) {
  return json{{meta_key::protocol_version, version}, {meta_key::client_capabilities, std::move(caps)}};
}

json request(json id, const std::string& method, json params = json::object()) {
  if (!params.contains("_meta")) params["_meta"] = meta();
  return json{{"jsonrpc", "2.0"}, {"id", std::move(id)}, {"method", method}, {"params", std::move(params)}};
}

Message message_of(const json& j) { return std::get<Message>(to_message(j)); }

struct Harness {
  FakeHandler handler;
  StatelessDispatcher dispatcher{ServerInfo{"mcp-read", "Title", "1.0", "use it"}, handler};
  std::vector<std::pair<std::string, bool>> replies;

  void serve(const json& j, std::shared_ptr<std::atomic<bool>> cancelled = nullptr) {
    const Message m = message_of(j);
    REQUIRE_FALSE(dispatcher.check(m));
    dispatcher.serve(m, [this](std::string s, bool final) { replies.emplace_back(std::move(s), final); },
                     cancelled ? cancelled : std::make_shared<std::atomic<bool>>(false));
  }
  json last() const { return json::parse(replies.back().first); }
};

}  // namespace

TEST_CASE("stateless: check refuses what 2026-07-28 refuses") {
  Harness h;
  SUBCASE("unsupported version: -32022 listing every supported version") {
    auto e = h.dispatcher.check(message_of(request(1, "tools/list", {{"_meta", meta("1900-01-01")}})));
    REQUIRE(e);
    CHECK(e->code == -32022);
    CHECK(e->message == "Unsupported protocol version: 1900-01-01");
    CHECK(e->data["requested"] == "1900-01-01");
    CHECK(e->data["supported"] ==
          json::array({"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}));
    CHECK(server_message_errors(modern, make_error(*e)).empty());
  }
  SUBCASE("a version that needs initialize says so") {
    auto e = h.dispatcher.check(message_of(request(1, "tools/list", {{"_meta", meta("2025-06-18")}})));
    REQUIRE(e);
    CHECK(e->code == -32022);
    CHECK(e->message == "Unsupported protocol version: 2025-06-18 is served only after \"initialize\"; "
                        "requests without a session use 2026-07-28");
  }
  SUBCASE("missing client capabilities: -32602") {
    json params{{"_meta", {{meta_key::protocol_version, modern}}}};
    auto e = h.dispatcher.check(message_of(request(1, "tools/list", params)));
    REQUIRE(e);
    CHECK(e->code == -32602);
    CHECK(e->message == "Invalid params: _meta needs \"io.modelcontextprotocol/clientCapabilities\" "
                        "(an object, empty when the client has none)");
  }
  SUBCASE("a bad log level: -32602") {
    json m = meta();
    m[meta_key::log_level] = "loud";
    auto e = h.dispatcher.check(message_of(request(1, "tools/list", {{"_meta", m}})));
    REQUIRE(e);
    CHECK(e->code == -32602);
  }
  SUBCASE("methods this era removed: -32601") {
    for (const char* method : {"ping", "logging/setLevel", "initialize"}) {
      auto e = h.dispatcher.check(message_of(request(1, method)));
      REQUIRE(e);
      CHECK(e->code == -32601);
      CHECK(e->message == std::string("Method not found: ") + method + " (not part of protocol 2026-07-28)");
    }
    auto e = h.dispatcher.check(message_of(request(1, "nope/nothing")));
    REQUIRE(e);
    CHECK(e->message == "Method not found: nope/nothing");
  }
}

TEST_CASE("stateless: a tool's required client capabilities") {
  Harness h;
  ToolDefinition sampler{"ask_model", "", "Asks the client's model", json{{"type", "object"}}, std::nullopt,
                         json::object()};
  sampler.required_capabilities = {{"sampling", json::object()},
                                   {"extensions", {{"io.modelcontextprotocol/tasks", json::object()}}}};
  h.handler.tools_.push_back(sampler);
  const auto call = [&h](json capabilities) {
    json m = meta();
    m[meta_key::client_capabilities] = std::move(capabilities);
    return h.dispatcher.check(message_of(request(7, "tools/call", {{"name", "ask_model"}, {"_meta", m}})));
  };
  SUBCASE("none declared: -32021 naming each, requiredCapabilities an object of what is missing") {
    auto e = call(json::object());
    REQUIRE(e);
    CHECK(e->code == -32021);
    CHECK(e->id == 7);
    CHECK(e->message == "Missing required client capability: extension io.modelcontextprotocol/tasks, sampling. "
                        "The tool ask_model needs it; declare it in _meta[\"io.modelcontextprotocol/clientCapabilities\"]");
    CHECK(e->data == json{{"requiredCapabilities", sampler.required_capabilities}});
    CHECK(server_message_errors(modern, make_error(*e)).empty());
  }
  SUBCASE("one of two declared: only the other is named") {
    auto e = call({{"sampling", json::object()}, {"extensions", {{"other", json::object()}}}});
    REQUIRE(e);
    CHECK(e->data == json{{"requiredCapabilities", {{"extensions", {{"io.modelcontextprotocol/tasks", json::object()}}}}}});
  }
  SUBCASE("all declared, or a tool without requirements: the call goes through") {
    CHECK_FALSE(call({{"sampling", json::object()}, {"extensions", {{"io.modelcontextprotocol/tasks", json::object()}}}}));
    json m = meta();
    CHECK_FALSE(h.dispatcher.check(message_of(request(8, "tools/call", {{"name", "echo"}, {"_meta", m}}))));
  }
}

TEST_CASE("stateless: server/discover, tools/list and tools/call results") {
  Harness h;
  SUBCASE("server/discover") {
    h.serve(request(1, "server/discover"));
    const json r = h.last();
    CHECK(server_message_errors(modern, r, "server/discover").empty());
    CHECK(r["result"]["resultType"] == "complete");
    CHECK(r["result"]["supportedVersions"][0] == "2026-07-28");
    CHECK(r["result"]["capabilities"].contains("tools"));
    CHECK(r["result"]["instructions"] == "use it");
    CHECK(r["result"]["cacheScope"] == "public");
    CHECK(r["result"]["ttlMs"].get<long long>() > 0);
    CHECK(r["result"]["_meta"][meta_key::server_info]["name"] == "mcp-read");
  }
  SUBCASE("tools/list") {
    h.serve(request(2, "tools/list"));
    const json r = h.last();
    CHECK(server_message_errors(modern, r, "tools/list").empty());
    CHECK(r["result"]["tools"][0]["name"] == "echo");
    CHECK(r["result"]["resultType"] == "complete");
  }
  SUBCASE("tools/call: the version, no log unless asked, progress, a complete result") {
    json m = meta();
    m["progressToken"] = "p1";
    h.serve(request(3, "tools/call", {{"name", "echo"}, {"arguments", json::object()}, {"_meta", m}}));
    REQUIRE(h.handler.calls.size() == 1);
    const ToolCall& call = h.handler.calls.front();
    CHECK(call.protocol_version == modern);
    call.log(LogLevel::emergency, "dropped: no level was asked for");
    call.progress(1, 2, "half");
    REQUIRE(h.replies.size() == 1);
    CHECK(json::parse(h.replies[0].first)["method"] == "notifications/progress");
    CHECK_FALSE(h.replies[0].second);
    h.handler.finish(json{{"content", json::array()}, {"_meta", {{"x.example/k", 1}}}});
    const json r = h.last();
    CHECK(h.replies.back().second);
    CHECK(server_message_errors(modern, r, "tools/call").empty());
    CHECK(r["result"]["resultType"] == "complete");
    CHECK(r["result"]["_meta"]["x.example/k"] == 1);
    CHECK(r["result"]["_meta"][meta_key::server_info]["version"] == "1.0");
  }
  SUBCASE("tools/call: log messages at the request's level") {
    json m = meta();
    m[meta_key::log_level] = "warning";
    h.serve(request(4, "tools/call", {{"name", "echo"}, {"_meta", m}}));
    h.handler.calls.front().log(LogLevel::info, "below the level");
    h.handler.calls.front().log(LogLevel::error, "above");
    REQUIRE(h.replies.size() == 1);
    const json note = json::parse(h.replies[0].first);
    CHECK(note["params"]["level"] == "error");
    CHECK(server_message_errors(modern, note).empty());
  }
  SUBCASE("tools/call of an unknown tool: -32602") {
    h.serve(request(5, "tools/call", {{"name", "nope"}}));
    CHECK(h.last()["error"]["code"] == -32602);
  }
  SUBCASE("a cancelled call ends with an empty final reply") {
    auto cancelled = std::make_shared<std::atomic<bool>>(false);
    h.serve(request(6, "tools/call", {{"name", "echo"}}), cancelled);
    cancelled->store(true);
    h.handler.finish();
    REQUIRE(h.replies.size() == 1);
    CHECK(h.replies[0].first.empty());
    CHECK(h.replies[0].second);
  }
}

TEST_CASE("stateless: a dual-era session serves both kinds of request") {
  FakeHandler handler;
  std::vector<json> replies;
  Session session{ServerInfo{"mcp-read", "", "1.0", ""}, handler, [](std::string) {}};
  auto send = [&](const json& j) {
    return session.receive(j.dump(), [&](std::string m, bool) {
      if (!m.empty()) replies.push_back(json::parse(m));
    });
  };
  SUBCASE("without initialize") {
    CHECK(send(request(1, "tools/list")));
    CHECK(replies.back()["result"]["resultType"] == "complete");
    CHECK_FALSE(session.initialized());
    send(request(2, "tools/call", {{"name", "echo"}}));
    CHECK(send(json{{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", 2}}}}) ==
          false);
    handler.finish();
    CHECK(replies.size() == 1);  // the cancelled call was not answered
    CHECK(session.in_flight() == 0);
  }
  SUBCASE("after initialize, a request that repeats the negotiated version is a legacy one") {
    send({{"jsonrpc", "2.0"}, {"id", 0}, {"method", "initialize"},
          {"params", {{"protocolVersion", "2025-06-18"}, {"capabilities", json::object()}}}});
    send(request(1, "tools/list", {{"_meta", meta("2025-06-18")}}));
    CHECK_FALSE(replies.back()["result"].contains("resultType"));
    send(request(2, "tools/list"));
    CHECK(replies.back()["result"]["resultType"] == "complete");
  }
}

TEST_CASE("stateless: the client's roots through an input request (--stateless-roots)") {
  FakeHandler handler;
  std::vector<std::string> replies;
  auto serve = [&](StatelessDispatcher& d, const json& j) {
    const Message m = message_of(j);
    if (auto e = d.check(m)) return make_error(*e);
    d.serve(m, [&](std::string s, bool) { replies.push_back(std::move(s)); }, std::make_shared<std::atomic<bool>>(false));
    return replies.empty() ? json() : json::parse(replies.back());
  };
  const json roots_caps{{"roots", json::object()}};
  const json call = request(1, "tools/call", {{"name", "echo"}, {"_meta", meta(modern, roots_caps)}});
  SUBCASE("ignore (the default): no round trip") {
    StatelessDispatcher d{ServerInfo{"mcp-read", "", "1.0", ""}, handler};
    serve(d, call);
    REQUIRE(handler.calls.size() == 1);
    CHECK_FALSE(handler.calls.front().client_roots);
  }
  SUBCASE("ask: input_required, then the answer narrows this call") {
    StatelessDispatcher d{ServerInfo{"mcp-read", "", "1.0", ""}, handler, ClientRoots::ask};
    const json first = serve(d, call);
    CHECK(handler.calls.empty());
    CHECK(first["result"]["resultType"] == "input_required");
    CHECK(first["result"]["inputRequests"]["roots"] == json{{"method", "roots/list"}, {"params", json::object()}});
    // The round's state is sealed like any tool's: the retry may carry it.
    REQUIRE(first["result"]["requestState"].is_string());
    CHECK(server_message_errors(modern, first, "tools/call").empty());
    json again = call;
    again["params"]["inputResponses"] = {{"roots", {{"roots", json::array({{{"uri", "file:///srv/a"}}})}}}};
    again["params"]["requestState"] = first["result"]["requestState"];
    serve(d, again);
    REQUIRE(handler.calls.size() == 1);
    CHECK(handler.calls.front().client_roots == std::vector<std::string>{"file:///srv/a"});
    json broken = call;
    broken["params"]["inputResponses"] = {{"roots", "all of them"}};
    const json refused = serve(d, broken);
    CHECK(refused["error"]["code"] == -32602);
    CHECK(refused["error"]["message"] ==
          "Invalid params: inputResponses.roots must be an object: the client's result for roots/list");
    json no_list = call;
    no_list["params"]["inputResponses"] = {{"roots", {{"uris", "all of them"}}}};
    CHECK(serve(d, no_list)["error"]["message"] ==
          "Invalid params: inputResponses.roots must be a roots/list result ({\"roots\": [...]})");
    json tampered = again;
    tampered["params"]["requestState"] = first["result"]["requestState"].get<std::string>() + "x";
    CHECK(serve(d, tampered)["error"]["code"] == -32602);
    CHECK(handler.calls.size() == 1);
    // A client without the roots capability is served within the server's roots.
    serve(d, request(2, "tools/call", {{"name", "echo"}}));
    CHECK(handler.calls.size() == 2);
  }
  SUBCASE("require: a client without the roots capability gets -32021") {
    StatelessDispatcher d{ServerInfo{"mcp-read", "", "1.0", ""}, handler, ClientRoots::require};
    const json refused = serve(d, request(3, "tools/call", {{"name", "echo"}}));
    CHECK(refused["error"]["code"] == -32021);
    CHECK(refused["error"]["data"] == json{{"requiredCapabilities", {{"roots", json::object()}}}});
    CHECK(server_message_errors(modern, refused).empty());
    // Methods that read no files are not held back.
    CHECK_FALSE(d.check(message_of(request(4, "tools/list"))));
  }
}
