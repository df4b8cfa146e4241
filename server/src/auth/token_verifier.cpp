#include "token_verifier.hpp"

namespace mcpread::server::auth {

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
