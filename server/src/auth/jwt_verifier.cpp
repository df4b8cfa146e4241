// The token verifier: the JWS header is screened here (algorithms, critical extensions), the
// signature is verified by liboauth2, the resource-server library behind mod_oauth2, with the
// issuer's keys (issuer_keys.hpp), and the claims are checked by claims.cpp (liboauth2's own
// claim checks are turned off: no skew on exp, no audience check).
#include "token_verifier.hpp"

#ifdef _WIN32

namespace mcpread::server::auth {
std::unique_ptr<TokenVerifier> make_jwt_verifier(VerifierSettings, std::string& error) {
  error = "OAuth (--oauth-issuer) is not available on Windows";
  return nullptr;
}
}  // namespace mcpread::server::auth

#else

#include "issuer_keys.hpp"
#include "oauth_api.hpp"
#include "verified_tokens.hpp"

#include <ctime>

namespace mcpread::server::auth {

namespace {

class JwtVerifier : public TokenVerifier {
 public:
  explicit JwtVerifier(VerifierSettings settings) : settings_(std::move(settings)) {
    for (const auto& id : settings_.issuers) issuers_.push_back(std::make_unique<IssuerKeys>(id));
  }

  ClaimsResult verify(std::string_view token) override {
    ClaimsResult refused;
    try {
      const auto now = VerifiedTokens::Clock::now();
      if (const auto known = verified_.find(token, now)) return checked(known->payload, known->issuer);
      const auto first = token.find('.');
      const auto second = first == std::string_view::npos ? first : token.find('.', first + 1);
      if (second == std::string_view::npos || token.find('.', second + 1) != std::string_view::npos) {
        refused.why = "not a signed JWT (three dot-separated parts)";
        return refused;
      }
      const auto header = jose_part_json(token.substr(0, first));
      if (!header || !header->contains("alg") || !(*header)["alg"].is_string() ||
          !accepted_algorithm((*header)["alg"].get_ref<const std::string&>())) {
        refused.why = "the JWS algorithm is not accepted";
        return refused;
      }
      if (header->contains("crit")) {
        refused.why = "the JWS header has critical extensions";
        return refused;
      }
      if (!access_token_type(header->value("typ", nlohmann::json("JWT")))) {
        refused.why = "the JWS header's typ names another kind of token than an access token";
        return refused;
      }
      // The unverified `iss` only picks whose keys to try; the verified payload is checked again.
      const auto claimed = jose_part_json(token.substr(first + 1, second - first - 1));
      IssuerKeys* issuer = nullptr;
      if (claimed && claimed->contains("iss") && (*claimed)["iss"].is_string())
        for (auto& one : issuers_)
          if (one->id() == (*claimed)["iss"]) issuer = one.get();
      if (issuer == nullptr) {
        refused.why = "iss is not an accepted authorization server";
        return refused;
      }
      const auto kid = header->find("kid");
      nlohmann::json payload;
      switch (issuer->verify(std::string(token), kid != header->end() && kid->is_string() ? kid->get<std::string>() : "",
                             payload, refused.why)) {
        case KeyCheck::verified:
          break;
        case KeyCheck::unavailable:
          refused.verdict = ClaimsVerdict::unavailable;
          return refused;
        case KeyCheck::refused:
          return refused;
      }
      verified_.keep(std::string(token), {issuer->id(), payload}, now);
      return checked(payload, issuer->id());
    } catch (...) {  // out of memory: refused, not a crash
      refused.why = "the token could not be checked";
      return refused;
    }
  }

 private:
  // The claims of a verified payload, checked now.
  [[nodiscard]] ClaimsResult checked(const nlohmann::json& payload, const std::string& issuer) const {
    auto result = check_claims(payload, {issuer, settings_.audience, settings_.scope, 60},
                               static_cast<std::int64_t>(std::time(nullptr)));
    result.issuer = issuer;
    if (result.verdict == ClaimsVerdict::valid) result.claims = std::make_shared<const nlohmann::json>(payload);
    return result;
  }

  VerifierSettings settings_;
  VerifiedTokens verified_;
  std::vector<std::unique_ptr<IssuerKeys>> issuers_;
};

}  // namespace

std::unique_ptr<TokenVerifier> make_jwt_verifier(VerifierSettings settings, std::string& error) {
  if (oauth_api(&error) == nullptr) return nullptr;
  return std::make_unique<JwtVerifier>(std::move(settings));
}

}  // namespace mcpread::server::auth

#endif
