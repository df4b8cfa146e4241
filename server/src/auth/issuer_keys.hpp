#pragma once
// An authorization server's signing keys: found through its metadata (RFC 8414, or OpenID Connect
// Discovery), fetched from its jwks_uri, and held in memory. They are fetched again when a token
// names a key they do not hold (the server's key rotation), or when they are an hour old; but
// fetches are rationed (two at once, then one per 5 s), so a flood of tokens with made-up keys or
// bad signatures costs the authorization server next to nothing. One fetch at a time; a token that arrives during a fetch is
// checked with the keys held, and never waits on the network.
#include <nlohmann/json.hpp>

#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace mcpread::server::auth {

struct KeySet;  // liboauth2's verifier over the keys of one fetch

enum class KeyCheck { verified, refused, unavailable };

class IssuerKeys {
 public:
  explicit IssuerKeys(std::string issuer) : id_(std::move(issuer)) {}
  IssuerKeys(const IssuerKeys&) = delete;
  IssuerKeys& operator=(const IssuerKeys&) = delete;
  [[nodiscard]] const std::string& id() const { return id_; }

  // Whether a key of this issuer verifies the signature of `token`, whose header names `kid`
  // (empty when none): the payload when it does; `unavailable` when no keys could be had.
  KeyCheck verify(const std::string& token, const std::string& kid, nlohmann::json& payload, std::string& why);

 private:
  std::shared_ptr<KeySet> keys_for(const std::string& kid, std::string& why);
  // Under state_: whether the keys held are recent and name `kid` (any key when it is empty).
  [[nodiscard]] bool keys_will_do(const std::string& kid, std::chrono::steady_clock::time_point now) const;
  // Under state_: refills the ration for the time gone by; true when a fetch may be made.
  bool ration_allows(std::chrono::steady_clock::time_point now);
  std::shared_ptr<KeySet> fetch(std::string& why);
  std::string discover(std::string& why);

  std::string id_;
  std::mutex state_;  // keys_ and the ration
  std::shared_ptr<KeySet> keys_;
  double fetches_allowed_ = 2.0;
  std::chrono::steady_clock::time_point rationed_at_;
  std::mutex fetching_;  // one fetch at a time; jwks_uri_
  std::string jwks_uri_;
};

// A JWS part (base64url of a JSON object), decoded; nothing when it is not one.
std::optional<nlohmann::json> jose_part_json(std::string_view part);

}  // namespace mcpread::server::auth
