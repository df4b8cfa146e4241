// Resource subscriptions in the protocol core: resources.subscribe only when the handler offers
// them, the session keeps the URIs and sends notifications/resources/updated for them alone, the
// handler may refuse a URI; stateless requests (2026-07-28) have no resources/subscribe.
#include "feature_handler.hpp"

using namespace mcpread::protocol;

TEST_CASE("subscriptions: the capability") {
  FeatureHandler handler;
  handler.offer_resources();
  CHECK(server_capabilities(handler, "2025-11-25")["resources"] == json{{"subscribe", true}});
  CHECK(server_capabilities(handler, "2026-07-28")["resources"] == json::object());
  handler.subscriptions_on = false;
  CHECK(server_capabilities(handler, "2025-11-25")["resources"] == json::object());
}

TEST_CASE("resources/subscribe and /unsubscribe in a session") {
  FeatureHarness h;
  h.init("2025-06-18");
  SUBCASE("subscribed URIs get updates, others do not") {
    h.send(rpc_request(1, "resources/subscribe", {{"uri", "test://a"}}));
    CHECK(h.checked("resources/subscribe")["result"] == json::object());
    CHECK(h.handler.subscription_changes == std::vector<std::pair<std::string, bool>>{{"test://a", true}});
    CHECK(h.session.subscribed("test://a"));
    h.session.resource_updated("test://a");
    h.session.resource_updated("test://b");
    REQUIRE(h.outbound.size() == 1);
    CHECK(h.outbound[0] == json{{"jsonrpc", "2.0"}, {"method", "notifications/resources/updated"}, {"params", {{"uri", "test://a"}}}});
    CHECK(mcpread::test::server_message_errors("2025-06-18", h.outbound[0]).empty());
    h.send(rpc_request(2, "resources/unsubscribe", {{"uri", "test://a"}}));
    CHECK(h.checked("resources/unsubscribe")["result"] == json::object());
    h.session.resource_updated("test://a");
    CHECK(h.outbound.size() == 1);
    CHECK_FALSE(h.session.subscribed("test://a"));
  }
  SUBCASE("no uri") {
    h.send(rpc_request(1, "resources/subscribe"));
    CHECK(h.last()["error"]["code"] == -32602);
    CHECK(h.last()["error"]["message"] == "Invalid params: \"resources/subscribe\" needs \"uri\" (a non-empty string)");
  }
  SUBCASE("the handler refuses the URI") {
    h.handler.refuse_subscription = ResourceError{ResourceError::Kind::not_found, "no such thing"};
    h.send(rpc_request(1, "resources/subscribe", {{"uri", "test://x"}}));
    CHECK(h.last()["error"] == json{{"code", -32002}, {"message", "Resource not found"},
                                    {"data", {{"uri", "test://x"}, {"reason", "no such thing"}}}});
    CHECK_FALSE(h.session.subscribed("test://x"));
  }
  SUBCASE("not offered: -32601") {
    h.handler.subscriptions_on = false;
    h.send(rpc_request(1, "resources/subscribe", {{"uri", "test://a"}}));
    CHECK(h.last()["error"]["code"] == -32601);
    CHECK(h.last()["error"]["message"] == "Method not found: resources/subscribe");
  }
}

TEST_CASE("resources/subscribe is not a stateless method") {
  FeatureHarness h;
  h.send(stateless_rpc(1, "resources/subscribe", {{"uri", "test://a"}}));
  CHECK(h.last()["error"]["code"] == -32601);
  CHECK(h.last()["error"]["message"] == "Method not found: resources/subscribe");
}
