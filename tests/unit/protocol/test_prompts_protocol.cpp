// Prompts in the protocol core: the capability follows the handler, prompts/list renders and pages
// for each version, prompts/get checks its parameters before the handler sees them, and both work
// in stateless (2026-07-28) requests; every answer checked against its version's schema.
#include "feature_handler.hpp"

using namespace mcpread::protocol;

namespace {
const std::vector<std::string> session_versions = {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"};
}

TEST_CASE("prompts: capability and methods only when the handler offers prompts") {
  SUBCASE("offered: prompts {listChanged: false}") {
    FeatureHarness h;
    h.send(rpc_request(1, "initialize", {{"protocolVersion", "2025-11-25"}, {"capabilities", json::object()}}));
    CHECK(h.last()["result"]["capabilities"]["prompts"] == json{{"listChanged", false}});
  }
  SUBCASE("not offered: no capability, -32601 for both methods") {
    FeatureHarness h;
    h.handler.prompts_on = false;
    h.send(rpc_request(1, "initialize", {{"protocolVersion", "2025-11-25"}, {"capabilities", json::object()}}));
    CHECK_FALSE(h.last()["result"]["capabilities"].contains("prompts"));
    h.send({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
    h.send(rpc_request(2, "prompts/list"));
    CHECK(h.last()["error"]["code"] == -32601);
    CHECK(h.last()["error"]["message"] == "Method not found: prompts/list");
    h.send(rpc_request(3, "prompts/get", {{"name", "plain"}}));
    CHECK(h.last()["error"]["message"] == "Method not found: prompts/get");
  }
  SUBCASE("mcp-read's own handler (no prompts) advertises none") {
    FakeHandler plain;
    CHECK_FALSE(server_capabilities(plain, "2025-11-25").contains("prompts"));
    CHECK_FALSE(server_capabilities(plain, "2025-11-25").contains("completions"));
  }
}

TEST_CASE("prompts/list: rendered for each version") {
  for (const auto& v : session_versions) {
    CAPTURE(v);
    FeatureHarness h;
    h.init(v);
    h.send(rpc_request(1, "prompts/list"));
    const json r = h.checked("prompts/list");
    const json& prompts = r["result"]["prompts"];
    REQUIRE(prompts.size() == 2);
    CHECK(prompts[1]["name"] == "greet");
    CHECK(prompts[1]["arguments"][0] == (v >= "2025-06-18" ? json{{"name", "who"}, {"title", "Who"}, {"description", "The name"}, {"required", true}}
                                                           : json{{"name", "who"}, {"description", "The name"}, {"required", true}}));
    CHECK(prompts[1].contains("title") == (v >= "2025-06-18"));
    CHECK_FALSE(prompts[0].contains("arguments"));
    CHECK_FALSE(r["result"].contains("nextCursor"));
  }
}

TEST_CASE("prompts/list: pages of 50 with cursors of its own") {
  FeatureHarness h;
  h.handler.prompt_list.clear();
  for (int i = 0; i < 120; ++i) h.handler.prompt_list.push_back({"p" + std::to_string(i), "", "", {}});
  h.init("2025-11-25");
  h.send(rpc_request(1, "prompts/list"));
  json r = h.checked("prompts/list");
  CHECK(r["result"]["prompts"].size() == 50);
  const json cursor = r["result"]["nextCursor"];
  h.send(rpc_request(2, "prompts/list", {{"cursor", cursor}}));
  r = h.checked("prompts/list");
  CHECK(r["result"]["prompts"][0]["name"] == "p50");
  h.send(rpc_request(3, "prompts/list", {{"cursor", r["result"]["nextCursor"]}}));
  r = h.checked("prompts/list");
  CHECK(r["result"]["prompts"].size() == 20);
  CHECK_FALSE(r["result"].contains("nextCursor"));
  SUBCASE("a cursor of another list is refused") {
    h.send(rpc_request(4, "prompts/list", {{"cursor", "mcp-read:tools:0"}}));
    CHECK(h.last()["error"]["code"] == -32602);
    CHECK(h.last()["error"]["message"] ==
          "Invalid params: unknown \"cursor\"; pass a nextCursor from an earlier prompts/list");
  }
}

TEST_CASE("prompts/get: checked, handed to the handler, answered") {
  FeatureHarness h;
  h.init("2025-11-25");
  SUBCASE("the handler's result is the answer") {
    CHECK(h.send(rpc_request(1, "prompts/get", {{"name", "greet"}, {"arguments", {{"who", "Ada"}}}})));
    REQUIRE(h.handler.prompt_requests.size() == 1);
    CHECK(h.handler.prompt_requests[0].name == "greet");
    CHECK(h.handler.prompt_requests[0].arguments.at("who") == "Ada");
    CHECK(h.handler.prompt_requests[0].protocol_version == "2025-11-25");
    CHECK(h.replies.empty());
    h.handler.finish_prompt(json{{"messages", {{{"role", "user"}, {"content", {{"type", "text"}, {"text", "Hi Ada"}}}}}}});
    CHECK(h.checked("prompts/get")["result"]["messages"][0]["content"]["text"] == "Hi Ada");
  }
  SUBCASE("unknown prompt") {
    h.send(rpc_request(1, "prompts/get", {{"name", "nope"}}));
    CHECK(h.last()["error"]["code"] == -32602);
    CHECK(h.last()["error"]["message"] == "Invalid params: unknown prompt \"nope\"; available prompts: plain, greet");
    CHECK(h.handler.prompt_requests.empty());
  }
  SUBCASE("no name") {
    h.send(rpc_request(1, "prompts/get"));
    CHECK(h.last()["error"]["message"] == "Invalid params: \"prompts/get\" needs \"name\" (a string)");
  }
  SUBCASE("a required argument missing") {
    h.send(rpc_request(1, "prompts/get", {{"name", "greet"}, {"arguments", {{"tone", "warm"}}}}));
    CHECK(h.last()["error"]["message"] == "Invalid params: prompt \"greet\" needs the argument \"who\"");
  }
  SUBCASE("an argument that is not a string") {
    h.send(rpc_request(1, "prompts/get", {{"name", "greet"}, {"arguments", {{"who", 5}}}}));
    CHECK(h.last()["error"]["message"] == "Invalid params: \"arguments.who\" must be a string");
  }
  SUBCASE("the handler's error") {
    h.send(rpc_request(1, "prompts/get", {{"name", "plain"}}));
    h.handler.finish_prompt(RequestError{-32603, "Internal error: broken"});
    CHECK(h.checked("prompts/get")["error"] == json{{"code", -32603}, {"message", "Internal error: broken"}});
  }
  SUBCASE("cancelled while the handler works: no answer") {
    h.send(rpc_request(7, "prompts/get", {{"name", "plain"}}));
    h.send({{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", 7}}}});
    h.handler.finish_prompt(json{{"messages", json::array()}});
    REQUIRE(h.replies.size() == 1);
    CHECK(h.replies[0].first.is_null());
    CHECK(h.replies[0].second);
    CHECK(h.session.in_flight() == 0);
  }
}

TEST_CASE("prompts in stateless requests (2026-07-28)") {
  FeatureHarness h;
  SUBCASE("listed with caching hints, advertised by server/discover") {
    h.send(stateless_rpc(1, "prompts/list"));
    const json r = h.checked("prompts/list", "2026-07-28");
    CHECK(r["result"]["prompts"].size() == 2);
    CHECK(r["result"]["resultType"] == "complete");
    CHECK(r["result"]["cacheScope"] == "public");
    h.send(stateless_rpc(2, "server/discover"));
    CHECK(h.last()["result"]["capabilities"]["prompts"] == json{{"listChanged", false}});
  }
  SUBCASE("prompts/get") {
    h.send(stateless_rpc(1, "prompts/get", {{"name", "plain"}}));
    REQUIRE(h.handler.prompt_requests.size() == 1);
    CHECK(h.handler.prompt_requests[0].protocol_version == "2026-07-28");
    h.handler.finish_prompt(json{{"messages", {{{"role", "user"}, {"content", {{"type", "text"}, {"text", "x"}}}}}}});
    const json r = h.checked("prompts/get", "2026-07-28");
    CHECK(r["result"]["resultType"] == "complete");
  }
  SUBCASE("not offered: -32601") {
    h.handler.prompts_on = false;
    h.send(stateless_rpc(1, "prompts/list"));
    CHECK(h.last()["error"]["code"] == -32601);
    CHECK(h.last()["error"]["message"] == "Method not found: prompts/list");
  }
}
