// completion/complete in the protocol core: offered only when the handler says so (the
// `completions` capability from 2025-03-26 on), its parameters checked, at most 100 values, and
// served in stateless requests too; every answer checked against its version's schema.
#include "feature_handler.hpp"

using namespace mcpread::protocol;

namespace {
json prompt_ref(const std::string& name) { return json{{"type", "ref/prompt"}, {"name", name}}; }
json complete_params(json ref, const std::string& value = "pa") {
  return json{{"ref", std::move(ref)}, {"argument", {{"name", "who"}, {"value", value}}}};
}
json values(std::size_t n) {
  json v = json::array();
  for (std::size_t i = 0; i < n; ++i) v.push_back("v" + std::to_string(i));
  return v;
}
}  // namespace

TEST_CASE("completions: the capability follows the handler and the version") {
  FeatureHandler handler;
  CHECK(server_capabilities(handler, "2025-11-25")["completions"] == json::object());
  CHECK(server_capabilities(handler, "2025-03-26")["completions"] == json::object());
  CHECK_FALSE(server_capabilities(handler, "2024-11-05").contains("completions"));  // not in that schema
  handler.completions_on = false;
  CHECK_FALSE(server_capabilities(handler, "2025-11-25").contains("completions"));
}

TEST_CASE("completion/complete in a session") {
  FeatureHarness h;
  h.init("2025-11-25");
  SUBCASE("handed to the handler with its parts") {
    json params = complete_params(prompt_ref("greet"));
    params["context"] = {{"arguments", {{"tone", "warm"}}}};
    h.send(rpc_request(1, "completion/complete", params));
    REQUIRE(h.handler.completion_requests.size() == 1);
    const CompletionRequest& r = h.handler.completion_requests[0];
    CHECK(r.ref == prompt_ref("greet"));
    CHECK(r.argument == "who");
    CHECK(r.value == "pa");
    CHECK(r.context.at("tone") == "warm");
    h.handler.finish_completion(json{{"completion", {{"values", {"paris", "park"}}, {"total", 2}, {"hasMore", false}}}});
    CHECK(h.checked("completion/complete")["result"]["completion"]["values"] == json{"paris", "park"});
  }
  SUBCASE("a resource template reference") {
    h.send(rpc_request(1, "completion/complete", complete_params({{"type", "ref/resource"}, {"uri", "file:///{+path}"}})));
    REQUIRE(h.handler.completion_requests.size() == 1);
  }
  SUBCASE("more than 100 values: the first 100 and hasMore") {
    h.send(rpc_request(1, "completion/complete", complete_params(prompt_ref("greet"))));
    h.handler.finish_completion(json{{"completion", {{"values", values(150)}}}});
    const json r = h.checked("completion/complete");
    CHECK(r["result"]["completion"]["values"].size() == 100);
    CHECK(r["result"]["completion"]["hasMore"] == true);
  }
  SUBCASE("an unknown prompt") {
    h.send(rpc_request(1, "completion/complete", complete_params(prompt_ref("nope"))));
    CHECK(h.last()["error"]["code"] == -32602);
    CHECK(h.last()["error"]["message"] == "Invalid params: unknown prompt \"nope\"; available prompts: plain, greet");
  }
  SUBCASE("a malformed ref") {
    h.send(rpc_request(1, "completion/complete", complete_params({{"type", "ref/other"}})));
    CHECK(h.last()["error"]["message"] ==
          "Invalid params: \"ref\" must be {\"type\": \"ref/prompt\", \"name\"} or {\"type\": \"ref/resource\", \"uri\"}");
  }
  SUBCASE("a malformed argument") {
    h.send(rpc_request(1, "completion/complete", {{"ref", prompt_ref("greet")}, {"argument", {{"name", "who"}}}}));
    CHECK(h.last()["error"]["message"] == "Invalid params: \"argument\" must be {\"name\": string, \"value\": string}");
  }
  SUBCASE("not offered: -32601") {
    h.handler.completions_on = false;
    h.send(rpc_request(1, "completion/complete", complete_params(prompt_ref("greet"))));
    CHECK(h.last()["error"]["code"] == -32601);
    CHECK(h.last()["error"]["message"] == "Method not found: completion/complete");
  }
}

TEST_CASE("completion/complete in 2024-11-05 (the method without the capability)") {
  FeatureHarness h;
  h.init("2024-11-05");
  h.send(rpc_request(1, "completion/complete", complete_params(prompt_ref("greet"))));
  h.handler.finish_completion(json{{"completion", {{"values", json::array()}}}});
  h.checked("completion/complete");
}

TEST_CASE("completion/complete in a stateless request") {
  FeatureHarness h;
  h.send(stateless_rpc(1, "completion/complete", complete_params(prompt_ref("greet"))));
  REQUIRE(h.handler.completion_requests.size() == 1);
  h.handler.finish_completion(json{{"completion", {{"values", {"x"}}}}});
  const json r = h.checked("completion/complete", "2026-07-28");
  CHECK(r["result"]["resultType"] == "complete");
  h.send(stateless_rpc(2, "server/discover"));
  CHECK(h.last()["result"]["capabilities"]["completions"] == json::object());
}
