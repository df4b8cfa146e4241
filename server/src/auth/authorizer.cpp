#include "authorizer.hpp"

#include "mcpread/common/ascii.hpp"

#include <spdlog/spdlog.h>

namespace mcpread::server::auth {

std::variant<Identity, Refusal> Authorizer::authorize(std::optional<std::string_view> authorization) const {
  constexpr std::string_view scheme = "bearer ";
  if (!authorization || authorization->size() < scheme.size() ||
      common::ascii_lower(authorization->substr(0, scheme.size())) != scheme)
    return challenge_.missing_token();
  std::string_view token = authorization->substr(scheme.size());
  while (!token.empty() && token.front() == ' ') token.remove_prefix(1);
  while (!token.empty() && token.back() == ' ') token.remove_suffix(1);
  if (token.empty()) return challenge_.missing_token();
  const ClaimsResult result = verifier_->verify(token);
  switch (result.verdict) {
    case ClaimsVerdict::valid:
      spdlog::debug("oauth: token of sub '{}' accepted", result.sub);
      return Identity{result.issuer, result.sub, result.claims};
    case ClaimsVerdict::insufficient_scope:
      spdlog::debug("oauth: token of sub '{}' refused: {}", result.sub, result.why);
      return challenge_.insufficient_scope();
    case ClaimsVerdict::unavailable:
      spdlog::debug("oauth: token not checked: {}", result.why);
      return result.introspection ? Challenge::introspection_unavailable() : Challenge::unavailable();
    case ClaimsVerdict::invalid:
      break;
  }
  spdlog::debug("oauth: token refused: {}", result.why);
  return challenge_.invalid_token();
}

}  // namespace mcpread::server::auth
