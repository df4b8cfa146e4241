// subscriptions/listen (2026-07-28) in the protocol core: offered when a list can change, the
// filter checked, the acknowledgment first, every message of a stream tagged with its id, only
// the types asked for, cancelled streams dropped, the closing result on shutdown, a cap on open
// streams; over stdio through the dual-era session. Every message is validated against the schema.
#include "fake_handler.hpp"
#include "mcpread/protocol/session.hpp"
#include "mcpread/protocol/stateless.hpp"
#include "schema_validator.hpp"

#include <doctest/doctest.h>

#include <mutex>

using namespace mcpread::protocol;
using mcpread::test::server_message_errors;

namespace {

constexpr const char* modern = "2026-07-28";
constexpr const char* sid = "io.modelcontextprotocol/subscriptionId";

class ChangingHandler : public FakeHandler {
 public:
  ListChanges changes{.tools = true, .prompts = true};
  [[nodiscard]] ListChanges list_changes() const override { return changes; }
};

json meta() {
  return json{{meta_key::protocol_version, modern}, {meta_key::client_capabilities, json::object()}};
}

json listen_request(json id, json notifications) {
  json params{{"_meta", meta()}};
  if (!notifications.is_discarded()) params["notifications"] = std::move(notifications);
  return json{{"jsonrpc", "2.0"}, {"id", std::move(id)}, {"method", "subscriptions/listen"}, {"params", params}};
}

Message message_of(const json& j) { return std::get<Message>(to_message(j)); }

// One open listen stream: what the dispatcher sent on it, in order.
struct Stream {
  std::vector<std::pair<std::string, bool>> frames;
  std::shared_ptr<std::atomic<bool>> cancelled = std::make_shared<std::atomic<bool>>(false);
  [[nodiscard]] json at(std::size_t i) const { return json::parse(frames.at(i).first); }
  [[nodiscard]] bool ended() const { return !frames.empty() && frames.back().second; }
};

struct Harness {
  ChangingHandler handler;
  StatelessDispatcher dispatcher{ServerInfo{"mcp-read", "", "1.0", ""}, handler};
  std::deque<Stream> streams;

  Stream& listen(json id, json notifications) {
    const Message m = message_of(listen_request(std::move(id), std::move(notifications)));
    REQUIRE_FALSE(dispatcher.check(m));
    Stream& s = streams.emplace_back();
    dispatcher.serve(m, [&s](std::string text, bool final) { s.frames.emplace_back(std::move(text), final); },
                     s.cancelled);
    return s;
  }
};

// Every frame of a stream valid for 2026-07-28, the final one as the listen request's answer.
void check_schema(const Stream& s) {
  for (const auto& [text, final] : s.frames) {
    if (text.empty()) continue;
    CHECK(server_message_errors(modern, json::parse(text), final ? "subscriptions/listen" : "") == "");
  }
}

json ack(json id, json agreed) {
  return json{{"jsonrpc", "2.0"},
              {"method", "notifications/subscriptions/acknowledged"},
              {"params", {{"_meta", {{sid, id}}}, {"notifications", std::move(agreed)}}}};
}

json changed(const std::string& list, json id) {
  return json{{"jsonrpc", "2.0"}, {"method", "notifications/" + list + "/list_changed"}, {"params", {{"_meta", {{sid, id}}}}}};
}

json closing(json id) {
  return json{{"jsonrpc", "2.0"},
              {"id", id},
              {"result",
               {{"resultType", "complete"},
                {"_meta", {{sid, id}, {meta_key::server_info, {{"name", "mcp-read"}, {"version", "1.0"}}}}}}}};
}

}  // namespace

TEST_CASE("listen: offered only when a list can change, with listChanged declared from 2026-07-28") {
  Harness h;
  SUBCASE("nothing can change: -32601 and no listChanged") {
    h.handler.changes = {};
    auto e = h.dispatcher.check(message_of(listen_request(1, {{"toolsListChanged", true}})));
    REQUIRE(e);
    CHECK(e->code == -32601);
    CHECK(e->message == "Method not found: subscriptions/listen");
    CHECK(server_capabilities(h.handler, modern)["tools"] == json{{"listChanged", false}});
  }
  SUBCASE("the tool list can change: declared for 2026-07-28 only") {
    h.handler.changes = {.tools = true};
    CHECK_FALSE(h.dispatcher.check(message_of(listen_request(1, {{"toolsListChanged", true}}))));
    CHECK(server_capabilities(h.handler, modern)["tools"] == json{{"listChanged", true}});
    CHECK(h.dispatcher.discover_result()["capabilities"]["tools"] == json{{"listChanged", true}});
    // Sessions (initialize) never get list_changed notifications: the 2025 capabilities stay as they were.
    CHECK(server_capabilities(h.handler, "2025-11-25")["tools"] == json{{"listChanged", false}});
  }
}

