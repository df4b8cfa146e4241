#pragma once
// Tokens whose signature was verified lately, with their payloads: a client sends the same token
// on every call until it expires, and verifying it again (base64, JSON, the signature) cost more
// than the call itself. Kept for 60 s (so a key removed from the JWKS stops counting within a
// minute); the claims are checked again on every use, so an expired token is refused as before.
// Bounded: when full, what has run out is dropped, then the oldest. Introspected tokens
// (introspection.hpp) are kept here too, each for its own time.
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstddef>
#include <functional>
#include <list>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace mcpread::server::auth {

struct VerifiedToken {
  std::string issuer;
  nlohmann::json payload;
};

class VerifiedTokens {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr std::chrono::seconds kKeep{60};

  explicit VerifiedTokens(std::size_t max_tokens = 4096) : max_(max_tokens) {}

  [[nodiscard]] std::optional<VerifiedToken> find(std::string_view token, Clock::time_point now);
  void keep(std::string token, VerifiedToken verified, Clock::time_point now) {
    keep(std::move(token), std::move(verified), now, kKeep);
  }
  // Kept for `lifetime` instead (introspected tokens: until they expire, or the operator's cap).
  void keep(std::string token, VerifiedToken verified, Clock::time_point now, std::chrono::seconds lifetime);
  [[nodiscard]] std::size_t size() const;

 private:
  struct Entry {
    VerifiedToken verified;
    Clock::time_point until;
    std::list<const std::string*>::iterator age;  // its place in order_
  };
  std::size_t max_;
  mutable std::mutex mutex_;
  // A map's keys stay where they are while the map changes, so order_ points at them rather than
  // holding a second copy of every token; std::less<> finds a string_view without a copy.
  std::map<std::string, Entry, std::less<>> entries_;
  std::list<const std::string*> order_;  // the tokens, oldest first
};

}  // namespace mcpread::server::auth
