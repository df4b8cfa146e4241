#include "cli_checks.hpp"

#include "resource_metadata.hpp"

namespace mcpread::server {

std::string oauth_conflicts(const HttpConfig& http) {
  if (!http.oauth_issuers.empty() && !http.auth_token.empty())
    return "--oauth-issuer and --auth-token exclude each other: give one (OAuth access tokens, or one "
           "shared token)";
  if (!http.oauth_issuers.empty() && http.oauth_resource.empty() &&
      !auth::resource_uri_for_listener(http.host, http.port))
    return "--oauth-issuer: --host " + http.host + " names no URL for tokens to be issued for; give the URL "
           "clients reach this server at with --oauth-resource (e.g. https://files.example.com/mcp)";
  if (http.oauth_issuers.empty() && !http.oauth_resource.empty())
    return "--oauth-resource needs --oauth-issuer (the authorization server that issues the tokens)";
  if (http.oauth_issuers.empty() && !http.oauth_roots_file.empty())
    return "--oauth-roots needs --oauth-issuer (its rules map the claims of OAuth access tokens)";
#ifdef _WIN32
  if (!http.oauth_issuers.empty()) return "--oauth-issuer: OAuth is not available on Windows";
#endif
  return {};
}

}  // namespace mcpread::server
