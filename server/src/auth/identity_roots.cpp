#include "identity_roots.hpp"

#include "mcpread/server/read_scope.hpp"

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

namespace mcpread::server::auth {

bool IdentityRoots::load(std::string& error) {
  std::vector<std::string> warnings;
  auto loaded = RootsPolicy::load(path_, server_roots_, warnings);
  if (auto* problem = std::get_if<std::string>(&loaded)) {
    error = "--oauth-roots " + *problem;
    return false;
  }
  for (const auto& warning : warnings) spdlog::warn("--oauth-roots {}: {}", path_, warning);
  auto policy = std::make_shared<const RootsPolicy>(std::get<RootsPolicy>(std::move(loaded)));
  spdlog::info("--oauth-roots {}: {} rule(s) in force", path_, policy->rules().size());
  std::lock_guard lock(mutex_);
  policy_ = std::move(policy);
  warned_.clear();
  return true;
}

void IdentityRoots::warn_once(const std::string& warning) const {
  constexpr std::size_t most_remembered = 1000;  // beyond it, repeats are at debug level too
  bool first = false;
  {
    std::lock_guard lock(mutex_);
    if (warned_.size() < most_remembered) first = warned_.insert(warning).second;
  }
  if (first) spdlog::warn("--oauth-roots: {}", warning);
  else spdlog::debug("--oauth-roots: {}", warning);
}

protocol::Caller IdentityRoots::caller(const Identity& identity) const {
  std::shared_ptr<const RootsPolicy> policy;
  {
    std::lock_guard lock(mutex_);
    policy = policy_;
  }
  auto roots = std::make_shared<const readers::Roots>();
  if (policy && identity.claims) {
    std::vector<std::string> warnings;
    roots = std::make_shared<const readers::Roots>(policy->roots_for(*identity.claims, server_roots_, warnings));
    for (const auto& warning : warnings) warn_once(warning);
  }
  spdlog::debug("oauth: sub '{}' reads within {}", identity.sub, roots->describe());
  return protocol::Caller{identity.owner(), std::make_shared<const ReadScope>(std::move(roots), identity.sub)};
}

}  // namespace mcpread::server::auth
