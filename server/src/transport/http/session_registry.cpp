#include "session_registry.hpp"

#include <array>
#include <random>
#include <vector>

namespace mcpread::server::http {

std::string SessionRegistry::new_id() {
  // 128 bits from the system's random source: ids must not be guessable (they address a session).
  static thread_local std::random_device device;
  static constexpr char hex[] = "0123456789abcdef";
  std::string id;
  for (int i = 0; i < 4; ++i) {
    const std::uint32_t word = device();
    for (int shift = 28; shift >= 0; shift -= 4) id.push_back(hex[(word >> shift) & 0xF]);
  }
  return id;
}

std::shared_ptr<HttpSession> SessionRegistry::find(const std::string& id, const std::string& owner) const {
  std::lock_guard lock(mutex_);
  const auto it = sessions_.find(id);
  return it == sessions_.end() || it->second.owner != owner ? nullptr : it->second.session;
}

bool SessionRegistry::end(const std::string& id, const std::string& owner) { return remove(id, &owner); }

bool SessionRegistry::end_any(const std::string& id) { return remove(id, nullptr); }

bool SessionRegistry::remove(const std::string& id, const std::string* owner) {
  std::shared_ptr<HttpSession> session;
  {
    std::lock_guard lock(mutex_);
    const auto it = sessions_.find(id);
    if (it == sessions_.end() || (owner != nullptr && it->second.owner != *owner)) return false;
    session = std::move(it->second.session);
    sessions_.erase(it);
  }
  session->end();  // outside the lock: an /sse stream that closes ends its session through end_any()
  return true;
}

std::size_t SessionRegistry::end_idle(std::chrono::steady_clock::time_point deadline) {
  std::vector<std::shared_ptr<HttpSession>> idle;
  {
    std::lock_guard lock(mutex_);
    for (auto it = sessions_.begin(); it != sessions_.end();) {
      if (it->second.session->idle_since_before(deadline)) {
        idle.push_back(std::move(it->second.session));
        it = sessions_.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (auto& session : idle) session->end();
  return idle.size();
}

void SessionRegistry::end_all() {
  std::map<std::string, Entry> all;
  {
    std::lock_guard lock(mutex_);
    all.swap(sessions_);
  }
  for (auto& [id, entry] : all) entry.session->end();
}

std::size_t SessionRegistry::size() const {
  std::lock_guard lock(mutex_);
  return sessions_.size();
}

}  // namespace mcpread::server::http
