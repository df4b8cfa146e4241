#pragma once
// The HTTP sessions alive: created by initialize (Streamable HTTP) or GET /sse (HTTP+SSE), found
// by their id, ended by DELETE, by their stream closing, by disuse, or at shutdown.
#include "http_session.hpp"

#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace mcpread::server::http {

class SessionRegistry {
 public:
  // `prefix` starts every id (--replica-id and a dot; empty: none).
  SessionRegistry(std::size_t max_sessions, std::string prefix) : max_(max_sessions), prefix_(std::move(prefix)) {}

  // A new session registered under a fresh unguessable id (after the prefix); nullptr when
  // `max_sessions` are open.
  template <class Make>
  std::shared_ptr<HttpSession> create(Make make) {
    std::lock_guard lock(mutex_);
    if (sessions_.size() >= max_) return nullptr;
    std::string id = prefix_ + new_id();
    auto session = make(id);
    sessions_.emplace(std::move(id), session);
    return session;
  }
  std::shared_ptr<HttpSession> find(const std::string& id) const;
  // Removes and ends the session; false when there was none.
  bool end(const std::string& id);
  // Ends sessions unused since before `deadline`; returns how many.
  std::size_t end_idle(std::chrono::steady_clock::time_point deadline);
  void end_all();
  [[nodiscard]] std::size_t size() const;

 private:
  static std::string new_id();

  std::size_t max_;
  std::string prefix_;
  mutable std::mutex mutex_;
  std::map<std::string, std::shared_ptr<HttpSession>> sessions_;
};

}  // namespace mcpread::server::http
