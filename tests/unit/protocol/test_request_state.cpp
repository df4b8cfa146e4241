// The sealed requestState of input rounds (SEP-2322 §Security Considerations): a state opens
// only unaltered, before it expires, under the key that sealed it, and for the very request it
// was issued for (method, tool or prompt, arguments).
#include "mcpread/protocol/request_state.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace mcpread::protocol;

namespace {

constexpr std::int64_t issued_at = 1'800'000'000;

StateSeal::Key key_of(std::uint8_t fill) {
  StateSeal::Key key{};
  key.fill(fill);
  return key;
}

struct Clocked {
  std::int64_t now = issued_at;
  StateSeal seal{key_of(7), [this] { return now; }};
};

StateBinding tool_call(const std::string& name, json arguments = json::object()) {
  return StateBinding{"tools/call", name, std::move(arguments)};
}

// The refusal `open` gives, or "" when it opened.
std::string refusal(const StateSeal& seal, const StateBinding& binding, const std::string& token) {
  auto opened = seal.open(binding, token);
  const auto* why = std::get_if<std::string>(&opened);
  return why ? *why : std::string();
}

const std::string altered =
    "requestState failed its integrity check: it was altered, or issued before this server restarted; send the "
    "request again without requestState and inputResponses";

}  // namespace

TEST_CASE("request state: what was sealed opens again for the same request") {
  Clocked c;
  const StateBinding binding = tool_call("ask", {{"path", "/a"}});
  const json answers{{"user_name", {{"action", "accept"}, {"content", {{"name", "Alice"}}}}}};
  const std::string token = c.seal.seal(binding, answers, json{{"step", 2}});
  auto opened = c.seal.open(binding, token);
  REQUIRE(std::holds_alternative<OpenedState>(opened));
  CHECK(std::get<OpenedState>(opened).answers == answers);
  CHECK(std::get<OpenedState>(opened).tool_state == json{{"step", 2}});
  // The argument digest does not depend on the order the client wrote the keys in.
  CHECK(refusal(c.seal, tool_call("ask", json::parse(R"({"path": "/a"})")), token).empty());
  // Opaque to the client: payload and MAC, both base64url.
  CHECK(token.find('.') != std::string::npos);
  CHECK(token.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=.") ==
        std::string::npos);
}

TEST_CASE("request state: an altered state is refused") {
  Clocked c;
  const StateBinding binding = tool_call("ask");
  const std::string token = c.seal.seal(binding, json::object(), nullptr);
  SUBCASE("a suffix (the conformance suite's -TAMPERED)") { CHECK(refusal(c.seal, binding, token + "-TAMPERED") == altered); }
  SUBCASE("one character of the payload") {
    std::string changed = token;
    changed[3] = changed[3] == 'A' ? 'B' : 'A';
    CHECK(refusal(c.seal, binding, changed) == altered);
  }
  SUBCASE("one character of the MAC") {
    std::string changed = token;
    changed[token.size() - 3] = changed[token.size() - 3] == 'A' ? 'B' : 'A';
    CHECK(refusal(c.seal, binding, changed) == altered);
  }
  SUBCASE("a payload of the client's own, with the old MAC") {
    const std::string mac = token.substr(token.rfind('.'));
    CHECK(refusal(c.seal, binding, "eyJhIjp7fX0" + mac) == altered);
  }
  SUBCASE("sealed under another key (another server process)") {
    StateSeal other{key_of(8), [] { return issued_at; }};
    CHECK(refusal(other, binding, token) == altered);
  }
  SUBCASE("not a state at all") {
    CHECK(refusal(c.seal, binding, "no dot here") ==
          "requestState is malformed: it is not a state this server issued");
    CHECK(refusal(c.seal, binding, "") == "requestState is malformed: it is not a state this server issued");
  }
}

TEST_CASE("request state: a state expires") {
  Clocked c;
  const StateBinding binding = tool_call("ask");
  const std::string token = c.seal.seal(binding, json::object(), nullptr);
  c.now = issued_at + StateSeal::lifetime_seconds;
  CHECK(refusal(c.seal, binding, token).empty());  // the last second still counts
  c.now = issued_at + StateSeal::lifetime_seconds + 1;
  CHECK(refusal(c.seal, binding, token) ==
        "requestState expired (a state lasts 10 minutes); send the request again without requestState and "
        "inputResponses");
}

TEST_CASE("request state: replayed against another request") {
  Clocked c;
  const std::string token = c.seal.seal(tool_call("ask", {{"path", "/a"}}), json::object(), nullptr);
  SUBCASE("another tool") {
    CHECK(refusal(c.seal, tool_call("delete", {{"path", "/a"}}), token) ==
          "requestState was issued for another request (tools/call of \"ask\"), not this tools/call of \"delete\"");
  }
  SUBCASE("other arguments") {
    CHECK(refusal(c.seal, tool_call("ask", {{"path", "/b"}}), token) ==
          "requestState was issued for other arguments; a retry must repeat the arguments of the request it "
          "answers");
    CHECK_FALSE(refusal(c.seal, tool_call("ask"), token).empty());
  }
  SUBCASE("another method of the same name") {
    CHECK(refusal(c.seal, StateBinding{"prompts/get", "ask", {{"path", "/a"}}}, token) ==
          "requestState was issued for another request (tools/call of \"ask\"), not this prompts/get of \"ask\"");
  }
}

TEST_CASE("request state: the binding of a message") {
  const auto message = [](const json& params) {
    return std::get<Message>(to_message(json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "x"}, {"params", params}}));
  };
  const StateBinding tool = StateBinding::of(message({{"name", "t"}, {"arguments", {{"a", 1}}}}));
  CHECK(tool.method == "x");
  CHECK(tool.target == "t");
  CHECK(tool.arguments == json{{"a", 1}});
  const StateBinding resource = StateBinding::of(message({{"uri", "file:///a"}}));
  CHECK(resource.target == "file:///a");
  CHECK(resource.arguments.is_null());
}
