// Requests the server sends the client from inside a tool call (sampling/createMessage,
// elicitation/create): they go out on the call's own exchange, the answer is routed back by id,
// and the tool's callback runs exactly once whatever happens (answer, error, malformed answer,
// cancellation, the call finishing, the session ending, a capability the client lacks). In
// stateless requests they become input requests of an input_required result.
#include "feature_handler.hpp"

#include <mutex>

using namespace mcpread::protocol;
using Kind = ClientRequestError::Kind;

namespace {

const json sampling_params = {{"messages", {{{"role", "user"}, {"content", {{"type", "text"}, {"text", "Hi"}}}}}},
                              {"maxTokens", 100}};
const json sampling_result = {{"role", "assistant"}, {"content", {{"type", "text"}, {"text", "Hello"}}}, {"model", "m"}};
const json elicit_params = {{"message", "Name?"},
                            {"requestedSchema", {{"type", "object"}, {"properties", {{"name", {{"type", "string"}}}}}}}};

// Collects the outcomes a callback receives (it must receive exactly one).
struct Outcomes {
  std::mutex mutex;
  std::vector<ClientResponse> all;
  std::function<void(ClientResponse)> callback() {
    return [this](ClientResponse r) {
      std::lock_guard lock(mutex);
      all.push_back(std::move(r));
    };
  }
  const ClientRequestError& error() const { return std::get<ClientRequestError>(all.at(0)); }
};

json response(const json& id, json result) { return json{{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}}; }

// A session of `version` whose client declares `capabilities`, with one tools/call (id 5) running.
struct Call {
  explicit Call(const std::string& version, json capabilities = {{"sampling", json::object()}, {"elicitation", json::object()}}) {
    h.init(version, std::move(capabilities));
    h.send(rpc_request(5, "tools/call", {{"name", "echo"}, {"arguments", json::object()}}));
    REQUIRE(h.handler.calls.size() == 1);
    REQUIRE(h.handler.calls[0].request);
  }
  void ask(const std::string& method, const json& params) { h.handler.calls[0].request(method, params, outcomes.callback()); }
  // The request that went out on the call's exchange.
  json sent() {
    REQUIRE(!h.replies.empty());
    CHECK_FALSE(h.replies.back().second);  // not final: the call is still running
    return h.replies.back().first;
  }
  // Declared before the harness so that it outlives the session, whose destructor still calls
  // the callbacks of the requests it abandons.
  Outcomes outcomes;
  FeatureHarness h;
};

}  // namespace

TEST_CASE("client requests: answered") {
  for (const std::string v : {"2025-06-18", "2025-11-25"}) {
    CAPTURE(v);
    SUBCASE("sampling/createMessage") {
      Call c(v);
      c.ask("sampling/createMessage", sampling_params);
      const json request = c.sent();
      CHECK(request["method"] == "sampling/createMessage");
      CHECK(request["params"] == sampling_params);
      CHECK(mcpread::test::server_message_errors(v, request).empty());
      CHECK(c.h.session.awaiting_client() == 1);
      CHECK_FALSE(c.h.send(response(request["id"], sampling_result)));
      REQUIRE(c.outcomes.all.size() == 1);
      CHECK(std::get<json>(c.outcomes.all[0]) == sampling_result);
      CHECK(c.h.session.awaiting_client() == 0);
      c.h.send(response(request["id"], sampling_result));  // a repeated answer is ignored
      CHECK(c.outcomes.all.size() == 1);
      c.h.handler.finish();
      CHECK(c.h.replies.back().second);
      CHECK(c.h.checked("tools/call")["id"] == 5);
    }
    SUBCASE("elicitation/create") {
      Call c(v);
      c.ask("elicitation/create", elicit_params);
      const json request = c.sent();
      CHECK(mcpread::test::server_message_errors(v, request).empty());
      c.h.send(response(request["id"], {{"action", "accept"}, {"content", {{"name", "Ada"}}}}));
      REQUIRE(c.outcomes.all.size() == 1);
      CHECK(std::get<json>(c.outcomes.all[0])["content"]["name"] == "Ada");
    }
  }
}

