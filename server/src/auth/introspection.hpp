#pragma once
// Token introspection (RFC 7662) for access tokens that are not JWTs (opaque: a random string
// only the authorization server can read), and for every token when the operator asks: the
// token is POSTed to the introspection endpoint named in the issuer's metadata, with this
// server's client credentials (HTTP Basic, RFC 7662 section 2.1), and the answer's claims are
// checked as a JWT's are (claims.hpp), giving the same identity.
//
// Active answers are reused until the token expires, or for at most the operator's cap
// (--oauth-introspection-cache): a token revoked at the authorization server stays usable here
// for up to that long. Answers that a token is not active are never kept, so a revoked token is
// refused as soon as its kept answer lapses (at once with a cap of 0: every call asks).
#include "claims.hpp"
#include "token_verifier.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace mcpread::server::auth {

// Whether a token has the shape of a JWS in compact form: three dot-separated base64url parts
// (the first two not empty). Anything else is opaque.
bool jwt_shaped(std::string_view token);

// `text` as a form value (application/x-www-form-urlencoded): unreserved characters as they
// are, every other byte as %XX.
std::string form_encode(std::string_view text);

// The Authorization header's value for HTTP Basic client authentication: the client id and
// secret each form-encoded first (RFC 6749 section 2.3.1), then base64 of "id:secret".
std::string basic_authorization(std::string_view client_id, std::string_view secret);

// The introspection endpoint's answer (`status`, `body`) checked against `policy` (whose
// `introspected` is set here) at `now_s`: unavailable when it is not an introspection response
// (not HTTP 200, not a JSON object with a boolean `active`): the authorization server's fault,
// not the client's. Invalid when the token is not active, is not a bearer access token
// (`token_type`), is sender-constrained (`cnf`), or fails the claim checks; insufficient_scope or
// valid as check_claims says. Without `sub`, `client_id` is the identity (a client's own token).
// When valid or only short of the scope, `response` receives the answer, to be reused.
ClaimsResult check_introspection(long status, std::string_view body, ClaimsPolicy policy, std::int64_t now_s,
                                 nlohmann::json& response);

// How many seconds an active answer may be reused from `now_s`: until its `exp`, at most
// `cap_s`; `cap_s` when it has no exp; 0 when it runs out now.
std::int64_t reuse_seconds(const nlohmann::json& response, std::int64_t now_s, std::int64_t cap_s);

// The verifier that introspects opaque tokens (every token with settings.introspect_all) and
// hands JWTs to `jwt`.
std::unique_ptr<TokenVerifier> make_introspecting_verifier(VerifierSettings settings,
                                                           std::unique_ptr<TokenVerifier> jwt);

}  // namespace mcpread::server::auth
