// What a session serves besides tools and resource reads, each only when the handler offers it:
// prompts, argument completion and resource subscriptions.
#include "mcpread/protocol/session.hpp"

#include "method_helpers.hpp"
#include "prompt_methods.hpp"

#include <utility>

namespace mcpread::protocol {

void Session::on_prompt_request(const Message& m, Respond respond) {
  // Tracked like a tool call: notifications/cancelled reaches it and ids stay unique.
  const std::string key = id_key(m.id);
  auto cancelled = track_request(m, respond);
  if (!cancelled) return;
  serve_prompt_request(handler_, m, negotiated_version(), cancelled,
                       [this, key, cancelled, respond](json response) {
                         // A cancelled request gets no answer: the client no longer wants one.
                         untrack(key, cancelled) ? respond(std::move(response)) : respond(std::nullopt);
                       });
}

std::optional<MessageError> Session::on_subscription(const Message& m) {
  const auto uri = m.params.find("uri");
  if (uri == m.params.end() || !uri->is_string() || uri->get_ref<const std::string&>().empty())
    return params_error(m.id, "\"" + m.method + "\" needs \"uri\" (a non-empty string)");
  const bool subscribe = m.method == "resources/subscribe";
  const std::string& target = uri->get_ref<const std::string&>();
  std::optional<ResourceError> refused;
  try {
    refused = handler_.subscription_changed(target, subscribe);
  } catch (const std::exception& e) {
    return MessageError{m.id, error_code::internal_error, std::string("Internal error: ") + e.what()};
  }
  if (refused) {
    const json response = resource_response(m.id, target, std::move(*refused), false);
    const json& error = response["error"];
    return MessageError{m.id, error["code"].get<int>(), error["message"].get<std::string>(),
                        error.value("data", json())};
  }
  std::lock_guard lock(mutex_);
  if (subscribe)
    subscriptions_.insert(target);
  else
    subscriptions_.erase(target);  // unsubscribing from what was never subscribed is no error
  return std::nullopt;
}

bool Session::subscribed(const std::string& uri) const {
  std::lock_guard lock(mutex_);
  return subscriptions_.count(uri) != 0;
}

void Session::resource_updated(const std::string& uri) {
  if (!subscribed(uri)) return;
  outbound_(serialize(make_notification("notifications/resources/updated", {{"uri", uri}})));
}

}  // namespace mcpread::protocol
