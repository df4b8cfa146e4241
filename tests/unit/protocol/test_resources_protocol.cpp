// Resources in the protocol core, with a fake handler: the capability, the three methods in
// initialize sessions of every version and in stateless (2026-07-28) requests, their errors, and
// every answer checked against the version's schema.
#include "fake_handler.hpp"
#include "mcpread/protocol/session.hpp"
#include "mcpread/protocol/stateless.hpp"
#include "schema_validator.hpp"

#include <doctest/doctest.h>

using namespace mcpread::protocol;
using mcpread::test::server_message_errors;

namespace {

constexpr const char* modern = "2026-07-28";

json request(json id, const std::string& method, json params = json::object()) {
  return json{{"jsonrpc", "2.0"}, {"id", std::move(id)}, {"method", method}, {"params", std::move(params)}};
}

json stateless_meta() {
  return json{{meta_key::protocol_version, modern}, {meta_key::client_capabilities, json::object()}};
}

json stateless_request(json id, const std::string& method, json params = json::object()) {
  params["_meta"] = stateless_meta();
  return request(std::move(id), method, std::move(params));
}

json text_contents(const std::string& uri) {
  return json{{"contents", json::array({{{"uri", uri}, {"mimeType", "text/plain"}, {"text", "hello"}}})}};
}

struct Harness {
  explicit Harness(bool resources = true) {
    if (resources) handler.offer_resources();
  }
  FakeHandler handler;
  std::vector<std::pair<json, bool>> replies;
  Session session{ServerInfo{"mcp-read", "Title", "1.0", ""}, handler, [](std::string) {}};
  std::string version;

