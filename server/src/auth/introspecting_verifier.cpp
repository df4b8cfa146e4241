// The introspecting verifier: finds the introspection endpoint in the issuer's metadata, asks it
// about each token not answered for lately, and keeps active answers (introspection.hpp).
#include "introspection.hpp"

#ifdef _WIN32

namespace mcpread::server::auth {
// Not reached: make_jwt_verifier makes no verifier on Windows.
std::unique_ptr<TokenVerifier> make_introspecting_verifier(VerifierSettings, std::unique_ptr<TokenVerifier> jwt) {
  return jwt;
}
}  // namespace mcpread::server::auth

#else

#include "http_get.hpp"
#include "resource_metadata.hpp"
#include "verified_tokens.hpp"

#include <spdlog/spdlog.h>

#include <chrono>
#include <ctime>
#include <mutex>

namespace mcpread::server::auth {

namespace {

// After the metadata could not be read, it is not asked for again for this long (each token
// would otherwise wait on an authorization server that is down).
constexpr auto kDiscoveryGap = std::chrono::seconds(5);

std::string string_at(const nlohmann::json& object, const char* name) {
  const auto at = object.find(name);
  return at != object.end() && at->is_string() ? at->get<std::string>() : std::string();
}

class IntrospectingVerifier : public TokenVerifier {
 public:
  IntrospectingVerifier(VerifierSettings settings, std::unique_ptr<TokenVerifier> jwt)
      : settings_(std::move(settings)), jwt_(std::move(jwt)),
        authorization_("Authorization: " + basic_authorization(settings_.client_id, settings_.client_secret)) {}

  ClaimsResult verify(std::string_view token) override {
    if (!settings_.introspect_all && jwt_shaped(token)) return jwt_->verify(token);
    try {
      const auto now = VerifiedTokens::Clock::now();
      const auto wall = static_cast<std::int64_t>(std::time(nullptr));
      if (const auto known = kept_.find(token, now)) {
        auto result = check_claims(known->payload, policy(), wall);
        result.issuer = issuer();
        if (result.verdict == ClaimsVerdict::valid) result.claims = std::make_shared<const nlohmann::json>(known->payload);
        return result;
      }
      ClaimsResult result;
      const std::string endpoint = this->endpoint(result.why);
      if (endpoint.empty()) return unavailable(std::move(result));
      const auto got = http_post(endpoint, "token=" + form_encode(token) + "&token_type_hint=access_token",
                                 {authorization_, "Accept: application/json"}, result.why);
      if (!got) {
        result.why = "the token could not be introspected: " + result.why;
        spdlog::warn("oauth: {}", result.why);
        return unavailable(std::move(result));
      }
      nlohmann::json response;
      result = check_introspection(got->status, got->body, policy(), wall, response);
      if (result.verdict == ClaimsVerdict::unavailable) {
        result.why = endpoint + ": " + result.why;
        spdlog::warn("oauth: {}", result.why);
        return unavailable(std::move(result));
      }
      if (response.is_object())
        kept_.keep(std::string(token), {issuer(), response}, now,
                   std::chrono::seconds(reuse_seconds(response, wall, settings_.introspection_cache_s)));
      return result;
    } catch (...) {  // out of memory: refused, not a crash
      ClaimsResult refused;
      refused.why = "the token could not be checked";
      return refused;
    }
  }

 private:
  [[nodiscard]] const std::string& issuer() const { return settings_.issuers.front(); }
  [[nodiscard]] ClaimsPolicy policy() const {
    return {issuer(), settings_.audience, settings_.scope, 60, true};
  }
  static ClaimsResult unavailable(ClaimsResult result) {
    result.verdict = ClaimsVerdict::unavailable;
    result.introspection = true;
    return result;
  }

  // The introspection endpoint, found in the issuer's metadata on first use; empty with `why`
  // set when none is known.
  std::string endpoint(std::string& why) {
    std::lock_guard lock(endpoint_mutex_);
    if (!endpoint_.empty()) return endpoint_;
    const auto now = std::chrono::steady_clock::now();
    if (looked_up_ && now - looked_at_ < kDiscoveryGap) {
      why = "the introspection endpoint of " + issuer() + " could not be found a moment ago";
      return {};
    }
    looked_up_ = true;
    looked_at_ = now;
    for (const auto& url : metadata_urls(issuer())) {
      const auto got = http_get(url, why);
      if (!got || got->status != 200) continue;
      const auto metadata = nlohmann::json::parse(got->body, nullptr, false);
      if (!metadata.is_object() || string_at(metadata, "issuer") != issuer()) {
        spdlog::warn("oauth: {} does not name {} as its issuer; ignored", url, issuer());
        continue;
      }
      const std::string found = string_at(metadata, "introspection_endpoint");
      if (found.empty() || (!checked_issuer(found) && found.rfind("https://", 0) != 0)) {
        spdlog::warn("oauth: {} names no usable introspection_endpoint (https, or http on loopback)", url);
        continue;
      }
      spdlog::info("oauth: opaque tokens are introspected at {}", found);
      endpoint_ = found;
      return endpoint_;
    }
    why = "the introspection endpoint of " + issuer() +
          " could not be found: no metadata of the authorization server names one";
    spdlog::warn("oauth: {}", why);
    return {};
  }

  VerifierSettings settings_;
  std::unique_ptr<TokenVerifier> jwt_;
  const std::string authorization_;  // the header with the client's secret: never logged
  VerifiedTokens kept_;
  std::mutex endpoint_mutex_;  // one discovery at a time
  std::string endpoint_;
  bool looked_up_ = false;
  std::chrono::steady_clock::time_point looked_at_;
};

}  // namespace

std::unique_ptr<TokenVerifier> make_introspecting_verifier(VerifierSettings settings,
                                                           std::unique_ptr<TokenVerifier> jwt) {
  return std::make_unique<IntrospectingVerifier>(std::move(settings), std::move(jwt));
}

}  // namespace mcpread::server::auth

#endif
