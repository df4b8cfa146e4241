// The token verifier on liboauth2, the resource-server library behind mod_oauth2: it fetches and
// caches the JWKS, refetches it when no cached key verifies a token (key rotation), and verifies
// the signature with cjose. Its own claim checks are turned off (no skew on exp, no audience
// check): claims.cpp checks them on the verified payload.
#include "token_verifier.hpp"

#ifdef _WIN32

namespace mcpread::server::auth {
std::unique_ptr<TokenVerifier> make_jwt_verifier(VerifierSettings, std::string& error) {
  error = "OAuth (--oauth-issuer) is not available on Windows";
  return nullptr;
}
}  // namespace mcpread::server::auth

#else

#include "resource_metadata.hpp"

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

extern "C" {
#include <oauth2/http.h>
#include <oauth2/mem.h>
#include <oauth2/oauth2.h>
#include <oauth2/util.h>
}

#include <chrono>
#include <ctime>
#include <mutex>

namespace mcpread::server::auth {

namespace {

// liboauth2 logs at debug level what must not be seen (cache keys are tokens): only its warnings
// and errors are taken, and they go to the debug log, since a bad token is the client's affair.
void log_sink(oauth2_log_sink_t*, const char*, unsigned long, const char*, oauth2_log_level_t, const char* msg) {
  spdlog::debug("oauth: {}", msg != nullptr ? msg : "");
}

oauth2_log_t* library_log() {
  static oauth2_log_t* log = [] {
    oauth2_log_sink_t* sink = oauth2_log_sink_create(OAUTH2_LOG_WARN, log_sink, nullptr);
    return oauth2_init(OAUTH2_LOG_WARN, sink);
  }();
  return log;
}

std::string free_after(char* text) {
  std::string out = text != nullptr ? text : "";
  if (text != nullptr) oauth2_mem_free(text);
  return out;
}

std::optional<nlohmann::json> base64url_json(const std::string& part) {
  uint8_t* bytes = nullptr;
  size_t size = 0;
  if (!oauth2_base64url_decode(library_log(), part.c_str(), &bytes, &size) || bytes == nullptr)
    return std::nullopt;
  auto json = nlohmann::json::parse(reinterpret_cast<const char*>(bytes), reinterpret_cast<const char*>(bytes) + size,
                                    nullptr, false);
  oauth2_mem_free(bytes);
  if (json.is_discarded() || !json.is_object()) return std::nullopt;
  return json;
}

// Accepted places to fetch keys from: https, or http on a loopback host.
bool fetchable(const std::string& url) { return checked_issuer(url).has_value() || url.rfind("https://", 0) == 0; }

class Issuer {
 public:
  explicit Issuer(std::string id) : id_(std::move(id)) {}
  ~Issuer() {
    if (verify_ != nullptr) oauth2_cfg_token_verify_free(library_log(), verify_);
  }
  Issuer(const Issuer&) = delete;
  Issuer& operator=(const Issuer&) = delete;
  [[nodiscard]] const std::string& id() const { return id_; }

  // The payload of `token` when a key of this issuer verifies its signature.
  std::optional<nlohmann::json> verified_payload(const std::string& token, std::string& why) {
    // One token at a time per issuer: liboauth2's key lists and cache are shared.
    std::lock_guard lock(mutex_);
    if (verify_ == nullptr && !discover(why)) return std::nullopt;
    json_t* payload = nullptr;
    if (!oauth2_token_verify(library_log(), nullptr, verify_, token.c_str(), &payload) || payload == nullptr) {
      why = "no key of " + id_ + " verifies the signature";
      return std::nullopt;
    }
    std::string text = free_after(json_dumps(payload, JSON_COMPACT));
    json_decref(payload);
    auto json = nlohmann::json::parse(text, nullptr, false);
    if (json.is_discarded()) return std::nullopt;
    return json;
  }