  bool send(const json& message) {
    return session.receive(message.dump(), [this](std::string m, bool final) {
      replies.emplace_back(m.empty() ? json() : json::parse(m), final);
    });
  }
  json last() const { return replies.back().first; }
  void init(const std::string& v) {
    version = v;
    send(request(0, "initialize", {{"protocolVersion", v}, {"capabilities", json::object()}}));
    send({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
    replies.clear();
  }
  // The last answer, after checking it against the schema of the session's version.
  json checked(const std::string& method) const {
    const json r = last();
    CHECK_MESSAGE(server_message_errors(version, r, method).empty(),
                  server_message_errors(version, r, method) << "\n" << r.dump());
    return r;
  }
};

}  // namespace

TEST_CASE("resources: the capability follows the handler") {
  SUBCASE("offered: resources {} in initialize, nothing to subscribe to") {
    Harness h;
    h.send(request(1, "initialize", {{"protocolVersion", "2025-11-25"}, {"capabilities", json::object()}}));
    CHECK(h.last()["result"]["capabilities"]["resources"] == json::object());
  }
  SUBCASE("offered: resources {} in server/discover") {
    Harness h;
    h.send(stateless_request(1, "server/discover"));
    CHECK(h.last()["result"]["capabilities"]["resources"] == json::object());
  }
  SUBCASE("not offered: no capability, and the methods are not found") {
    Harness h(false);
    h.send(request(1, "initialize", {{"protocolVersion", "2025-11-25"}, {"capabilities", json::object()}}));
    CHECK_FALSE(h.last()["result"]["capabilities"].contains("resources"));
    h.send({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
    for (const char* method : {"resources/templates/list", "resources/list", "resources/read"}) {
      h.send(request(2, method, {{"uri", "file:///x"}}));
      CHECK(h.last()["error"]["code"] == -32601);
      CHECK(h.last()["error"]["message"] == std::string("Method not found: ") + method);
    }
    h.send(stateless_request(3, "resources/list"));
    CHECK(h.last()["error"]["code"] == -32601);
    CHECK(h.last()["error"]["message"] == "Method not found: resources/list");
    CHECK(h.handler.resource_requests.empty());
  }
}

TEST_CASE("resources: templates/list in every session version") {
  for (const std::string version : {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"}) {
    CAPTURE(version);
    Harness h;
    h.init(version);
    h.send(request(1, "resources/templates/list"));
    const json r = h.checked("resources/templates/list");
    REQUIRE(r["result"]["resourceTemplates"].size() == 1);
    const json& t = r["result"]["resourceTemplates"][0];
    CHECK(t["uriTemplate"] == "file:///{+path}");
    CHECK(t["name"] == "file");
    CHECK(t["description"] == "A file by path");
    CHECK_FALSE(t.contains("mimeType"));
    CHECK(t.contains("title") == (version >= "2025-06-18"));
    CHECK_FALSE(r["result"].contains("nextCursor"));
  }
  SUBCASE("an unknown cursor: -32602") {
    Harness h;
    h.init("2025-11-25");
    h.send(request(1, "resources/templates/list", {{"cursor", "nope"}}));
    const json r = h.checked("resources/templates/list");
    CHECK(r["error"]["code"] == -32602);
    CHECK(r["error"]["message"] == "Invalid params: unknown \"cursor\"; pass a nextCursor from an "
                                   "earlier resources/templates/list");
  }
}

TEST_CASE("resources: list and read in a session") {
  Harness h;
  h.init("2025-11-25");
  SUBCASE("read: the handler gets the uri and the version; its result is the answer") {
    h.send(request(5, "resources/read", {{"uri", "file:///r/a.txt"}}));
    CHECK(h.replies.empty());
    CHECK(h.session.in_flight() == 1);
    REQUIRE(h.handler.resource_requests.size() == 1);
    CHECK(h.handler.resource_methods[0] == "resources/read");
    CHECK(h.handler.resource_requests[0].uri == "file:///r/a.txt");
    CHECK(h.handler.resource_requests[0].protocol_version == "2025-11-25");
    CHECK(h.handler.resource_requests[0].id == 5);
    h.handler.finish_resource(text_contents("file:///r/a.txt"));
    const json r = h.checked("resources/read");
    CHECK(r["id"] == 5);
    CHECK(r["result"]["contents"][0]["text"] == "hello");
    CHECK(h.replies.back().second);
    CHECK(h.session.in_flight() == 0);
  }
  SUBCASE("read of a missing resource: -32002 with the uri") {
    h.send(request(6, "resources/read", {{"uri", "file:///r/missing"}}));
    h.handler.finish_resource(ResourceError{ResourceError::Kind::not_found, "File not found: /r/missing."});
    const json r = h.checked("resources/read");
    CHECK(r["error"]["code"] == -32002);
    CHECK(r["error"]["message"] == "Resource not found");
    CHECK(r["error"]["data"] == json{{"uri", "file:///r/missing"}, {"reason", "File not found: /r/missing."}});
  }
  SUBCASE("read of something not served: -32602 with the handler's words") {
    h.send(request(7, "resources/read", {{"uri", "file:///r/a.bin"}}));
    h.handler.finish_resource(ResourceError{ResourceError::Kind::invalid, "/r/a.bin is a binary file."});
    const json r = h.checked("resources/read");
    CHECK(r["error"]["code"] == -32602);
    CHECK(r["error"]["message"] == "Invalid params: /r/a.bin is a binary file.");
    CHECK(r["error"]["data"] == json{{"uri", "file:///r/a.bin"}});
  }
  SUBCASE("a read that fails: -32603 with the handler's words") {
    h.send(request(8, "resources/read", {{"uri", "file:///r/locked"}}));
    h.handler.finish_resource(ResourceError{ResourceError::Kind::failed, "Permission denied: cannot read /r/locked."});
    const json r = h.checked("resources/read");
    CHECK(r["error"]["code"] == -32603);
    CHECK(r["error"]["message"] == "Permission denied: cannot read /r/locked.");
  }
  SUBCASE("read without a uri: -32602, the handler never asked") {
    for (const json& params : {json::object(), json{{"uri", 3}}, json{{"uri", ""}}}) {
      h.send(request(9, "resources/read", params));
      const json r = h.checked("resources/read");
      CHECK(r["error"]["code"] == -32602);
      CHECK(r["error"]["message"] == "Invalid params: \"resources/read\" needs \"uri\" (a non-empty string)");
    }
    CHECK(h.handler.resource_requests.empty());
  }
  SUBCASE("list: the cursor goes to the handler, a non-string one is refused") {
    h.send(request(10, "resources/list"));
    h.send(request(11, "resources/list", {{"cursor", "mcp-read:resources:200"}}));
    REQUIRE(h.handler.resource_requests.size() == 2);
    CHECK(h.handler.resource_methods[0] == "resources/list");
    CHECK(h.handler.resource_requests[0].cursor.empty());
    CHECK(h.handler.resource_requests[1].cursor == "mcp-read:resources:200");
    h.handler.finish_resource(json{{"resources", json::array({{{"uri", "file:///r/a"}, {"name", "a"}, {"size", 1}}})},
                                   {"nextCursor", "mcp-read:resources:1"}});
    CHECK(h.checked("resources/list")["result"]["nextCursor"] == "mcp-read:resources:1");
    h.handler.finish_resource(ResourceError{ResourceError::Kind::invalid, "unknown \"cursor\""});
    const json r = h.checked("resources/list");
    CHECK(r["error"]["code"] == -32602);
    CHECK_FALSE(r["error"].contains("data"));
    h.send(request(12, "resources/list", {{"cursor", 5}}));
    CHECK(h.checked("resources/list")["error"]["message"] ==
          "Invalid params: unknown \"cursor\"; pass a nextCursor from an earlier resources/list");
  }
  SUBCASE("a cancelled request is flagged and its answer dropped") {
    h.send(request("r1", "resources/read", {{"uri", "file:///r/a"}}));
    h.send({{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", "r1"}}}});
    CHECK(h.handler.resource_requests[0].cancelled->load());
    h.handler.finish_resource(text_contents("file:///r/a"));
    REQUIRE(h.replies.size() == 1);
    CHECK(h.replies[0].first.is_null());
    CHECK(h.replies[0].second);
    CHECK(h.session.in_flight() == 0);
  }
  SUBCASE("an id in use is refused") {
    h.send(request(13, "resources/read", {{"uri", "file:///r/a"}}));
    h.send(request(13, "resources/list"));
    CHECK(h.last()["error"]["code"] == -32600);
    CHECK(h.handler.resource_requests.size() == 1);
  }
}

TEST_CASE("resources: legacy versions and batches") {
  SUBCASE("2024-11-05: a missing resource is -32002 too") {
    Harness h;
    h.init("2024-11-05");
    h.send(request(1, "resources/read", {{"uri", "file:///r/missing"}}));
    CHECK(h.handler.resource_requests[0].protocol_version == "2024-11-05");
    h.handler.finish_resource(ResourceError{ResourceError::Kind::not_found, "gone"});
    CHECK(h.checked("resources/read")["error"]["code"] == -32002);
  }
  SUBCASE("2025-03-26: resources in a batch") {
    Harness h;
    h.init("2025-03-26");
    h.send(json::array({request(1, "resources/templates/list"),
                        request(2, "resources/read", {{"uri", "file:///r/a"}})}));
    CHECK(h.replies.empty());
    h.handler.finish_resource(text_contents("file:///r/a"));
    const json all = h.last();
    REQUIRE(all.is_array());
    REQUIRE(all.size() == 2);
    CHECK(server_message_errors("2025-03-26", all[0], "resources/templates/list").empty());
    CHECK(server_message_errors("2025-03-26", all[1], "resources/read").empty());
  }
  SUBCASE("before initialize: -32600") {
    Harness h;
    h.send(request(1, "resources/list"));
    CHECK(h.last()["error"]["code"] == -32600);
  }
}

TEST_CASE("resources: stateless requests (2026-07-28)") {
  Harness h;
  h.version = modern;
  SUBCASE("check accepts the three methods") {
    StatelessDispatcher dispatcher{ServerInfo{"mcp-read", "Title", "1.0", ""}, h.handler};
    for (const char* method : {"resources/templates/list", "resources/list", "resources/read"})
      CHECK_FALSE(dispatcher.check(std::get<Message>(to_message(stateless_request(1, method)))));
  }
  SUBCASE("templates/list: complete, public, cached for a day") {
    h.send(stateless_request(1, "resources/templates/list"));
    const json r = h.checked("resources/templates/list");
    CHECK(r["result"]["resultType"] == "complete");
    CHECK(r["result"]["cacheScope"] == "public");
    CHECK(r["result"]["ttlMs"] == 86400000);
    CHECK(r["result"]["resourceTemplates"][0]["title"] == "File");
    CHECK(r["result"]["_meta"][meta_key::server_info]["name"] == "mcp-read");
  }
  SUBCASE("list: private, a few seconds") {
    h.send(stateless_request(2, "resources/list"));
    REQUIRE(h.handler.resource_requests.size() == 1);
    CHECK(h.handler.resource_requests[0].protocol_version == modern);
    h.handler.finish_resource(json{{"resources", json::array()}});
    const json r = h.checked("resources/list");
    CHECK(r["result"]["resultType"] == "complete");
    CHECK(r["result"]["cacheScope"] == "private");
    CHECK(r["result"]["ttlMs"] == 5000);
    CHECK(r["result"]["_meta"][meta_key::server_info]["version"] == "1.0");
  }
  SUBCASE("read: private, stale at once") {
    h.send(stateless_request(3, "resources/read", {{"uri", "file:///r/a"}}));
    h.handler.finish_resource(text_contents("file:///r/a"));
    const json r = h.checked("resources/read");
    CHECK(r["result"]["cacheScope"] == "private");
    CHECK(r["result"]["ttlMs"] == 0);
    CHECK(r["result"]["contents"][0]["uri"] == "file:///r/a");
  }
  SUBCASE("read of a missing resource: -32602 with the uri") {
    h.send(stateless_request(4, "resources/read", {{"uri", "file:///r/missing"}}));
    h.handler.finish_resource(ResourceError{ResourceError::Kind::not_found, "File not found: /r/missing."});
    const json r = h.checked("resources/read");
    CHECK(r["error"]["code"] == -32602);
    CHECK(r["error"]["message"] == "Resource not found");
    CHECK(r["error"]["data"]["uri"] == "file:///r/missing");
  }
  SUBCASE("read without a uri, list with a bad cursor: -32602") {
    h.send(stateless_request(5, "resources/read"));
    CHECK(h.checked("resources/read")["error"]["code"] == -32602);
    h.send(stateless_request(6, "resources/templates/list", {{"cursor", "x"}}));
    CHECK(h.checked("resources/templates/list")["error"]["code"] == -32602);
    CHECK(h.handler.resource_requests.empty());
  }
  SUBCASE("cancelled: an empty final reply") {
    h.send(stateless_request(7, "resources/read", {{"uri", "file:///r/a"}}));
    h.send({{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", 7}}}});
    h.handler.finish_resource(text_contents("file:///r/a"));
    REQUIRE(h.replies.size() == 1);
    CHECK(h.replies[0].first.is_null());
    CHECK(h.replies[0].second);
    CHECK(h.session.in_flight() == 0);
  }
}
