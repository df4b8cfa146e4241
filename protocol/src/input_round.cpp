#include "input_round.hpp"

#include "client_requests.hpp"

#include <exception>
#include <optional>
#include <utility>

namespace mcpread::protocol {

InputRound::InputRound(json input_responses, json client_capabilities)
    : responses_(input_responses.is_object() ? std::move(input_responses) : json::object()),
      capabilities_(std::move(client_capabilities)) {}

ClientRequester InputRound::requester() {
  return [self = shared_from_this()](const std::string& method, json params,
                                     std::function<void(ClientResponse)> done) {
    self->ask(method, std::move(params), done);
  };
}

void InputRound::ask(const std::string& method, json params, const std::function<void(ClientResponse)>& done) {
  std::optional<ClientResponse> outcome;
  {
    std::lock_guard lock(mutex_);
    const std::string key = "input-" + std::to_string(++next_);
    if (auto refused = cannot_ask(method, capabilities_, features_of(stateless_versions.back()))) {
      outcome = std::move(*refused);
    } else if (!params.is_null() && !params.is_object()) {
      outcome = ClientRequestError{ClientRequestError::Kind::not_supported, error_code::invalid_params,
                                   method + ": the parameters must be an object"};
    } else if (const auto answer = responses_.find(key); answer != responses_.end()) {
      outcome = client_result(method, *answer);
    } else {
      requests_[key] = json{{"method", method}, {"params", params.is_null() ? json::object() : std::move(params)}};
      outcome = ClientRequestError{ClientRequestError::Kind::input_required, error_code::internal_error,
                                   method + " was sent to the client as input request \"" + key +
                                       "\"; the call completes when the client retries with its answer"};
    }
  }
  try {
    done(std::move(*outcome));
  } catch (const std::exception&) {
    // The tool's own failure; its call still completes through its `done`.
  }
}

json InputRound::pending() const {
  std::lock_guard lock(mutex_);
  return requests_;
}

}  // namespace mcpread::protocol
