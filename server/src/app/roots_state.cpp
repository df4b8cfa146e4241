#include "roots_state.hpp"

#include "mcpread/readers/resources.hpp"

#include <algorithm>

namespace mcpread::server {

RootsState::RootsState(readers::Roots cli_roots, bool cli_default)
    : cli_(std::move(cli_roots)),
      cli_default_(cli_default),
      current_(std::make_shared<const readers::Roots>(cli_)) {}

std::shared_ptr<const readers::Roots> RootsState::current(std::chrono::milliseconds wait,
                                                          const std::atomic<bool>* cancelled) const {
  // Measured from when the request went out, so a client that never answers delays only the
  // reads of the first `wait`, not every read after it.
  std::unique_lock lock(mutex_);
  const auto deadline = pending_since_ + wait;
  auto is_cancelled = [cancelled] { return cancelled != nullptr && cancelled->load(); };
  while (pending_ != 0 && std::chrono::steady_clock::now() < deadline) {
    if (is_cancelled()) return nullptr;
    // Cancellation sets a flag without waking us: look again every 20 ms.
    changed_.wait_until(lock, std::min(deadline, std::chrono::steady_clock::now() +
                                                     std::chrono::milliseconds(20)));
  }
  if (is_cancelled()) return nullptr;
  return current_;
}

bool RootsState::settled() const {
  std::lock_guard lock(mutex_);
  return pending_ == 0;
}

void RootsState::request_started() {
  std::lock_guard lock(mutex_);
  if (pending_++ == 0) pending_since_ = std::chrono::steady_clock::now();
}

void RootsState::request_failed() {
  {
    std::lock_guard lock(mutex_);
    if (pending_ > 0) --pending_;
  }
  changed_.notify_all();
}

std::string RootsState::apply_client_roots(const std::vector<std::string>& uris) {
  std::vector<std::string> dirs;
  for (const auto& uri : uris) {
    auto path = path_from_file_uri(uri);
    if (!path.empty()) dirs.push_back(std::move(path));
  }
  std::string outcome;
  {
    std::lock_guard lock(mutex_);
    if (pending_ > 0) --pending_;
    if (dirs.empty()) {
      // The client offers no file roots: nothing to narrow by.
      current_ = std::make_shared<const readers::Roots>(cli_);
      outcome = "the client declared no file:// roots; reads stay within " + cli_.describe();
    } else {
      auto narrowed = std::make_shared<const readers::Roots>(cli_.narrowed_by(dirs, cli_default_));
      outcome = narrowed->empty()
                    ? "none of the client's roots lies within the server's roots (" +
                          cli_.describe() + "); every read will be refused"
                    : "reads are now confined to " + narrowed->describe();
      current_ = std::move(narrowed);
    }
  }
  changed_.notify_all();
  return outcome;
}

std::shared_ptr<const readers::Roots> RootsState::for_client(const std::vector<std::string>& uris) const {
  std::vector<std::string> dirs;
  for (const auto& uri : uris) {
    auto path = path_from_file_uri(uri);
    if (!path.empty()) dirs.push_back(std::move(path));
  }
  if (dirs.empty()) return std::make_shared<const readers::Roots>(cli_);
  return std::make_shared<const readers::Roots>(cli_.narrowed_by(dirs, cli_default_));
}

std::shared_ptr<const readers::Roots> RootsState::narrowed(const std::shared_ptr<const readers::Roots>& base,
                                                           const std::optional<std::vector<std::string>>& uris) {
  if (!uris) return base;
  std::vector<std::string> dirs;
  for (const auto& uri : *uris) {
    auto path = path_from_file_uri(uri);
    if (!path.empty()) dirs.push_back(std::move(path));
  }
  return dirs.empty() ? base : std::make_shared<const readers::Roots>(base->narrowed_by(dirs, false));
}

std::string RootsState::path_from_file_uri(const std::string& uri) {
  return readers::path_from_file_uri(uri);
}

}  // namespace mcpread::server
