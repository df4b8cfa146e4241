// Multi round-trip requests of the stateless era (SEP-2322): a tool or prompt asks the client
// under keys it names, the request is answered input_required with a sealed requestState, and the
// retry brings the answers; earlier rounds' answers come back from the state, bad states and bad
// answers get -32602 naming the cause. Every message must validate against the 2026-07-28 schema.
#include "feature_handler.hpp"
#include "mcpread/protocol/stateless.hpp"
#include "schema_validator.hpp"

#include <doctest/doctest.h>

using namespace mcpread::protocol;
using mcpread::test::server_message_errors;
using Kind = ClientRequestError::Kind;

namespace {

constexpr const char* modern = "2026-07-28";
const json all_caps{{"sampling", json::object()}, {"elicitation", json::object()}, {"roots", json::object()}};

json request(json id, const std::string& method, json params, const json& caps = all_caps) {
  params["_meta"] = {{meta_key::protocol_version, modern}, {meta_key::client_capabilities, caps}};
  return json{{"jsonrpc", "2.0"}, {"id", std::move(id)}, {"method", method}, {"params", std::move(params)}};
}

json name_form() {
  return {{"message", "What is your name?"},
          {"requestedSchema", {{"type", "object"}, {"properties", {{"name", {{"type", "string"}}}}}}}};
}
json accepted(const std::string& field, const std::string& value) {
  return {{"action", "accept"}, {"content", {{field, value}}}};
}

struct Rounds {
  FeatureHandler handler;
  StatelessDispatcher dispatcher{ServerInfo{"mcp-read", "", "1.0", ""}, handler};
  std::vector<json> replies;

  // The final reply to `j` once the handler finished it (`finish` runs between serve and reply).
  json serve(const json& j) {
    const Message m = std::get<Message>(to_message(j));
    if (auto e = dispatcher.check(m)) return make_error(*e);
    const std::size_t before = replies.size();
    dispatcher.serve(m, [this](std::string s, bool) { replies.push_back(json::parse(s)); },
                     std::make_shared<std::atomic<bool>>(false));
    return replies.size() > before ? replies.back() : json();
  }
  // The outcome of one ask of the last call.
  ClientResponse ask(const std::string& key, const std::string& method = "elicitation/create",
                     json params = name_form()) {
    ClientResponse outcome = ClientRequestError{};
    handler.calls.back().ask_as(key, method, std::move(params), [&](ClientResponse r) { outcome = std::move(r); });
    return outcome;
  }
  json finish() {
    handler.finish(json{{"content", json::array({{{"type", "text"}, {"text", "done"}}})}});
    return replies.back();
  }
};

bool waits(const ClientResponse& r) {
  const auto* e = std::get_if<ClientRequestError>(&r);
  return e != nullptr && e->kind == Kind::input_required;
}

json call(json id, json extra = json::object()) {
  json params{{"name", "echo"}, {"arguments", {{"n", 1}}}};
  params.update(extra);
  return request(std::move(id), "tools/call", std::move(params));
}

}  // namespace

TEST_CASE("input rounds: a named key, then its answer on the retry") {
  Rounds r;
  r.serve(call(1));
  CHECK_FALSE(r.handler.calls.back().resumed);
  CHECK(waits(r.ask("user_name")));
  const json first = r.finish();
  CHECK(first["result"]["resultType"] == "input_required");
  CHECK(first["result"]["inputRequests"] ==
        json{{"user_name", {{"method", "elicitation/create"}, {"params", name_form()}}}});
  REQUIRE(first["result"]["requestState"].is_string());
  CHECK(server_message_errors(modern, first, "tools/call").empty());

  SUBCASE("with the state") {
    r.serve(call(2, {{"inputResponses", {{"user_name", accepted("name", "Alice")}}},
                     {"requestState", first["result"]["requestState"]}}));
    CHECK(r.handler.calls.back().resumed);
    const ClientResponse answer = r.ask("user_name");
    REQUIRE(std::holds_alternative<json>(answer));
    CHECK(std::get<json>(answer) == accepted("name", "Alice"));
    const json done = r.finish();
    CHECK(done["result"]["resultType"] == "complete");
    CHECK(server_message_errors(modern, done, "tools/call").empty());
  }
  SUBCASE("without it, and with keys nobody asked (ignored)") {
    r.serve(call(2, {{"inputResponses", {{"user_name", accepted("name", "Alice")}, {"extra", {{"x", 1}}}}}}));
    CHECK_FALSE(r.handler.calls.back().resumed);
    CHECK(std::holds_alternative<json>(r.ask("user_name")));
    CHECK(r.finish()["result"]["resultType"] == "complete");
  }
  SUBCASE("an answer under another key: asked again") {
    r.serve(call(2, {{"inputResponses", {{"wrong_key", accepted("data", "x")}}}}));
    CHECK(waits(r.ask("user_name")));
    CHECK(r.finish()["result"]["inputRequests"].contains("user_name"));
  }
}

