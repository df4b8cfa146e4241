#pragma once
// The checks of a JWT access token's claims once its signature is verified (RFC 9068, RFC 7519):
// the issuer is the expected one, the audience names this resource, the token is within its
// lifetime (with a small allowance for clocks apart), and whether it carries the scope.
#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace mcpread::server::auth {

struct ClaimsPolicy {
  std::string issuer;    // `iss` must equal it
  std::string audience;  // `aud` (a string or an array) must hold it
  std::string scope;     // `scope` (space-separated) or `scp` (an array or a string) holds it
  std::int64_t skew_s = 60;
  // An introspection response (RFC 7662) rather than a JWT's claims: `iss` and `exp` may be
  // absent (the authorization server vouched for the token just now), but are checked if present.
  bool introspected = false;
};

// unavailable: the token could not be checked, since the authorization server's keys could not
// be had (not the client's fault: 503, try again).
enum class ClaimsVerdict { valid, invalid, insufficient_scope, unavailable };

struct ClaimsResult {
  ClaimsVerdict verdict = ClaimsVerdict::invalid;
  std::string why;  // for the debug log when not valid
  std::string sub;     // the identity, when valid or only short of the scope
  std::string issuer;  // who issued the token, when valid
  // The verified payload, when valid: what roots per identity look at (roots_policy.hpp).
  std::shared_ptr<const nlohmann::json> claims;
  bool introspection = false;  // unavailable: the introspection endpoint failed, not the keys
};

// `now_s`: seconds since the epoch. `exp` is required (unless `introspected`).
ClaimsResult check_claims(const nlohmann::json& payload, const ClaimsPolicy& policy, std::int64_t now_s);

// Whether a JWS header's `typ` may be an access token's: "at+jwt" (RFC 9068) or
// "application/at+jwt", or "JWT", which most authorization servers still write (Keycloak, Entra
// ID); not another kind of JWT ("logout+jwt", "secevent+jwt", "dpop+jwt", ...) nor a non-string.
bool access_token_type(const nlohmann::json& typ);

// Whether a JWS header's `alg` is one accepted: RS256/384/512, PS256/384/512, ES256/384/512
// (never "none", nor the HMAC algorithms, whose key would be public).
bool accepted_algorithm(std::string_view alg);

}  // namespace mcpread::server::auth
