#include "token_verifier.hpp"

#include "introspection.hpp"

namespace mcpread::server::auth {

std::unique_ptr<TokenVerifier> make_token_verifier(VerifierSettings settings, std::string& error) {
  auto jwt = make_jwt_verifier(settings, error);
  if (!jwt || settings.client_id.empty()) return jwt;
  return make_introspecting_verifier(std::move(settings), std::move(jwt));
}

std::vector<std::string> metadata_urls(const std::string& issuer) {
  std::string trimmed = issuer;
  while (!trimmed.empty() && trimmed.back() == '/') trimmed.pop_back();
  const auto scheme = trimmed.find("://");
  const auto path_at = scheme == std::string::npos ? std::string::npos : trimmed.find('/', scheme + 3);
  const std::string origin = trimmed.substr(0, path_at);
  const std::string path = path_at == std::string::npos ? std::string() : trimmed.substr(path_at);
  return {origin + "/.well-known/oauth-authorization-server" + path, trimmed + "/.well-known/openid-configuration"};
}

}  // namespace mcpread::server::auth
