#include "challenge.hpp"

namespace mcpread::server::auth {

// The metadata URL and the scope come from the checked configuration (no quote or backslash),
// so they go between quotes as they are.
std::string Challenge::header(const char* error) const {
  std::string value = "Bearer resource_metadata=\"" + metadata_url_ + "\", scope=\"" + scope_ + "\"";
  if (error != nullptr) value += ", error=\"" + std::string(error) + "\"";
  return value;
}

Refusal Challenge::missing_token() const {
  return {401, {{"WWW-Authenticate", header(nullptr)}},
          "Unauthorized: send \"Authorization: Bearer <access token>\" from an authorization server named at " +
              metadata_url_};
}

// Why the token failed is logged at debug level only: the answer does not help a forger.
Refusal Challenge::invalid_token() const {
  return {401, {{"WWW-Authenticate", header("invalid_token")}},
          "Unauthorized: the access token is not valid for this server (expired, for another resource, or "
          "not from an accepted authorization server); get a new one"};
}

Refusal Challenge::insufficient_scope() const {
  return {403, {{"WWW-Authenticate", header("insufficient_scope")}},
          "Forbidden: the access token lacks the scope " + scope_ + "; ask the authorization server for it"};
}

// The authorization server is down or its keys are unusable: a 401 would send the client to
// get a new token, which would fail the same way.
Refusal Challenge::unavailable() {
  return {503, {{"Retry-After", "5"}},
          "Service Unavailable: access tokens cannot be checked now, since the authorization server's signing "
          "keys could not be fetched; try again shortly (the server's log says why)"};
}

Refusal Challenge::introspection_unavailable() {
  return {503, {{"Retry-After", "5"}},
          "Service Unavailable: access tokens cannot be checked now, since the authorization server's "
          "introspection endpoint did not answer as it should; try again shortly (the server's log says why)"};
}

}  // namespace mcpread::server::auth
