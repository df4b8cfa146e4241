// The tasks extension (io.modelcontextprotocol/tasks, SEP-2663) in the stateless dispatcher: a
// tools/call that becomes a task, tasks/get, tasks/update, tasks/cancel, the extension's gating
// and the removed methods. Subcases are named after the conformance checks (tasks-* scenarios)
// they mirror. TaskStore's expiry and bound are tested with a clock of the test's own.
#include "mcpread/protocol/session.hpp"
#include "mcpread/protocol/stateless.hpp"
#include "schema_validator.hpp"
#include "tasks.hpp"

#include <doctest/doctest.h>

#include <deque>
#include <regex>

using namespace mcpread::protocol;
using mcpread::test::server_message_errors;

namespace {

constexpr const char* modern = "2026-07-28";

json with_tasks(json caps = json::object()) {
  caps["extensions"][tasks_extension] = json::object();
  return caps;
}

json request(json id, const std::string& method, json params, json caps) {
  params["_meta"] = json{{meta_key::protocol_version, modern}, {meta_key::client_capabilities, std::move(caps)}};
  return json{{"jsonrpc", "2.0"}, {"id", std::move(id)}, {"method", method}, {"params", std::move(params)}};
}

Message message_of(const json& j) { return std::get<Message>(to_message(j)); }

ToolDefinition tool(std::string name, TaskSupport support) {
  ToolDefinition t{std::move(name), "", "a tool", json{{"type", "object"}}, std::nullopt, json::object()};
  t.task_support = support;
  return t;
}

// Calls wait until the test finishes them.
class TaskHandler : public ServerHandler {
 public:
  const std::vector<ToolDefinition>& tools() const override { return tools_; }
  void call_tool(ToolCall call, std::function<void(ToolOutcome)> done) override {
    calls.push_back(std::move(call));
    pending.push_back(std::move(done));
  }
  std::vector<ToolDefinition> tools_{tool("greet", TaskSupport::forbidden), tool("slow", TaskSupport::optional),
                                     tool("must", TaskSupport::required)};
  std::deque<ToolCall> calls;
  std::deque<std::function<void(ToolOutcome)>> pending;
};

struct Harness {
  TaskHandler handler;
  StatelessDispatcher dispatcher{ServerInfo{"mcp-read", "", "1.0", ""}, handler};
  std::vector<std::pair<std::string, bool>> replies;
  std::vector<std::string> methods;  // the request method each reply answers or accompanies

  std::optional<MessageError> check(const json& j) { return dispatcher.check(message_of(j)); }
  json serve(const json& j, std::shared_ptr<std::atomic<bool>> cancelled = nullptr) {
    const Message m = message_of(j);
    REQUIRE_FALSE(dispatcher.check(m));
    const std::size_t before = replies.size();
    dispatcher.serve(m, [this, method = m.method](std::string s, bool final) {
      replies.emplace_back(std::move(s), final);
      methods.push_back(method);
    }, cancelled ? cancelled : std::make_shared<std::atomic<bool>>(false));
    return replies.size() > before ? json::parse(replies.back().first) : json();
  }
  // Calls `name` as a client with `caps` and makes the call a task: its CreateTaskResult.
  json start(const std::string& name, json caps = with_tasks()) {
    serve(request(1, "tools/call", {{"name", name}}, std::move(caps)));
    REQUIRE(handler.calls.back().start_task);
    REQUIRE(handler.calls.back().start_task("working on it"));
    return json::parse(replies.back().first);
  }
  json get(const std::string& id) { return serve(request(2, "tasks/get", {{"taskId", id}}, with_tasks())); }
  // Every message sent so far is valid for 2026-07-28 (task results: the JSON-RPC envelope).
  void all_valid() const {
    for (std::size_t i = 0; i < replies.size(); ++i)
      if (!replies[i].first.empty()) CHECK(server_message_errors(modern, json::parse(replies[i].first), methods[i]) == "");
  }
};

}  // namespace

