#pragma once
// The sealed requestState of multi round-trip requests (protocol 2026-07-28, SEP-2322). A
// stateless server keeps nothing between a request and its retry, so what the next round needs
// (the answers collected so far, the tool's own state) travels through the client. The client
// must not be able to change it or move it elsewhere: the state is MAC'd with HMAC-SHA256 under
// a key that never leaves the process, bound to the request that got it (method, tool or prompt
// name or resource URI, a digest of the arguments), and it expires.
// Token: "<base64url payload>.<base64url HMAC of the first part>".
#include "mcpread/protocol/jsonrpc.hpp"

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <variant>

namespace mcpread::protocol {

// What a state is bound to: a retry must repeat these to use it.
struct StateBinding {
  std::string method;
  std::string target;  // params.name (tools/call, prompts/get) or params.uri (resources/read)
  json arguments;      // params.arguments; only its digest goes into the state
  static StateBinding of(const Message& m);
};

// What a verified state carries.
struct OpenedState {
  json answers = json::object();  // inputResponses of earlier rounds, by key
  json tool_state;                // what the tool kept for its next round; null when nothing
};

class StateSeal {
 public:
  using Key = std::array<std::uint8_t, 32>;
  using Clock = std::function<std::int64_t()>;  // seconds since the epoch
  // Long enough for a person to answer an elicitation, short enough that a leaked state is soon
  // worthless.
  static constexpr std::int64_t lifetime_seconds = 10 * 60;

  // A random key from getrandom() and the system clock.
  StateSeal();
  StateSeal(const Key& key, Clock now);
  // The seal every stateless dispatcher of this process shares: a state stays valid whichever
  // transport the retry comes on, and dies with the process.
  static const StateSeal& process();

  [[nodiscard]] std::string seal(const StateBinding& binding, const json& answers, const json& tool_state) const;
  // The state's contents, or why it is refused (a sentence for the -32602 message).
  [[nodiscard]] std::variant<OpenedState, std::string> open(const StateBinding& binding,
                                                           const std::string& token) const;

 private:
  [[nodiscard]] std::string mac_of(const std::string& payload) const;

  Key key_{};
  Clock now_;
};

}  // namespace mcpread::protocol
