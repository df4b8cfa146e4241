#pragma once
// The roots reads are confined to: the command line's, narrowed by the client's MCP roots once
// they arrive. Reads that start while a roots/list answer is awaited wait for it (briefly), so a
// read never slips through before the client has narrowed the roots.
#include "mcpread/readers/access.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace mcpread::server {

class RootsState {
 public:
  // `cli_default`: the roots are the default (cwd), so client roots replace rather than narrow.
  RootsState(readers::Roots cli_roots, bool cli_default);

  // The roots to use now; waits up to `wait` while a roots/list answer is pending. nullptr when
  // `cancelled` (if given) becomes true while waiting: the read was cancelled meanwhile.
  std::shared_ptr<const readers::Roots> current(std::chrono::milliseconds wait,
                                                const std::atomic<bool>* cancelled = nullptr) const;

  // No roots/list answer is awaited: current() would not wait.
  [[nodiscard]] bool settled() const;

  void request_started();
  // Applies the client's root URIs. Returns a sentence describing the outcome, for logs.
  std::string apply_client_roots(const std::vector<std::string>& uris);
  void request_failed();
  // The roots for one request whose client gave its root URIs with it (stateless requests):
  // the command line's narrowed by them, without changing what current() returns.
  std::shared_ptr<const readers::Roots> for_client(const std::vector<std::string>& uris) const;
  // `base` (a caller's own roots) narrowed by a request's client root URIs, when given.
  static std::shared_ptr<const readers::Roots> narrowed(const std::shared_ptr<const readers::Roots>& base,
                                                        const std::optional<std::vector<std::string>>& uris);

  // file:///a%20b -> /a b; empty for other schemes or malformed URIs.
  static std::string path_from_file_uri(const std::string& uri);

 private:
  readers::Roots cli_;
  bool cli_default_;
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  std::shared_ptr<const readers::Roots> current_;
  int pending_ = 0;
  std::chrono::steady_clock::time_point pending_since_;
};

}  // namespace mcpread::server