TEST_CASE("tasks: discover and gating") {
  Harness h;
  SUBCASE("tasks-extension-advertised: under capabilities.extensions, never capabilities.tasks") {
    const json r = h.serve(request(1, "server/discover", json::object(), json::object()));
    CHECK(r["result"]["capabilities"]["extensions"][tasks_extension] == json::object());
    CHECK_FALSE(r["result"]["capabilities"].contains("tasks"));
  }
  SUBCASE("sessions (2025-11-25) are not offered the extension") {
    CHECK_FALSE(server_capabilities(h.handler, "2025-11-25").contains("extensions"));
  }
  SUBCASE("a server without task tools neither declares nor serves it") {
    h.handler.tools_ = {tool("greet", TaskSupport::forbidden)};
    CHECK_FALSE(server_capabilities(h.handler, modern).contains("extensions"));
    auto e = h.check(request(1, "tasks/get", {{"taskId", "x"}}, with_tasks()));
    REQUIRE(e);
    CHECK(e->code == -32601);
  }
  SUBCASE("sep-2663-tasks-methods-non-declaring: -32021 without the extension") {
    for (const char* method : {"tasks/get", "tasks/update", "tasks/cancel"}) {
      auto e = h.check(request(1, method, {{"taskId", "gate-test"}, {"inputResponses", json::object()}}, json::object()));
      REQUIRE(e);
      CHECK(e->code == -32021);
      CHECK(e->message == std::string("Missing required client capability: extension io.modelcontextprotocol/tasks. ") +
                              method + " serves only clients that declare it in "
                              "_meta[\"io.modelcontextprotocol/clientCapabilities\"].extensions");
      CHECK(e->data == json{{"requiredCapabilities", {{"extensions", {{tasks_extension, json::object()}}}}}});
      CHECK(server_message_errors(modern, make_error(*e)) == "");
    }
  }
  SUBCASE("sep-2663-tasks-result-removed-method-not-found, tasks-removed-tasks-list: -32601") {
    for (const char* method : {"tasks/result", "tasks/list"}) {
      auto e = h.check(request(1, method, {{"taskId", "x"}}, with_tasks()));
      REQUIRE(e);
      CHECK(e->code == -32601);
      CHECK(e->message == std::string("Method not found: ") + method);
    }
  }
  SUBCASE("sep-2663-server-returns-missing-capability-when-required: a required tool without the extension") {
    auto e = h.check(request(1, "tools/call", {{"name", "must"}}, json::object()));
    REQUIRE(e);
    CHECK(e->code == -32021);
    CHECK(e->data["requiredCapabilities"]["extensions"].contains(tasks_extension));
    CHECK_FALSE(h.check(request(1, "tools/call", {{"name", "must"}}, with_tasks())));
  }
  SUBCASE("tasks/update whose inputResponses is not an object: -32602") {
    auto e = h.check(request(1, "tasks/update", {{"taskId", "x"}, {"inputResponses", 3}}, with_tasks()));
    REQUIRE(e);
    CHECK(e->code == -32602);
    CHECK(e->message == "Invalid params: tasks/update needs \"inputResponses\", an object of answers by input request key");
  }
}

TEST_CASE("tasks: which calls may become tasks") {
  Harness h;
  SUBCASE("sep-2663-server-rejects-undeclared-client: an optional tool without the extension stays sync") {
    h.serve(request(1, "tools/call", {{"name", "slow"}}, json::object()));
    CHECK_FALSE(h.handler.calls.back().start_task("no"));
    CHECK(h.replies.empty());
    h.handler.pending.back()(json{{"content", json::array()}});
    CHECK(json::parse(h.replies.back().first)["result"]["resultType"] == "complete");
  }
  SUBCASE("sep-2663-legacy-task-param-ignored: a forbidden tool never becomes one") {
    h.serve(request(1, "tools/call", {{"name", "greet"}, {"task", {{"ttl", 60000}, {"pollInterval", 100}}}}, with_tasks()));
    CHECK_FALSE(h.handler.calls.back().start_task("no"));
    CHECK(h.replies.empty());
  }
  SUBCASE("sep-2663-mrtr-synchronous-before-task-creation: not while input requests of the round are pending") {
    h.serve(request(1, "tools/call", {{"name", "must"}}, with_tasks({{"elicitation", json::object()}})));
    ToolCall& call = h.handler.calls.back();
    call.request("elicitation/create", json{{"message", "Name?"}}, [](ClientResponse) {});
    CHECK_FALSE(call.start_task("no"));
    h.handler.pending.back()(json{{"content", json::array()}});
    const json r = json::parse(h.replies.back().first);
    CHECK(r["result"]["resultType"] == "input_required");
    CHECK_FALSE(r["result"].contains("taskId"));
  }
  SUBCASE("a call whose request was cancelled does not become one") {
    auto cancelled = std::make_shared<std::atomic<bool>>(true);
    h.serve(request(1, "tools/call", {{"name", "slow"}}, with_tasks()), cancelled);
    CHECK_FALSE(h.handler.calls.back().start_task("no"));
  }
}

