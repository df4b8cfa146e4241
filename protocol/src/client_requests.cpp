#include "client_requests.hpp"

#include <utility>

namespace mcpread::protocol {
namespace {

using Kind = ClientRequestError::Kind;

ClientRequestError malformed(const std::string& method, const std::string& what) {
  return {Kind::malformed, error_code::invalid_params,
          "The client's answer to " + method + " is malformed: " + what};
}

bool is_string_member(const json& object, const char* name) {
  const auto it = object.find(name);
  return it != object.end() && it->is_string();
}

}  // namespace

std::optional<ClientRequestError> cannot_ask(const std::string& method, const json& client_capabilities,
                                             const VersionFeatures& features) {
  std::string capability;
  if (method == "sampling/createMessage") {
    capability = "sampling";
  } else if (method == "elicitation/create") {
    if (!features.elicitation)
      return ClientRequestError{Kind::not_supported, error_code::method_not_found,
                                "elicitation/create is not part of the negotiated protocol version "
                                "(it exists from 2025-06-18 on)"};
    capability = "elicitation";
  } else if (method == "roots/list") {
    capability = "roots";
  } else {
    return ClientRequestError{Kind::not_supported, error_code::method_not_found,
                              "The server cannot ask the client \"" + method +
                                  "\"; it asks sampling/createMessage, elicitation/create or roots/list"};
  }
  if (!client_capabilities.is_object() || !client_capabilities.contains(capability))
    return ClientRequestError{Kind::not_supported, error_code::missing_client_capability,
                              "The client did not declare the " + capability + " capability, so " + method +
                                  " cannot be sent to it"};
  return std::nullopt;
}

ClientResponse client_result(const std::string& method, json result) {
  if (!result.is_object()) return malformed(method, "the result is not an object");
  if (method == "sampling/createMessage") {
    if (!is_string_member(result, "role") || !is_string_member(result, "model"))
      return malformed(method, "it needs \"role\" and \"model\" (strings)");
    const auto content = result.find("content");
    if (content == result.end() || !(content->is_object() || content->is_array()))
      return malformed(method, "it needs \"content\" (a content block or an array of them)");
  } else if (method == "elicitation/create") {
    const auto action = result.find("action");
    if (action == result.end() || !action->is_string() ||
        (*action != "accept" && *action != "decline" && *action != "cancel"))
      return malformed(method, "\"action\" must be \"accept\", \"decline\" or \"cancel\"");
    const auto content = result.find("content");
    if (content != result.end() && !content->is_object() && !content->is_null())
      return malformed(method, "\"content\" must be an object");
  } else if (method == "roots/list") {
    const auto roots = result.find("roots");
    if (roots == result.end() || !roots->is_array()) return malformed(method, "it needs a \"roots\" array");
  }
  return result;
}

ClientRequestError client_error(const std::string& method, const json& error) {
  ClientRequestError e{Kind::error_response, error_code::internal_error,
                       "The client answered " + method + " with an error"};
  if (!error.is_object()) return e;
  if (const auto code = error.find("code"); code != error.end() && code->is_number_integer())
    e.code = code->get<int>();
  if (is_string_member(error, "message")) e.message += ": " + error["message"].get<std::string>();
  return e;
}

ClientRequestError client_request_cancelled(const std::string& method, const std::string& why) {
  return {Kind::cancelled, error_code::internal_error, method + " was abandoned: " + why};
}

}  // namespace mcpread::protocol