TEST_CASE("input rounds: multi-round, earlier answers come back from the state") {
  Rounds r;
  r.serve(call(1));
  CHECK(waits(r.ask("step1")));
  const json first = r.finish();
  r.serve(call(2, {{"inputResponses", {{"step1", accepted("name", "Alice")}}},
                   {"requestState", first["result"]["requestState"]}}));
  CHECK(std::holds_alternative<json>(r.ask("step1")));
  CHECK(waits(r.ask("step2")));
  const json second = r.finish();
  CHECK(second["result"]["resultType"] == "input_required");
  CHECK(second["result"]["inputRequests"].size() == 1);
  CHECK(second["result"]["inputRequests"].contains("step2"));
  CHECK(second["result"]["requestState"] != first["result"]["requestState"]);
  CHECK(server_message_errors(modern, second, "tools/call").empty());
  // Round 3 sends only step 2's answer.
  r.serve(call(3, {{"inputResponses", {{"step2", accepted("color", "blue")}}},
                   {"requestState", second["result"]["requestState"]}}));
  const ClientResponse step1 = r.ask("step1");
  REQUIRE(std::holds_alternative<json>(step1));
  CHECK(std::get<json>(step1) == accepted("name", "Alice"));
  CHECK(std::holds_alternative<json>(r.ask("step2")));
  CHECK(r.finish()["result"]["resultType"] == "complete");
}

TEST_CASE("input rounds: the tool's own state travels sealed") {
  Rounds r;
  r.serve(call(1));
  CHECK(r.handler.calls.back().state.is_null());
  r.handler.calls.back().keep_state(json{{"asked", "confirm"}});
  CHECK(waits(r.ask("confirm")));
  const json first = r.finish();
  r.serve(call(2, {{"inputResponses", {{"confirm", {{"action", "accept"}, {"content", {{"ok", true}}}}}}},
                   {"requestState", first["result"]["requestState"]}}));
  CHECK(r.handler.calls.back().state == json{{"asked", "confirm"}});
}

TEST_CASE("input rounds: what is refused with -32602") {
  Rounds r;
  r.serve(call(1));
  CHECK(waits(r.ask("user_name")));
  const std::string state = r.finish()["result"]["requestState"].get<std::string>();
  const auto refusal = [&](const json& extra) {
    const json reply = r.serve(call(9, extra));
    CHECK(server_message_errors(modern, reply).empty());
    return reply["error"]["code"] == -32602 ? reply["error"]["message"].get<std::string>() : reply.dump();
  };
  const std::size_t calls = r.handler.calls.size();
  SUBCASE("inputResponses null or not an object") {
    const std::string expected =
        "Invalid params: inputResponses must be an object: the client's results keyed as the inputRequests named them";
    CHECK(refusal({{"inputResponses", nullptr}}) == expected);
    CHECK(refusal({{"inputResponses", json::array()}}) == expected);
    CHECK(r.handler.calls.size() == calls);  // the tool never ran
  }
  SUBCASE("requestState not a string") {
    CHECK(refusal({{"requestState", 42}}) == "Invalid params: requestState must be a string, as the server issued it");
  }
  SUBCASE("an altered state") {
    CHECK(refusal({{"requestState", state + "-TAMPERED"}, {"inputResponses", {{"user_name", accepted("name", "A")}}}})
              .find("Invalid params: requestState failed its integrity check") == 0);
    CHECK(r.handler.calls.size() == calls);
  }
  SUBCASE("the state of another tool call") {
    json other = call(9, {{"requestState", state}});
    other["params"]["arguments"] = {{"n", 2}};
    const json reply = r.serve(other);
    CHECK(reply["error"]["message"] ==
          "Invalid params: requestState was issued for other arguments; a retry must repeat the arguments of the "
          "request it answers");
  }
  SUBCASE("an answer to the asked key that is not an object") {
    r.serve(call(9, {{"inputResponses", {{"user_name", 12345}}}}));
    const ClientResponse answer = r.ask("user_name");
    REQUIRE(std::holds_alternative<ClientRequestError>(answer));
    CHECK(std::get<ClientRequestError>(answer).kind == Kind::malformed);
    const json reply = r.finish();
    CHECK(reply["error"]["code"] == -32602);
    CHECK(reply["error"]["message"] ==
          "Invalid params: inputResponses.user_name must be an object: the client's result for elicitation/create");
  }
}

