#pragma once
// The server's requests of one stateless tool call (protocol 2026-07-28 has no session to send
// them on): multi round-trip requests. The tool's n-th request is named "input-<n>"; when the
// client's retry carries that key in `inputResponses`, the answer is handed to the tool at once;
// otherwise the request is collected, the tool is told Kind::input_required, and the call is
// answered with an input_required result listing every collected request. A tool that asks the
// same questions in the same order on the retry thus gets its answers.
#include "mcpread/protocol/server_handler.hpp"

#include <memory>
#include <mutex>

namespace mcpread::protocol {

class InputRound : public std::enable_shared_from_this<InputRound> {
 public:
  // `input_responses`: the request's params.inputResponses (null when absent).
  InputRound(json input_responses, json client_capabilities);

  ClientRequester requester();
  // The requests the client must answer before the call can complete; empty when none.
  [[nodiscard]] json pending() const;

 private:
  void ask(const std::string& method, json params, const std::function<void(ClientResponse)>& done);

  mutable std::mutex mutex_;
  json responses_;
  json capabilities_;
  json requests_ = json::object();
  unsigned next_ = 0;
};

}  // namespace mcpread::protocol
