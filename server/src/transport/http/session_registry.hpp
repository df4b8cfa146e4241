#pragma once
// The HTTP sessions alive: created by initialize (Streamable HTTP) or GET /sse (HTTP+SSE), found
// by their id, ended by DELETE, by their stream closing, by disuse, or at shutdown. Each belongs
// to whoever created it: with OAuth, the token's issuer and subject (empty without OAuth), and
// only the same owner finds or ends it, so a session id that leaks is no use to anyone else.
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
  std::shared_ptr<HttpSession> create(Make make, std::string owner = {}) {
    std::lock_guard lock(mutex_);
    if (sessions_.size() >= max_) return nullptr;
    std::string id = prefix_ + new_id();
    auto session = make(id);
    sessions_.emplace(std::move(id), Entry{session, std::move(owner)});
    return session;
  }
  // The session `id` of `owner`; nullptr when there is none, or it is another owner's.
  std::shared_ptr<HttpSession> find(const std::string& id, const std::string& owner = {}) const;
  // Removes and ends the session of `owner`; false when there was none.
  bool end(const std::string& id, const std::string& owner = {});
  // Removes and ends the session, whoever owns it (its stream closed).
  bool end_any(const std::string& id);
  // Ends sessions unused since before `deadline`; returns how many.
  std::size_t end_idle(std::chrono::steady_clock::time_point deadline);
  void end_all();
  [[nodiscard]] std::size_t size() const;

 private:
  static std::string new_id();
  // end() and end_any(): `owner` nullptr matches any owner.
  bool remove(const std::string& id, const std::string* owner);

  std::size_t max_;
  std::string prefix_;
  mutable std::mutex mutex_;
  struct Entry {
    std::shared_ptr<HttpSession> session;
    std::string owner;
  };
  std::map<std::string, Entry> sessions_;
};

}  // namespace mcpread::server::http