TEST_CASE("input rounds: only what the client declared is asked") {
  Rounds r;
  r.serve(request(1, "tools/call", {{"name", "echo"}}, json{{"sampling", json::object()}}));
  const ClientResponse elicit = r.ask("user_name");
  REQUIRE(std::holds_alternative<ClientRequestError>(elicit));
  CHECK(std::get<ClientRequestError>(elicit).kind == Kind::not_supported);
  CHECK(waits(r.ask("question", "sampling/createMessage",
                    {{"messages", json::array({{{"role", "user"}, {"content", {{"type", "text"}, {"text", "Hi?"}}}}})},
                     {"maxTokens", 10}})));
  const json reply = r.finish();
  CHECK(reply["result"]["inputRequests"].size() == 1);
  CHECK(reply["result"]["inputRequests"]["question"]["method"] == "sampling/createMessage");
  CHECK(server_message_errors(modern, reply, "tools/call").empty());
}

TEST_CASE("input rounds: prompts/get asks too") {
  Rounds r;
  const json get = request(1, "prompts/get", {{"name", "plain"}});
  r.serve(get);
  ClientResponse outcome;
  r.handler.prompt_requests.back().ask_as("user_context", "elicitation/create", name_form(),
                                          [&](ClientResponse c) { outcome = std::move(c); });
  CHECK(waits(outcome));
  const json messages = json::array({{{"role", "user"}, {"content", {{"type", "text"}, {"text", "hi"}}}}});
  r.handler.finish_prompt(json{{"messages", messages}});
  const json first = r.replies.back();
  CHECK(first["result"]["resultType"] == "input_required");
  CHECK(first["result"]["inputRequests"].contains("user_context"));
  CHECK(server_message_errors(modern, first, "prompts/get").empty());

  json again = get;
  again["params"]["inputResponses"] = {{"user_context", accepted("context", "tests")}};
  again["params"]["requestState"] = first["result"]["requestState"];
  r.serve(again);
  CHECK(r.handler.prompt_requests.back().resumed);
  r.handler.prompt_requests.back().ask_as("user_context", "elicitation/create", name_form(),
                                          [&](ClientResponse c) { outcome = std::move(c); });
  CHECK(std::holds_alternative<json>(outcome));
  r.handler.finish_prompt(json{{"messages", messages}});
  CHECK(r.replies.back()["result"]["resultType"] == "complete");
  CHECK(r.replies.back()["result"]["messages"] == messages);
  CHECK(server_message_errors(modern, r.replies.back(), "prompts/get").empty());

  // A tool's state does not open a prompt.
  json moved = request(2, "prompts/get", {{"name", "greet"}, {"arguments", {{"who", "x"}}}});
  moved["params"]["requestState"] = first["result"]["requestState"];
  CHECK(r.serve(moved)["error"]["message"] ==
        "Invalid params: requestState was issued for another request (prompts/get of \"plain\"), not this "
        "prompts/get of \"greet\"");
}

TEST_CASE("input rounds: ask_as outside a stateless request") {
  ToolCall session_call;
  std::string asked;
  session_call.request = [&](const std::string& method, json, std::function<void(ClientResponse)> done) {
    asked = method;
    done(json{{"action", "cancel"}});
  };
  ClientResponse outcome;
  session_call.ask_as("user_name", "elicitation/create", name_form(), [&](ClientResponse c) { outcome = std::move(c); });
  CHECK(asked == "elicitation/create");  // a session has no keys: a plain request
  CHECK(std::holds_alternative<json>(outcome));

  PromptRequest nowhere;
  nowhere.ask_as("k", "roots/list", json::object(), [&](ClientResponse c) { outcome = std::move(c); });
  REQUIRE(std::holds_alternative<ClientRequestError>(outcome));
  CHECK(std::get<ClientRequestError>(outcome).message == "roots/list cannot be asked of the client from this request");
}
