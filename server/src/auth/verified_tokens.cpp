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

void VerifiedTokens::keep(std::string token, VerifiedToken verified, Clock::time_point now) {
  if (max_ == 0) return;
  std::lock_guard lock(mutex_);
  if (const auto it = entries_.find(token); it != entries_.end()) {
    order_.erase(it->second.age);
    entries_.erase(it);
  }
  // Entries are kept in the order they came, each for kKeep: the oldest run out first.
  while (!order_.empty()) {
    const auto oldest = entries_.find(*order_.front());
    if (entries_.size() < max_ && now < oldest->second.until) break;
    order_.pop_front();
    entries_.erase(oldest);
  }
  const auto it = entries_.emplace(std::move(token), Entry{std::move(verified), now + kKeep, {}}).first;
  it->second.age = order_.insert(order_.end(), &it->first);
}

std::size_t VerifiedTokens::size() const {
  std::lock_guard lock(mutex_);
  return entries_.size();
}

}  // namespace mcpread::server::auth
