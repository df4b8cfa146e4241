// The parts of token introspection that need no network: the token's shape, the request's
// encoding, and the answer's checks.
#include "introspection.hpp"

#include "mcpread/common/ascii.hpp"

#include <algorithm>
#include <array>

namespace mcpread::server::auth {

namespace {

bool base64url_char(char ch) {
  return (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-' || ch == '_';
}

std::string base64(std::string_view bytes) {
  constexpr std::string_view digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (std::size_t at = 0; at < bytes.size(); at += 3) {
    const std::size_t left = std::min<std::size_t>(3, bytes.size() - at);
    std::uint32_t group = 0;
    for (std::size_t i = 0; i < 3; ++i)
      group = (group << 8) | (i < left ? static_cast<unsigned char>(bytes[at + i]) : 0u);
    for (std::size_t i = 0; i < 4; ++i)
      out.push_back(i <= left ? digits[(group >> (18 - 6 * i)) & 63u] : '=');
  }
  return out;
}

}  // namespace

bool jwt_shaped(std::string_view token) {
  std::array<std::size_t, 3> lengths{};
  std::size_t part = 0;
  for (const char ch : token) {
    if (ch == '.') {
      if (++part == lengths.size()) return false;
    } else if (base64url_char(ch)) {
      ++lengths[part];
    } else {
      return false;
    }
  }
  return part == 2 && lengths[0] > 0 && lengths[1] > 0;
}

std::string form_encode(std::string_view text) {
  constexpr std::string_view hex = "0123456789ABCDEF";
  std::string out;
  for (const char ch : text) {
    if (base64url_char(ch) || ch == '.' || ch == '~') {
      out.push_back(ch);
    } else {
      const auto byte = static_cast<unsigned char>(ch);
      out += {'%', hex[byte >> 4], hex[byte & 15u]};
    }
  }
  return out;
}

std::string basic_authorization(std::string_view client_id, std::string_view secret) {
  return "Basic " + base64(form_encode(client_id) + ":" + form_encode(secret));
}

ClaimsResult check_introspection(long status, std::string_view body, ClaimsPolicy policy, std::int64_t now_s,
                                 nlohmann::json& response) {
  ClaimsResult result;
  result.verdict = ClaimsVerdict::unavailable;
  if (status != 200) {
    result.why = "the introspection endpoint answered with HTTP status " + std::to_string(status);
    return result;
  }
  auto answer = nlohmann::json::parse(body, nullptr, false);
  if (!answer.is_object()) {
    result.why = "the introspection endpoint's answer is not a JSON object";
    return result;
  }
  const auto active = answer.find("active");
  if (active == answer.end() || !active->is_boolean()) {
    result.why = "the introspection endpoint's answer has no boolean \"active\"";
    return result;
  }
  result.verdict = ClaimsVerdict::invalid;
  if (!active->get<bool>()) {
    result.why = "the token is not active";
    return result;
  }
  // A refresh token, or a sender-constrained one (DPoP) whose proof is not checked here.
  if (const auto type = answer.find("token_type"); type != answer.end()) {
    const std::string name = type->is_string() ? common::ascii_lower(type->get<std::string>()) : std::string();
    if (name != "bearer" && name != "access_token") {
      result.why = "the token is not a bearer access token (token_type " + type->dump() + ")";
      return result;
    }
  }
  // Bound to a key or a certificate (RFC 7800): its proof of possession is not checked here.
  if (answer.contains("cnf")) {
    result.why = "the token is sender-constrained (cnf), which this server cannot check";
    return result;
  }
  // Without a subject (a client's own token, client credentials), the client is the identity,
  // as it is the `sub` of such a JWT (RFC 9068 section 2.2).
  if (const auto client = answer.find("client_id"); !answer.contains("sub") && client != answer.end() &&
                                                      client->is_string())
    answer["sub"] = *client;
  policy.introspected = true;
  result = check_claims(answer, policy, now_s);
  result.issuer = policy.issuer;
  // What roots per identity look at, as for a JWT's payload.
  if (result.verdict == ClaimsVerdict::valid) result.claims = std::make_shared<const nlohmann::json>(answer);
  if (result.verdict == ClaimsVerdict::valid || result.verdict == ClaimsVerdict::insufficient_scope)
    response = std::move(answer);
  return result;
}

std::int64_t reuse_seconds(const nlohmann::json& response, std::int64_t now_s, std::int64_t cap_s) {
  const auto exp = response.find("exp");
  if (exp == response.end() || !exp->is_number()) return std::max<std::int64_t>(0, cap_s);
  const double left = exp->get<double>() - static_cast<double>(now_s);
  if (left <= 0) return 0;
  return left >= static_cast<double>(cap_s) ? std::max<std::int64_t>(0, cap_s) : static_cast<std::int64_t>(left);
}

}  // namespace mcpread::server::auth
