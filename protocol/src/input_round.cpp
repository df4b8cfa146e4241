#include "input_round.hpp"

#include "client_requests.hpp"
#include "method_helpers.hpp"
#include "mcpread/protocol/stateless.hpp"

#include <exception>
#include <utility>

namespace mcpread::protocol {

void ask_keyed(const KeyedClientRequester& request_as, const ClientRequester& request, const std::string& key,
               const std::string& method, json params, std::function<void(ClientResponse)> done) {
  if (request_as) return request_as(key, method, std::move(params), std::move(done));
  if (request) return request(method, std::move(params), std::move(done));
  done(ClientRequestError{ClientRequestError::Kind::not_supported, error_code::method_not_found,
                          method + " cannot be asked of the client from this request"});
}

InputRound::InputRound(StateBinding binding, json answers, json client_capabilities, bool resumed, json tool_state)
    : binding_(std::move(binding)),
      answers_(answers.is_object() ? std::move(answers) : json::object()),
      capabilities_(std::move(client_capabilities)),
      resumed_(resumed),
      tool_state_(tool_state),
      next_tool_state_(std::move(tool_state)) {}

ClientRequester InputRound::requester() {
  return [self = shared_from_this()](const std::string& method, json params,
                                     std::function<void(ClientResponse)> done) {
    self->ask(std::nullopt, method, std::move(params), done);
  };
}

KeyedClientRequester InputRound::keyed_requester() {
  return [self = shared_from_this()](const std::string& key, const std::string& method, json params,
                                     std::function<void(ClientResponse)> done) {
    self->ask(key, method, std::move(params), done);
  };
}

void InputRound::keep_state(json state) {
  std::lock_guard lock(mutex_);
  next_tool_state_ = std::move(state);
}

void InputRound::ask(std::optional<std::string> name, const std::string& method, json params,
                     const std::function<void(ClientResponse)>& done) {
  std::optional<ClientResponse> outcome;
  {
    std::lock_guard lock(mutex_);
    const std::string key = name ? *name : "input-" + std::to_string(++next_);
    if (auto refused = cannot_ask(method, capabilities_, features_of(stateless_versions.back()))) {
      outcome = std::move(*refused);
    } else if (!params.is_null() && !params.is_object()) {
      outcome = ClientRequestError{ClientRequestError::Kind::not_supported, error_code::invalid_params,
                                   method + ": the parameters must be an object"};
    } else if (const auto answer = answers_.find(key); answer != answers_.end()) {
      if (answer->is_object()) {
        consulted_[key] = *answer;
        outcome = client_result(method, *answer);
      } else {
        const std::string why = "inputResponses." + key + " must be an object: the client's result for " + method;
        if (!invalid_) invalid_ = why;
        outcome = ClientRequestError{ClientRequestError::Kind::malformed, error_code::invalid_params, why};
      }
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

std::optional<std::string> InputRound::invalid() const {
  std::lock_guard lock(mutex_);
  return invalid_;
}

json InputRound::input_required(const StateSeal& seal) const {
  std::lock_guard lock(mutex_);
  return json{{"resultType", "input_required"},
              {"inputRequests", requests_},
              {"requestState", seal.seal(binding_, consulted_, next_tool_state_)}};
}

std::variant<std::shared_ptr<InputRound>, MessageError> open_input_round(const Message& m, const StateSeal& seal) {
  StateBinding binding = StateBinding::of(m);
  json answers = json::object();
  const auto responses = m.params.find("inputResponses");
  if (responses != m.params.end() && !responses->is_object())
    return params_error(m.id, "inputResponses must be an object: the client's results keyed as the "
                              "inputRequests named them");
  bool resumed = false;
  json tool_state;
  if (const auto state = m.params.find("requestState"); state != m.params.end()) {
    if (!state->is_string()) return params_error(m.id, "requestState must be a string, as the server issued it");
    auto opened = seal.open(binding, state->get<std::string>());
    if (auto* why = std::get_if<std::string>(&opened)) return params_error(m.id, *why);
    auto& contents = std::get<OpenedState>(opened);
    answers = std::move(contents.answers);
    tool_state = std::move(contents.tool_state);
    resumed = true;
  }
  if (responses != m.params.end())
    for (const auto& [key, value] : responses->items()) answers[key] = value;  // this round's answers win
  json capabilities = json::object();
  if (const auto meta = m.params.find("_meta"); meta != m.params.end() && meta->is_object())
    capabilities = meta->value(meta_key::client_capabilities, json::object());
  return std::make_shared<InputRound>(std::move(binding), std::move(answers), std::move(capabilities), resumed,
                                      std::move(tool_state));
}

}  // namespace mcpread::protocol