TEST_CASE("client requests: the client's error and malformed answers") {
  Call c("2025-11-25");
  c.ask("sampling/createMessage", sampling_params);
  const json id = c.sent()["id"];
  SUBCASE("an error answer") {
    c.h.send({{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", -1}, {"message", "User rejected sampling request"}}}});
    REQUIRE(c.outcomes.all.size() == 1);
    CHECK(c.outcomes.error().kind == Kind::error_response);
    CHECK(c.outcomes.error().code == -1);
    CHECK(c.outcomes.error().message == "The client answered sampling/createMessage with an error: User rejected sampling request");
  }
  SUBCASE("a result without model") {
    c.h.send(response(id, {{"role", "assistant"}, {"content", {{"type", "text"}, {"text", "x"}}}}));
    REQUIRE(c.outcomes.all.size() == 1);
    CHECK(c.outcomes.error().kind == Kind::malformed);
    CHECK(c.outcomes.error().message ==
          "The client's answer to sampling/createMessage is malformed: it needs \"role\" and \"model\" (strings)");
  }
  SUBCASE("a result that is not an object") {
    c.h.send(response(id, json::array()));
    REQUIRE(c.outcomes.all.size() == 1);
    CHECK(c.outcomes.error().message == "The client's answer to sampling/createMessage is malformed: the result is not an object");
  }
  CHECK(c.h.session.awaiting_client() == 0);
}

TEST_CASE("client requests: a malformed elicitation answer") {
  Call c("2025-11-25");
  c.ask("elicitation/create", elicit_params);
  c.h.send(response(c.sent()["id"], {{"action", "maybe"}}));
  REQUIRE(c.outcomes.all.size() == 1);
  CHECK(c.outcomes.error().message ==
        "The client's answer to elicitation/create is malformed: \"action\" must be \"accept\", \"decline\" or \"cancel\"");
}

TEST_CASE("client requests: ended without an answer, exactly once") {
  Call c("2025-11-25");
  c.ask("sampling/createMessage", sampling_params);
  const json id = c.sent()["id"];
  SUBCASE("the tool call is cancelled while waiting") {
    c.h.send({{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", 5}}}});
    REQUIRE(c.outcomes.all.size() == 1);
    CHECK(c.outcomes.error().kind == Kind::cancelled);
    CHECK(c.outcomes.error().message == "sampling/createMessage was abandoned: the tool call was cancelled");
    c.h.send(response(id, sampling_result));  // too late: dropped
    CHECK(c.outcomes.all.size() == 1);
    SUBCASE("and a request made after the cancellation ends at once") {
      Outcomes later;
      c.h.handler.calls[0].request("sampling/createMessage", sampling_params, later.callback());
      REQUIRE(later.all.size() == 1);
      CHECK(later.error().kind == Kind::cancelled);
    }
  }
  SUBCASE("the tool call finishes first") {
    c.h.handler.finish();
    REQUIRE(c.outcomes.all.size() == 1);
    CHECK(c.outcomes.error().message == "sampling/createMessage was abandoned: the tool call finished before the client answered");
  }
  SUBCASE("the session ends") {
    c.h.session.cancel_all();
    REQUIRE(c.outcomes.all.size() == 1);
    CHECK(c.outcomes.error().message == "sampling/createMessage was abandoned: the session ended");
  }
  CHECK(c.h.session.awaiting_client() == 0);
}

TEST_CASE("client requests: refused before anything is sent") {
  SUBCASE("the client lacks the sampling capability") {
    Call c("2025-11-25", json{{"elicitation", json::object()}});
    const auto before = c.h.replies.size();
    c.ask("sampling/createMessage", sampling_params);
    REQUIRE(c.outcomes.all.size() == 1);
    CHECK(c.outcomes.error().kind == Kind::not_supported);
    CHECK(c.outcomes.error().code == -32021);
    CHECK(c.outcomes.error().message ==
          "The client did not declare the sampling capability, so sampling/createMessage cannot be sent to it");
    CHECK(c.h.replies.size() == before);
  }
  SUBCASE("the client lacks the elicitation capability") {
    Call c("2025-11-25", json{{"sampling", json::object()}});
    c.ask("elicitation/create", elicit_params);
    CHECK(c.outcomes.error().message ==
          "The client did not declare the elicitation capability, so elicitation/create cannot be sent to it");
  }
  SUBCASE("elicitation before 2025-06-18") {
    Call c("2025-03-26");
    c.ask("elicitation/create", elicit_params);
    CHECK(c.outcomes.error().code == -32601);
    CHECK(c.outcomes.error().message ==
          "elicitation/create is not part of the negotiated protocol version (it exists from 2025-06-18 on)");
  }
  SUBCASE("sampling in 2024-11-05 is allowed") {
    Call c("2024-11-05");
    c.ask("sampling/createMessage", sampling_params);
    CHECK(mcpread::test::server_message_errors("2024-11-05", c.sent()).empty());
    CHECK(c.outcomes.all.empty());
  }
  SUBCASE("a method the server cannot ask") {
    Call c("2025-11-25");
    c.ask("tools/list", json::object());
    CHECK(c.outcomes.error().message ==
          "The server cannot ask the client \"tools/list\"; it asks sampling/createMessage, elicitation/create or roots/list");
  }
}

TEST_CASE("client requests in stateless requests: input_required, then the retry's answers") {
  FeatureHarness h;
  const json caps = {{"sampling", json::object()}};
  h.send(stateless_rpc(9, "tools/call", {{"name", "echo"}}, caps));
  REQUIRE(h.handler.calls.size() == 1);
  Outcomes first;
  h.handler.calls[0].request("sampling/createMessage", sampling_params, first.callback());
  REQUIRE(first.all.size() == 1);
  CHECK(first.error().kind == Kind::input_required);
  CHECK(first.error().message ==
        "sampling/createMessage was sent to the client as input request \"input-1\"; the call completes when the client "
        "retries with its answer");
  h.handler.finish();
  json r = h.checked("tools/call", "2026-07-28");
  CHECK(r["result"]["resultType"] == "input_required");
  CHECK(r["result"]["inputRequests"] == json{{"input-1", {{"method", "sampling/createMessage"}, {"params", sampling_params}}}});

  SUBCASE("the retry carries the answer") {
    h.send(stateless_rpc(10, "tools/call", {{"name", "echo"}, {"inputResponses", {{"input-1", sampling_result}}}}, caps));
    Outcomes second;
    h.handler.calls[1].request("sampling/createMessage", sampling_params, second.callback());
    REQUIRE(second.all.size() == 1);
    CHECK(std::get<json>(second.all[0]) == sampling_result);
    h.handler.finish();
    r = h.checked("tools/call", "2026-07-28");
    CHECK(r["result"]["resultType"] == "complete");
  }
  SUBCASE("the retry carries a malformed answer") {
    h.send(stateless_rpc(10, "tools/call", {{"name", "echo"}, {"inputResponses", {{"input-1", {{"model", 1}}}}}}, caps));
    Outcomes second;
    h.handler.calls[1].request("sampling/createMessage", sampling_params, second.callback());
    CHECK(second.error().kind == Kind::malformed);
  }
  SUBCASE("a client without the capability") {
    h.send(stateless_rpc(10, "tools/call", {{"name", "echo"}}));
    Outcomes second;
    h.handler.calls[1].request("sampling/createMessage", sampling_params, second.callback());
    CHECK(second.error().kind == Kind::not_supported);
    CHECK(second.error().code == -32021);
    h.handler.finish();
    CHECK(h.checked("tools/call", "2026-07-28")["result"]["resultType"] == "complete");
  }
}
