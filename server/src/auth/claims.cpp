#include "claims.hpp"

#include "mcpread/common/ascii.hpp"

#include <nlohmann/json.hpp>

#include <array>

namespace mcpread::server::auth {

namespace {

bool has_scope(const nlohmann::json& payload, std::string_view wanted) {
  auto in_words = [wanted](std::string_view words) {
    while (!words.empty()) {
      const auto space = words.find(' ');
      if (words.substr(0, space) == wanted) return true;
      if (space == std::string_view::npos) break;
      words.remove_prefix(space + 1);
    }
    return false;
  };
  for (const char* name : {"scope", "scp"}) {
    const auto it = payload.find(name);
    if (it == payload.end()) continue;
    if (it->is_string() && in_words(it->get_ref<const std::string&>())) return true;
    if (it->is_array())
      for (const auto& one : *it)
        if (one.is_string() && one.get_ref<const std::string&>() == wanted) return true;
  }
  return false;
}

bool has_audience(const nlohmann::json& payload, const std::string& audience) {
  const auto it = payload.find("aud");
  if (it == payload.end()) return false;
  if (it->is_string()) return *it == audience;
  if (it->is_array())
    for (const auto& one : *it)
      if (one.is_string() && one == audience) return true;
  return false;
}

}  // namespace

ClaimsResult check_claims(const nlohmann::json& payload, const ClaimsPolicy& policy, std::int64_t now_s) {
  ClaimsResult result;
  if (!payload.is_object()) {
    result.why = "the payload is not a JSON object";
    return result;
  }
  const auto iss = payload.find("iss");
  const bool iss_missing_allowed = policy.introspected && iss == payload.end();
  if (!iss_missing_allowed && (iss == payload.end() || !iss->is_string() || *iss != policy.issuer)) {
    result.why = "iss is not " + policy.issuer;
    return result;
  }
  if (!has_audience(payload, policy.audience)) {
    result.why = "aud does not name " + policy.audience;
    return result;
  }
  const auto exp = payload.find("exp");
  if (exp == payload.end() && policy.introspected) {
    // No lifetime given: the authorization server's word that it is active is all there is.
  } else if (exp == payload.end() || !exp->is_number()) {
    result.why = "exp is missing";
    return result;
  } else if (exp->get<double>() + static_cast<double>(policy.skew_s) < static_cast<double>(now_s)) {
    result.why = "the token expired";
    return result;
  }
  if (const auto nbf = payload.find("nbf"); nbf != payload.end()) {
    if (!nbf->is_number() || nbf->get<double>() - static_cast<double>(policy.skew_s) > static_cast<double>(now_s)) {
      result.why = "the token is not valid yet (nbf)";
      return result;
    }
  }
  if (const auto sub = payload.find("sub"); sub != payload.end() && sub->is_string()) result.sub = *sub;
  if (!has_scope(payload, policy.scope)) {
    result.verdict = ClaimsVerdict::insufficient_scope;
    result.why = "the scope " + policy.scope + " is missing";
    return result;
  }
  result.verdict = ClaimsVerdict::valid;
  return result;
}

bool access_token_type(const nlohmann::json& typ) {
  if (!typ.is_string()) return false;
  const std::string type = common::ascii_lower(typ.get_ref<const std::string&>());
  return type == "jwt" || type == "at+jwt" || type == "application/at+jwt";
}

bool accepted_algorithm(std::string_view alg) {
  constexpr std::array<std::string_view, 9> accepted{"RS256", "RS384", "RS512", "PS256", "PS384",
                                                     "PS512", "ES256", "ES384", "ES512"};
  for (const auto a : accepted)
    if (a == alg) return true;
  return false;
}

}  // namespace mcpread::server::auth