TEST_CASE("listen: a malformed filter is refused with -32602") {
  Harness h;
  const auto refusal = [&h](json notifications) {
    auto e = h.dispatcher.check(message_of(listen_request(5, std::move(notifications))));
    REQUIRE(e);
    CHECK(e->code == -32602);
    CHECK(e->id == 5);
    CHECK(server_message_errors(modern, make_error(*e)) == "");
    return e->message;
  };
  CHECK(refusal(json(json::value_t::discarded)) ==
        "Invalid params: \"subscriptions/listen\" needs \"notifications\" (an object naming the notifications to "
        "receive, e.g. {\"toolsListChanged\": true})");
  CHECK(refusal(json::array()) ==
        "Invalid params: \"subscriptions/listen\" needs \"notifications\" (an object naming the notifications to "
        "receive, e.g. {\"toolsListChanged\": true})");
  CHECK(refusal({{"toolsListChanged", "yes"}}) == "Invalid params: notifications.toolsListChanged must be a boolean");
  CHECK(refusal({{"resourceSubscriptions", {1}}}) ==
        "Invalid params: notifications.resourceSubscriptions must be an array of URI strings");
}

TEST_CASE("listen: the acknowledgment comes first and states what the server honours") {
  Harness h;
  SUBCASE("unsupported types are left out") {
    Stream& s = h.listen(7, {{"toolsListChanged", true},
                             {"resourcesListChanged", true},
                             {"resourceSubscriptions", {"file:///a"}}});
    REQUIRE(s.frames.size() == 1);
    CHECK_FALSE(s.frames[0].second);  // the stream stays open
    CHECK(s.at(0) == ack(7, {{"toolsListChanged", true}}));
    check_schema(s);
  }
  SUBCASE("a string id; nothing asked, nothing agreed") {
    Stream& s = h.listen("sub-a", json::object());
    REQUIRE(s.frames.size() == 1);
    CHECK(s.at(0) == ack("sub-a", json::object()));
    check_schema(s);
  }
  SUBCASE("false asks for nothing") {
    Stream& s = h.listen(1, {{"toolsListChanged", false}, {"promptsListChanged", true}});
    CHECK(s.at(0) == ack(1, {{"promptsListChanged", true}}));
  }
}

TEST_CASE("listen: every message of a stream carries its id, and only the types asked for arrive") {
  Harness h;
  Stream& tools = h.listen(1, {{"toolsListChanged", true}});
  Stream& prompts = h.listen("p", {{"promptsListChanged", true}});
  Stream& both = h.listen(3, {{"toolsListChanged", true}, {"promptsListChanged", true}});
  h.handler.notify_list_changed(ListKind::tools);
  h.handler.notify_list_changed(ListKind::prompts);
  h.handler.notify_list_changed(ListKind::resources);  // nobody asked (nor could)
  REQUIRE(tools.frames.size() == 2);
  CHECK(tools.at(1) == changed("tools", 1));
  REQUIRE(prompts.frames.size() == 2);
  CHECK(prompts.at(1) == changed("prompts", "p"));
  REQUIRE(both.frames.size() == 3);
  CHECK(both.at(1) == changed("tools", 3));
  CHECK(both.at(2) == changed("prompts", 3));
  for (const Stream* s : {&tools, &prompts, &both}) {
    CHECK_FALSE(s->ended());
    check_schema(*s);
  }
}

TEST_CASE("listen: a cancelled stream is dropped") {
  Harness h;
  Stream& gone = h.listen(1, {{"toolsListChanged", true}});
  Stream& kept = h.listen(2, {{"toolsListChanged", true}});
  gone.cancelled->store(true);
  SUBCASE("at the next change: ended without an answer, and nothing more sent to it") {
    h.handler.notify_list_changed(ListKind::tools);
    REQUIRE(gone.frames.size() == 2);
    CHECK(gone.frames[1] == std::pair<std::string, bool>{"", true});
    REQUIRE(kept.frames.size() == 2);
    CHECK(kept.at(1) == changed("tools", 2));
    h.handler.notify_list_changed(ListKind::tools);
    CHECK(gone.frames.size() == 2);
    CHECK(kept.frames.size() == 3);
  }
  SUBCASE("when the transport says so") {
    h.dispatcher.drop_cancelled_subscriptions();
    REQUIRE(gone.frames.size() == 2);
    CHECK(gone.frames[1] == std::pair<std::string, bool>{"", true});
    CHECK(kept.frames.size() == 1);
  }
  SUBCASE("at shutdown: no closing result for it") {
    h.dispatcher.close_subscriptions();
    CHECK(gone.frames.back() == std::pair<std::string, bool>{"", true});
    CHECK(kept.at(1) == closing(2));
  }
}