TEST_CASE("tasks: lifecycle") {
  Harness h;
  const json created = h.start("slow");
  const std::string id = created["result"]["taskId"];
  SUBCASE("sep-2663-result-type-task-on-create, tasks-wire-field-renames: a flat CreateTaskResult") {
    CHECK(h.replies.back().second);
    const json& r = created["result"];
    CHECK(r["resultType"] == "task");
    CHECK(std::regex_match(id, std::regex("[0-9a-f]{32}")));
    CHECK(r["status"] == "working");
    CHECK(r["statusMessage"] == "working on it");
    CHECK(std::regex_match(r["createdAt"].get<std::string>(), std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)")));
    CHECK(r["lastUpdatedAt"] == r["createdAt"]);
    CHECK(r["ttlMs"] == 3600000);
    CHECK(r["pollIntervalMs"] == 500);
    for (const char* absent : {"task", "result", "error", "inputRequests", "requestState", "ttl", "pollInterval"})
      CHECK_FALSE(r.contains(absent));
  }
  SUBCASE("sep-2663-durable-create-strong-consistency, sep-2663-tasks-get-status-working") {
    const json r = h.get(id)["result"];
    CHECK(r["resultType"] == "complete");
    CHECK(r["taskId"] == id);
    CHECK(r["status"] == "working");
    CHECK_FALSE(r.contains("requestState"));
  }
  SUBCASE("progress sets statusMessage; log messages are dropped") {
    h.handler.calls.back().progress(12, 80, "page 12 of 80");
    h.handler.calls.back().log(LogLevel::emergency, "nowhere to go");
    CHECK(h.get(id)["result"]["statusMessage"] == "page 12 of 80");
    h.handler.calls.back().progress(3, std::nullopt, "");
    CHECK(h.get(id)["result"]["statusMessage"] == "3");
    for (const auto& [message, final] : h.replies) CHECK(final);
  }
  SUBCASE("sep-2663-tasks-get-status-completed, tasks-no-related-task-meta-on-inlined-result") {
    const json result{{"content", json::array({{{"type", "text"}, {"text", "done"}}})}};
    h.handler.pending.back()(result);
    const json r = h.get(id)["result"];
    CHECK(r["status"] == "completed");
    CHECK(r["result"] == result);
  }
  SUBCASE("sep-2663-tool-error-uses-completed-status") {
    h.handler.pending.back()(json{{"content", json::array()}, {"isError", true}});
    const json r = h.get(id)["result"];
    CHECK(r["status"] == "completed");
    CHECK(r["result"]["isError"] == true);
  }
  SUBCASE("sep-2663-tasks-get-status-failed: a protocol error, no result") {
    h.handler.pending.back()(RequestError{-32603, "it broke"});
    const json r = h.get(id)["result"];
    CHECK(r["status"] == "failed");
    CHECK(r["error"] == json{{"code", -32603}, {"message", "it broke"}});
    CHECK_FALSE(r.contains("result"));
  }
  SUBCASE("sep-2663-cancel-ack-empty-result: the call is told to stop, a late result is dropped") {
    const json ack = h.serve(request(3, "tasks/cancel", {{"taskId", id}}, with_tasks()))["result"];
    CHECK(ack == json{{"resultType", "complete"}, {"_meta", {{meta_key::server_info, {{"name", "mcp-read"}, {"version", "1.0"}}}}}});
    CHECK(h.handler.calls.back().cancelled->load());
    h.handler.pending.back()(json{{"content", json::array()}});
    CHECK(h.get(id)["result"]["status"] == "cancelled");
  }
  SUBCASE("shutdown (cancel_tasks) cancels a running task and tells its call") {
    h.dispatcher.cancel_tasks();
    CHECK(h.handler.calls.back().cancelled->load());
    CHECK(h.get(id)["result"]["status"] == "cancelled");
  }
  SUBCASE("tasks-cancel-terminal-idempotent-ack: a finished task is left as it is") {
    h.handler.pending.back()(json{{"content", json::array()}});
    CHECK(h.serve(request(3, "tasks/cancel", {{"taskId", id}}, with_tasks()))["result"]["resultType"] == "complete");
    CHECK(h.get(id)["result"]["status"] == "completed");
  }
  SUBCASE("sep-2663-tasks-get-invalid-task-id-32602, and for update and cancel") {
    for (const char* method : {"tasks/get", "tasks/update", "tasks/cancel"}) {
      const json r = h.serve(request(4, method, {{"taskId", "tasks-conformance-nonexistent-12345"}, {"inputResponses", json::object()}}, with_tasks()));
      CHECK(r["error"]["code"] == -32602);
      CHECK(r["error"]["message"] == "Invalid params: Unknown task: tasks-conformance-nonexistent-12345 (never created here, or past its ttlMs)");
    }
  }
  h.all_valid();
}

TEST_CASE("tasks: input requests answered with tasks/update") {
  std::vector<ClientResponse> answers;  // outlives the dispatcher, whose end abandons what is pending
  Harness h;
  const std::string id = h.start("slow", with_tasks({{"elicitation", json::object()}}))["result"]["taskId"];
  ToolCall& call = h.handler.calls.back();
  const json form{{"message", "Sure?"}, {"requestedSchema", {{"type", "object"}, {"properties", json::object()}}}};
  call.request("elicitation/create", form, [&](ClientResponse r) { answers.push_back(std::move(r)); });
  call.request("elicitation/create", form, [&](ClientResponse r) { answers.push_back(std::move(r)); });
  auto update = [&](json responses) {
    return h.serve(request(5, "tasks/update", {{"taskId", id}, {"inputResponses", std::move(responses)}}, with_tasks()));
  };
  const json accept{{"action", "accept"}, {"content", {{"confirm", true}}}};
  SUBCASE("sep-2663-tasks-get-status-input-required: every pending request with its method") {
    const json r = h.get(id)["result"];
    CHECK(r["status"] == "input_required");
    CHECK(r["inputRequests"] == json{{"input-1", {{"method", "elicitation/create"}, {"params", form}}},
                                     {"input-2", {{"method", "elicitation/create"}, {"params", form}}}});
  }
  SUBCASE("tasks-mrtr-partial-fulfillment: the answered key leaves, the task waits for the other") {
    const json ack = update({{"input-1", accept}})["result"];
    for (const char* absent : {"taskId", "status", "result", "error", "inputRequests"}) CHECK_FALSE(ack.contains(absent));
    REQUIRE(answers.size() == 1);
    CHECK(std::get<json>(answers[0]) == accept);
    json r = h.get(id)["result"];
    CHECK(r["status"] == "input_required");
    CHECK(r["inputRequests"].size() == 1);
    CHECK(r["inputRequests"].contains("input-2"));
    SUBCASE("tasks-mrtr-tasks-update-resumes: all answered, the task works again") {
      update({{"input-2", accept}, {"input-1", accept}});  // an answered key is not answered twice
      CHECK(answers.size() == 2);
      r = h.get(id)["result"];
      CHECK(r["status"] == "working");
      CHECK_FALSE(r.contains("inputRequests"));
    }
  }
  SUBCASE("unknown keys are ignored, and acknowledged") {
    CHECK(update({{"unknown-key", {{"ignored", true}}}})["result"]["resultType"] == "complete");
    CHECK(answers.empty());
  }
  SUBCASE("a named ask (ask_as) goes to the task too, under a key of the task's") {
    call.ask_as("user_name", "elicitation/create", form, [&](ClientResponse r) { answers.push_back(std::move(r)); });
    CHECK(h.get(id)["result"]["inputRequests"].contains("input-3"));
    CHECK(answers.empty());
  }
  SUBCASE("keys are not reused after an answer") {
    update({{"input-1", accept}, {"input-2", accept}});
    call.request("elicitation/create", form, [&](ClientResponse r) { answers.push_back(std::move(r)); });
    CHECK(h.get(id)["result"]["inputRequests"].contains("input-3"));
  }
  SUBCASE("a cancel abandons the pending requests") {
    h.serve(request(3, "tasks/cancel", {{"taskId", id}}, with_tasks()));
    REQUIRE(answers.size() == 2);
    CHECK(std::get<ClientRequestError>(answers[0]).kind == ClientRequestError::Kind::cancelled);
    CHECK_FALSE(h.get(id)["result"].contains("inputRequests"));
  }
  SUBCASE("a capability the client did not declare is refused at once") {
    call.request("sampling/createMessage", json{{"messages", json::array()}, {"maxTokens", 1}},
                 [&](ClientResponse r) { answers.push_back(std::move(r)); });
    REQUIRE(answers.size() == 1);
    CHECK(std::get<ClientRequestError>(answers[0]).kind == ClientRequestError::Kind::not_supported);
  }
  h.all_valid();
}

TEST_CASE("tasks: TaskStore keeps a task for its ttlMs and at most max_tasks of them") {
  auto now = std::chrono::system_clock::time_point(std::chrono::hours(24 * 365 * 50));
  TaskStore store([&now] { return now; });
  auto flag = std::make_shared<std::atomic<bool>>(false);
  const std::string id = (*store.create(flag, "", json::object()))["taskId"];
  SUBCASE("tasks-no-early-ttl-expiry: readable until ttlMs has passed, then gone and stopped") {
    now += std::chrono::milliseconds(TaskStore::ttl_ms - 1);
    CHECK(store.get(id));
    now += std::chrono::milliseconds(1);
    CHECK_FALSE(store.get(id));
    CHECK(flag->load());
  }
  SUBCASE("full: no new task, until a finished one can make room") {
    for (std::size_t i = 1; i < TaskStore::max_tasks; ++i) REQUIRE(store.create(nullptr, "", json::object()));
    CHECK_FALSE(store.create(nullptr, "", json::object()));
    store.finish(id, json{{"content", json::array()}});
    CHECK(store.create(nullptr, "", json::object()));
    CHECK_FALSE(store.get(id));  // the oldest finished task made room
  }
  SUBCASE("cancel_all stops every running task") {
    store.cancel_all();
    CHECK(flag->load());
    CHECK((*store.get(id))["status"] == "cancelled");
  }
  SUBCASE("iso8601: UTC with milliseconds") {
    CHECK(iso8601(std::chrono::system_clock::time_point(std::chrono::milliseconds(1234567890123))) ==
          "2009-02-13T23:31:30.123Z");
  }
}

TEST_CASE("tasks: over a stdio session (stateless requests beside initialize)") {
  TaskHandler handler;
  std::vector<json> replies;
  Session session{ServerInfo{"mcp-read", "", "1.0", ""}, handler, [](std::string) {}};
  auto send = [&](const json& j) {
    return session.receive(j.dump(), [&](std::string m, bool) {
      if (!m.empty()) replies.push_back(json::parse(m));
    });
  };
  send(request(1, "tools/call", {{"name", "slow"}}, with_tasks()));
  REQUIRE(handler.calls.back().start_task("working"));
  const std::string id = replies.back()["result"]["taskId"];
  SUBCASE("the answered call leaves the calls in flight; a notifications/cancelled for its id is ignored") {
    CHECK(session.in_flight() == 0);
    send(json{{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", 1}}}});
    CHECK_FALSE(handler.calls.back().cancelled->load());
  }
  SUBCASE("tasks/get and tasks/cancel are served by the session") {
    send(request(2, "tasks/get", {{"taskId", id}}, with_tasks()));
    CHECK(replies.back()["result"]["status"] == "working");
    send(request(3, "tasks/cancel", {{"taskId", id}}, with_tasks()));
    CHECK(handler.calls.back().cancelled->load());
  }
  SUBCASE("shutdown (cancel_all) cancels the session's tasks") {
    session.cancel_all();
    CHECK(handler.calls.back().cancelled->load());
    send(request(4, "tasks/get", {{"taskId", id}}, with_tasks()));
    CHECK(replies.back()["result"]["status"] == "cancelled");
  }
}
