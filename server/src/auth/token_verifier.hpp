#pragma once
// Checks a bearer token: a JWT signed by a key of one of the accepted authorization servers
// (found through the server's RFC 8414 metadata and its jwks_uri; fetched again when a token
// names a key not seen yet, which is how a server's key rotation is followed), then its claims
// (claims.hpp); or, when the server has client credentials, an opaque token the issuer's
// introspection endpoint vouches for (introspection.hpp). Never throws; a failure says why for
// the debug log.
#include "claims.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace mcpread::server::auth {

class TokenVerifier {
 public:
  virtual ~TokenVerifier() = default;
  virtual ClaimsResult verify(std::string_view token) = 0;
};

struct VerifierSettings {
  std::vector<std::string> issuers;
  std::string audience;
  std::string scope;
  // Token introspection (introspection.hpp), when client_id is set: this server's credentials
  // at the (one) issuer, whether JWTs are introspected too, and how long an active answer may
  // be reused (0: every call asks).
  std::string client_id;
  std::string client_secret;
  bool introspect_all = false;
  std::int64_t introspection_cache_s = 300;
};

// The JWT verifier (liboauth2); null, with `error` set, when this build cannot verify tokens.
std::unique_ptr<TokenVerifier> make_jwt_verifier(VerifierSettings settings, std::string& error);

// The JWT verifier, with introspection in front of it when settings.client_id is set; null, with
// `error` set, when this build cannot verify tokens.
std::unique_ptr<TokenVerifier> make_token_verifier(VerifierSettings settings, std::string& error);

// Where an issuer's metadata is looked for, in order: RFC 8414's
// /.well-known/oauth-authorization-server (inserted before the issuer's path), then OpenID
// Connect Discovery's /.well-known/openid-configuration (appended to it).
std::vector<std::string> metadata_urls(const std::string& issuer);

}  // namespace mcpread::server::auth
