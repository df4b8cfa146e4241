#pragma once
// The roots policy in force (--oauth-roots), reloaded on SIGHUP: a reload that fails keeps the
// policy in force. It turns an authenticated identity into the caller the MCP layers see: its
// owner (whose sessions and tasks are its own) and its ReadScope (what it may read).
#include "authorizer.hpp"
#include "roots_policy.hpp"

#include "mcpread/protocol/server_handler.hpp"

#include <memory>
#include <mutex>
#include <string>
#include <unordered_set>

namespace mcpread::server::auth {

class IdentityRoots {
 public:
  IdentityRoots(std::string path, readers::Roots server_roots)
      : path_(std::move(path)), server_roots_(std::move(server_roots)) {}

  // Reads the policy file: false with `error` ("--oauth-roots FILE: rule 2: ...") when it is
  // unusable, and the policy in force (if any) stays. Warnings are logged.
  bool load(std::string& error);
  // The caller `identity` is: its roots under the policy in force (empty when no rule matches).
  [[nodiscard]] protocol::Caller caller(const Identity& identity) const;
  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  // Logs a template's warning at warn level once per policy (then at debug level): a token that
  // keeps coming back must not flood the log with the same sentence.
  void warn_once(const std::string& warning) const;

  std::string path_;
  readers::Roots server_roots_;
  mutable std::mutex mutex_;
  std::shared_ptr<const RootsPolicy> policy_;
  mutable std::unordered_set<std::string> warned_;  // under mutex_; cleared by load()
};

}  // namespace mcpread::server::auth
