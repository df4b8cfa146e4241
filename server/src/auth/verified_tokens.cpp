#include "verified_tokens.hpp"

namespace mcpread::server::auth {

std::optional<VerifiedToken> VerifiedTokens::find(std::string_view token, Clock::time_point now) {
  std::lock_guard lock(mutex_);
  const auto it = entries_.find(token);
  if (it == entries_.end()) return std::nullopt;
  if (now >= it->second.until) {
    order_.erase(it->second.age);
    entries_.erase(it);
    return std::nullopt;
  }
  return it->second.verified;
}

void VerifiedTokens::keep(std::string token, VerifiedToken verified, Clock::time_point now,
                          std::chrono::seconds lifetime) {
  if (max_ == 0 || lifetime <= std::chrono::seconds::zero()) return;
  std::lock_guard lock(mutex_);
  if (const auto it = entries_.find(token); it != entries_.end()) {
    order_.erase(it->second.age);
    entries_.erase(it);
  }
  // Entries are kept in the order they came; when full, the oldest go first (with lifetimes of
  // their own, one that has run out may be further on: it goes when it is next looked up).
  while (!order_.empty()) {
    const auto oldest = entries_.find(*order_.front());
    if (entries_.size() < max_ && now < oldest->second.until) break;
    order_.pop_front();
    entries_.erase(oldest);
  }
  const auto it = entries_.emplace(std::move(token), Entry{std::move(verified), now + lifetime, {}}).first;
  it->second.age = order_.insert(order_.end(), &it->first);
}

std::size_t VerifiedTokens::size() const {
  std::lock_guard lock(mutex_);
  return entries_.size();
}

}  // namespace mcpread::server::auth