 private:
  // Finds the jwks_uri in the issuer's metadata. Tried again on a later token after a failure,
  // but not more than once in 5 s, so that bad tokens cannot make the server flood the
  // authorization server.
  bool discover(std::string& why) {
    const auto now = std::chrono::steady_clock::now();
    if (tried_ && now - last_try_ < std::chrono::seconds(5)) {
      why = "the keys of " + id_ + " could not be found a moment ago";
      return false;
    }
    tried_ = true;
    last_try_ = now;
    for (const auto& url : metadata_urls(id_)) {
      oauth2_http_call_ctx_t* ctx = oauth2_http_call_ctx_init(library_log());
      oauth2_http_call_ctx_timeout_set(library_log(), ctx, 10);
      char* response = nullptr;
      oauth2_http_status_code_t status = 0;
      const bool got = oauth2_http_get(library_log(), url.c_str(), nullptr, ctx, &response, &status);
      oauth2_http_call_ctx_free(library_log(), ctx);
      const std::string body = free_after(response);
      if (!got || status != 200) continue;
      const auto metadata = nlohmann::json::parse(body, nullptr, false);
      if (!metadata.is_object() || metadata.value("issuer", std::string()) != id_) {
        spdlog::warn("oauth: {} does not name {} as its issuer; ignored", url, id_);
        continue;
      }
      const std::string jwks_uri = metadata.value("jwks_uri", std::string());
      if (jwks_uri.empty() || !fetchable(jwks_uri)) {
        spdlog::warn("oauth: {} names no usable jwks_uri (https, or http on loopback)", url);
        continue;
      }
      const std::string problem = free_after(oauth2_cfg_token_verify_add_options(
          library_log(), &verify_, "jwks_uri", jwks_uri.c_str(), "verify.exp=skip&verify.iat=skip&verify.iss=skip"));
      if (!problem.empty()) {
        spdlog::warn("oauth: the keys at {} cannot be used: {}", jwks_uri, problem);
        oauth2_cfg_token_verify_free(library_log(), verify_);
        verify_ = nullptr;
        why = "the keys of " + id_ + " could not be used";
        return false;
      }
      spdlog::info("oauth: tokens of {} are checked with the keys at {}", id_, jwks_uri);
      return true;
    }
    spdlog::warn("oauth: no metadata of the authorization server {} could be read", id_);
    why = "the keys of " + id_ + " could not be found";
    return false;
  }

  std::string id_;
  std::mutex mutex_;
  oauth2_cfg_token_verify_t* verify_ = nullptr;
  bool tried_ = false;
  std::chrono::steady_clock::time_point last_try_;
};

class JwtVerifier : public TokenVerifier {
 public:
  explicit JwtVerifier(VerifierSettings settings) : settings_(std::move(settings)) {
    for (const auto& id : settings_.issuers) issuers_.push_back(std::make_unique<Issuer>(id));
  }

  ClaimsResult verify(std::string_view token) override {
    ClaimsResult refused;
    try {
      const auto first = token.find('.');
      const auto second = first == std::string_view::npos ? first : token.find('.', first + 1);
      if (second == std::string_view::npos || token.find('.', second + 1) != std::string_view::npos) {
        refused.why = "not a signed JWT (three dot-separated parts)";
        return refused;
      }
      const auto header = base64url_json(std::string(token.substr(0, first)));
      if (!header || !header->contains("alg") || !(*header)["alg"].is_string() ||
          !accepted_algorithm((*header)["alg"].get_ref<const std::string&>())) {
        refused.why = "the JWS algorithm is not accepted";
        return refused;
      }
      if (header->contains("crit")) {
        refused.why = "the JWS header has critical extensions";
        return refused;
      }
      // The unverified `iss` only picks whose keys to try; the verified payload is checked again.
      const auto claimed = base64url_json(std::string(token.substr(first + 1, second - first - 1)));
      Issuer* issuer = nullptr;
      if (claimed && claimed->contains("iss") && (*claimed)["iss"].is_string())
        for (auto& one : issuers_)
          if (one->id() == (*claimed)["iss"]) issuer = one.get();
      if (issuer == nullptr) {
        refused.why = "iss is not an accepted authorization server";
        return refused;
      }
      const auto payload = issuer->verified_payload(std::string(token), refused.why);
      if (!payload) return refused;
      return check_claims(*payload, {issuer->id(), settings_.audience, settings_.scope, 60},
                          static_cast<std::int64_t>(std::time(nullptr)));
    } catch (...) {  // out of memory: refused, not a crash
      refused.why = "the token could not be checked";
      return refused;
    }
  }

 private:
  VerifierSettings settings_;
  std::vector<std::unique_ptr<Issuer>> issuers_;
};

}  // namespace

std::unique_ptr<TokenVerifier> make_jwt_verifier(VerifierSettings settings, std::string&) {
  library_log();
  return std::make_unique<JwtVerifier>(std::move(settings));
}

}  // namespace mcpread::server::auth

#endif