TEST_CASE("listen: the server's shutdown ends each stream with the request's result") {
  Harness h;
  Stream& a = h.listen(4, {{"toolsListChanged", true}});
  Stream& b = h.listen("b", {{"promptsListChanged", true}});
  h.dispatcher.close_subscriptions();
  for (auto [s, id] : {std::pair{&a, json(4)}, std::pair{&b, json("b")}}) {
    REQUIRE(s->frames.size() == 2);
    CHECK(s->frames[1].second);
    CHECK(s->at(1) == closing(id));
    check_schema(*s);
  }
  SUBCASE("nothing follows the end") {
    h.handler.notify_list_changed(ListKind::tools);
    CHECK(a.frames.size() == 2);
  }
  SUBCASE("a listen after shutdown is acknowledged and closed at once") {
    Stream& late = h.listen(9, {{"toolsListChanged", true}});
    REQUIRE(late.frames.size() == 2);
    CHECK(late.at(0) == ack(9, {{"toolsListChanged", true}}));
    CHECK(late.at(1) == closing(9));
  }
}

TEST_CASE("listen: at most 64 open streams") {
  Harness h;
  for (int i = 0; i < 64; ++i) CHECK_FALSE(h.listen(i, {{"toolsListChanged", true}}).ended());
  Stream& refused = h.listen(64, {{"toolsListChanged", true}});
  REQUIRE(refused.frames.size() == 1);
  CHECK(refused.frames[0].second);
  CHECK(refused.at(0)["id"] == 64);
  CHECK(refused.at(0)["error"]["code"] == -32603);
  CHECK(refused.at(0)["error"]["message"] ==
        "Internal error: 64 subscriptions/listen streams are open, the most this server keeps; close one (or cancel "
        "it) before opening another");
  check_schema(refused);
  SUBCASE("a cancelled one makes room") {
    h.streams.front().cancelled->store(true);
    Stream& next = h.listen(65, {{"toolsListChanged", true}});
    REQUIRE(next.frames.size() == 1);
    CHECK(next.at(0) == ack(65, {{"toolsListChanged", true}}));
  }
}

TEST_CASE("listen over stdio: the session's stream, cancelled by notifications/cancelled, closed at shutdown") {
  ChangingHandler handler;
  std::mutex mutex;
  std::vector<std::pair<json, bool>> sent;
  Session session(ServerInfo{"mcp-read", "", "1.0", ""}, handler, [](std::string) {});
  const auto reply = [&](std::string text, bool final) {
    std::lock_guard lock(mutex);
    sent.emplace_back(text.empty() ? json() : json::parse(text), final);
  };
  REQUIRE(session.receive(listen_request(11, {{"toolsListChanged", true}}).dump(), reply));
  REQUIRE(sent.size() == 1);
  CHECK(sent[0] == std::pair{ack(11, {{"toolsListChanged", true}}), false});
  handler.notify_list_changed(ListKind::tools);
  REQUIRE(sent.size() == 2);
  CHECK(sent[1] == std::pair{changed("tools", 11), false});
  CHECK(session.in_flight() == 1);  // its id stays taken while it is open
  SUBCASE("notifications/cancelled ends it without an answer") {
    const json cancel{{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", 11}}}};
    CHECK_FALSE(session.receive(cancel.dump(), reply));
    REQUIRE(sent.size() == 3);
    CHECK(sent[2] == std::pair{json(), true});
    CHECK(session.in_flight() == 0);
  }
  SUBCASE("the end of input closes it with its result") {
    session.close_subscriptions();
    REQUIRE(sent.size() == 3);
    CHECK(sent[2] == std::pair{closing(11), true});
    CHECK(server_message_errors(modern, sent[2].first, "subscriptions/listen") == "");
    CHECK(session.in_flight() == 0);
  }
  SUBCASE("shutdown (cancel_all) closes it with its result") {
    session.cancel_all();
    REQUIRE(sent.size() == 3);
    CHECK(sent[2] == std::pair{closing(11), true});
  }
}
