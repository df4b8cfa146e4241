#pragma once
// The server's requests of one stateless request (protocol 2026-07-28 has no session to send
// them on): multi round-trip requests (SEP-2322). A request is asked under a key, the tool's own
// (ask_as) or "input-<n>" for its n-th unnamed request. When the answers of this round (the
// request's inputResponses, and what earlier rounds sealed into its requestState) hold that key,
// the answer is handed to the tool at once; otherwise the request is collected, the tool is told
// Kind::input_required, and the request is answered with an input_required result listing every
// collected request and a sealed requestState carrying the answers the tool used, so that later
// rounds need only send the new ones.
#include "mcpread/protocol/request_state.hpp"
#include "mcpread/protocol/server_handler.hpp"

#include <memory>
#include <mutex>
#include <optional>
#include <variant>

namespace mcpread::protocol {

class InputRound : public std::enable_shared_from_this<InputRound> {
 public:
  InputRound(StateBinding binding, json answers, json client_capabilities, bool resumed = false,
             json tool_state = nullptr);

  ClientRequester requester();
  KeyedClientRequester keyed_requester();
  // Whether a verified requestState came back, and the tool state it carried (null when none).
  [[nodiscard]] bool resumed() const { return resumed_; }
  [[nodiscard]] const json& tool_state() const { return tool_state_; }
  // What the tool wants back in the next round (replaces the state it got).
  void keep_state(json state);
  // Fills a ToolCall's or PromptRequest's round members.
  void attach(InputRounds& request) {
    request.request = requester();
    request.request_as = keyed_requester();
    request.resumed = resumed_;
    request.state = tool_state_;
    request.keep_state = [self = shared_from_this()](json state) { self->keep_state(std::move(state)); };
  }

  // The requests the client must answer before the call can complete; empty when none.
  [[nodiscard]] json pending() const;
  // Why an answer the tool asked for is unusable (not an object): the request gets -32602.
  [[nodiscard]] std::optional<std::string> invalid() const;
  // {resultType: input_required, inputRequests, requestState}, sealed with `seal`.
  [[nodiscard]] json input_required(const StateSeal& seal) const;

 private:
  void ask(std::optional<std::string> key, const std::string& method, json params,
           const std::function<void(ClientResponse)>& done);

  mutable std::mutex mutex_;
  StateBinding binding_;
  json answers_;
  json capabilities_;
  bool resumed_;
  json tool_state_;
  json next_tool_state_;
  json consulted_ = json::object();  // the answers the tool used, kept for later rounds
  json requests_ = json::object();
  std::optional<std::string> invalid_;
  unsigned next_ = 0;
};

// The round of a stateless request that may ask the client (tools/call, prompts/get, and the
// requests that read files when the client's roots are asked for): its answers from
// inputResponses and a verified requestState; or the -32602 that refuses them (inputResponses
// not an object, requestState not a string, altered, expired or issued for another request).
std::variant<std::shared_ptr<InputRound>, MessageError> open_input_round(const Message& m, const StateSeal& seal);

}  // namespace mcpread::protocol
