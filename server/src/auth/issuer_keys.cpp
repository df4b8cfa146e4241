// The keys are given to liboauth2 one by one as static JWKs ("jwk"), not as its "jwks_uri": with a
// jwks_uri it fetches the JWKS again whenever a signature fails to verify, with no limit, and
// caches it in a shared-memory cache whose values may not exceed 8 KiB (a large provider's JWKS is
// bigger, so it would be fetched for every new token).
#include "issuer_keys.hpp"

#ifndef _WIN32

#include "http_get.hpp"
#include "resource_metadata.hpp"
#include "token_verifier.hpp"

#include <spdlog/spdlog.h>

#include "oauth_api.hpp"

#include <algorithm>
#include <set>

namespace mcpread::server::auth {

namespace {

constexpr double kFetchBurst = 2.0;
constexpr std::chrono::duration<double> kFetchGap = std::chrono::seconds(5);
constexpr auto kKeysMaxAge = std::chrono::hours(1);

// Loaded by make_jwt_verifier, which makes no verifier when it cannot be.
const OAuthApi& lib() { return *oauth_api(nullptr); }

// liboauth2 logs at debug level what must not be seen (cache keys are tokens): only its warnings
// and errors are taken, and they go to the debug log, since a bad token is the client's affair.
void log_sink(oauth2_log_sink_t*, const char*, unsigned long, const char*, oauth2_log_level_t, const char* msg) {
  spdlog::debug("oauth: {}", msg != nullptr ? msg : "");
}

oauth2_log_t* library_log() {
  static oauth2_log_t* log = [] {
    oauth2_log_sink_t* sink = lib().log_sink_create(OAUTH2_LOG_WARN, log_sink, nullptr);
    return lib().init(OAUTH2_LOG_WARN, sink);
  }();
  return log;
}

std::string free_after(char* text) {
  std::string out = text != nullptr ? text : "";
  if (text != nullptr) lib().mem_free(text);
  return out;
}

// Accepted places to fetch keys from: https, or http on a loopback host.
bool fetchable(const std::string& url) { return checked_issuer(url).has_value() || url.rfind("https://", 0) == 0; }

std::string string_at(const nlohmann::json& object, const char* name) {
  const auto at = object.find(name);
  return at != object.end() && at->is_string() ? at->get<std::string>() : std::string();
}

}  // namespace

struct KeySet {
  oauth2_cfg_token_verify_t* verify = nullptr;
  std::set<std::string> kids;
  std::chrono::steady_clock::time_point fetched;
  std::mutex use;  // liboauth2 counts references to its keys without atomics
  KeySet() = default;
  KeySet(const KeySet&) = delete;
  KeySet& operator=(const KeySet&) = delete;
  ~KeySet() {
    if (verify != nullptr) lib().verify_free(library_log(), verify);
  }
};

KeyCheck IssuerKeys::verify(const std::string& token, const std::string& kid, nlohmann::json& payload,
                            std::string& why) {
  const auto keys = keys_for(kid, why);
  if (!keys) return KeyCheck::unavailable;
  json_t* verified = nullptr;
  {
    std::lock_guard lock(keys->use);
    if (!lib().token_verify(library_log(), nullptr, keys->verify, token.c_str(), &verified) || verified == nullptr) {
      why = "no key of " + id_ + " verifies the signature";
      return KeyCheck::refused;
    }
  }
  const std::string text = free_after(lib().json_dumps(verified, JSON_COMPACT));
  lib().json_release(verified);
  payload = nlohmann::json::parse(text, nullptr, false);
  if (!payload.is_object()) {
    why = "the payload is not a JSON object";
    return KeyCheck::refused;
  }
  return KeyCheck::verified;
}

bool IssuerKeys::keys_will_do(const std::string& kid, std::chrono::steady_clock::time_point now) const {
  return keys_ && now - keys_->fetched <= kKeysMaxAge && (kid.empty() || keys_->kids.count(kid) != 0);
}

bool IssuerKeys::ration_allows(std::chrono::steady_clock::time_point now) {
  fetches_allowed_ = std::min(kFetchBurst, fetches_allowed_ + (now - rationed_at_) / kFetchGap);
  rationed_at_ = now;
  return fetches_allowed_ >= 1.0;
}

std::shared_ptr<KeySet> IssuerKeys::keys_for(const std::string& kid, std::string& why) {
  // Whether to fetch: when the keys held will not do, and the ration allows it.
  auto decide = [&](std::chrono::steady_clock::time_point now) { return !keys_will_do(kid, now) && ration_allows(now); };
  auto held = [&] {
    if (!keys_) why = "the keys of " + id_ + " could not be fetched a moment ago";
    return keys_;
  };
  {
    std::lock_guard lock(state_);
    if (!decide(std::chrono::steady_clock::now())) return held();
  }
  std::unique_lock fetching(fetching_, std::try_to_lock);
  if (!fetching.owns_lock()) {  // another request is fetching: this one does not wait
    std::lock_guard lock(state_);
    if (!keys_) why = "the keys of " + id_ + " are being fetched";
    return keys_;
  }
  {
    std::lock_guard lock(state_);
    const auto now = std::chrono::steady_clock::now();
    if (!decide(now)) return held();  // fetched by another request meanwhile
    fetches_allowed_ -= 1.0;
  }
  auto fresh = fetch(why);
  std::lock_guard lock(state_);
  if (fresh) keys_ = std::move(fresh);
  else if (keys_) spdlog::warn("oauth: {}; the keys held are used", why);
  return keys_;
}

std::shared_ptr<KeySet> IssuerKeys::fetch(std::string& why) {
  if (jwks_uri_.empty()) jwks_uri_ = discover(why);
  if (jwks_uri_.empty()) return nullptr;
  const std::string uri = jwks_uri_;
  const auto got = http_get(uri, why);
  if (!got || got->status != 200) {
    if (got) why = uri + " answered with HTTP status " + std::to_string(got->status);
    why = "the keys of " + id_ + " could not be fetched: " + why;
    jwks_uri_.clear();  // found again next time: the metadata may have moved them
    spdlog::warn("oauth: {}", why);
    return nullptr;
  }
  const auto jwks = nlohmann::json::parse(got->body, nullptr, false);
  auto keys = std::make_shared<KeySet>();
  keys->fetched = std::chrono::steady_clock::now();
  const auto list = jwks.is_object() ? jwks.find("keys") : jwks.end();
  if (list != jwks.end() && list->is_array()) {
    for (const auto& key : *list) {
      if (!key.is_object()) continue;
      const std::string use = string_at(key, "use"), kty = string_at(key, "kty");
      if ((!use.empty() && use != "sig") || (kty != "RSA" && kty != "EC")) continue;  // no secret keys
      // liboauth2's claim checks are claims.cpp's; a verified token is remembered for 60 s (its
      // default, 300 s, would let a key removed from the JWKS verify for 5 minutes more).
      const std::string problem = free_after(
          lib().verify_add_options(library_log(), &keys->verify, "jwk", key.dump().c_str(),
                                              "verify.exp=skip&verify.iat=skip&verify.iss=skip&expiry=60"));
      if (!problem.empty()) {
        spdlog::warn("oauth: a key at {} cannot be used: {}", uri, problem);
        continue;
      }
      keys->kids.insert(string_at(key, "kid"));
    }
  }
  if (keys->verify == nullptr) {
    why = "the keys of " + id_ + " could not be fetched: " + uri + " holds no RSA or EC signing key";
    spdlog::warn("oauth: {}", why);
    return nullptr;
  }
  spdlog::info("oauth: {} keys of {} fetched from {}", keys->kids.size(), id_, uri);
  return keys;
}

std::string IssuerKeys::discover(std::string& why) {
  for (const auto& url : metadata_urls(id_)) {
    const auto got = http_get(url, why);
    if (!got || got->status != 200) continue;
    const auto metadata = nlohmann::json::parse(got->body, nullptr, false);
    if (!metadata.is_object() || string_at(metadata, "issuer") != id_) {
      spdlog::warn("oauth: {} does not name {} as its issuer; ignored", url, id_);
      continue;
    }
    const std::string jwks_uri = string_at(metadata, "jwks_uri");
    if (jwks_uri.empty() || !fetchable(jwks_uri)) {
      spdlog::warn("oauth: {} names no usable jwks_uri (https, or http on loopback)", url);
      continue;
    }
    return jwks_uri;
  }
  why = "the keys of " + id_ + " could not be found: no metadata of the authorization server could be read";
  spdlog::warn("oauth: {}", why);
  return {};
}

std::optional<nlohmann::json> jose_part_json(std::string_view part) {
  uint8_t* bytes = nullptr;
  size_t size = 0;
  const std::string text(part);
  if (!lib().base64url_decode(library_log(), text.c_str(), &bytes, &size) || bytes == nullptr) return std::nullopt;
  auto json = nlohmann::json::parse(reinterpret_cast<const char*>(bytes), reinterpret_cast<const char*>(bytes) + size,
                                    nullptr, false);
  lib().mem_free(bytes);
  if (json.is_discarded() || !json.is_object()) return std::nullopt;
  return json;
}

}  // namespace mcpread::server::auth

#endif
