#include "security.hpp"

#include "mcpread/common/ascii.hpp"

#include <algorithm>
#include <cctype>

namespace mcpread::server::http {
using common::ascii_lower;

bool is_loopback_host(std::string_view address) {
  const std::string a = ascii_lower(address);
  if (a == "localhost" || a == "::1" || a == "[::1]") return true;
  if (a.size() > 10 && a.compare(a.size() - 10, 10, ".localhost") == 0) return true;
  // 127.x.y.z with digits only.
  if (a.rfind("127.", 0) != 0) return false;
  int dots = 0;
  for (char c : a) {
    if (c == '.') ++dots;
    else if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  }
  return dots == 3;
}

std::string host_of(std::string_view host_header) {
  if (!host_header.empty() && host_header.front() == '[') {
    const auto close = host_header.find(']');
    return std::string(host_header.substr(1, close == std::string_view::npos ? std::string_view::npos : close - 1));
  }
  const auto colon = host_header.find(':');
  // More than one colon without brackets: a bare IPv6 address, not host:port.
  if (colon != std::string_view::npos && host_header.find(':', colon + 1) == std::string_view::npos)
    return std::string(host_header.substr(0, colon));
  return std::string(host_header);
}

bool origin_allowed(std::string_view origin, const AccessPolicy& policy) {
  std::string o = ascii_lower(origin);
  while (!o.empty() && o.back() == '/') o.pop_back();
  for (const auto& allowed : policy.allowed_origins)
    if (ascii_lower(allowed) == o || allowed == "*") return true;
  std::string_view rest = o;
  if (rest.rfind("http://", 0) == 0) rest.remove_prefix(7);
  else if (rest.rfind("https://", 0) == 0) rest.remove_prefix(8);
  else return false;
  if (rest.find('/') != std::string_view::npos || rest.find('@') != std::string_view::npos) return false;
  return is_loopback_host(host_of(rest));
}

bool constant_time_equal(std::string_view a, std::string_view b) {
  unsigned char diff = a.size() == b.size() ? 0 : 1;
  const std::size_t n = std::max(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned char x = i < a.size() ? static_cast<unsigned char>(a[i]) : 0;
    const unsigned char y = i < b.size() ? static_cast<unsigned char>(b[i]) : 0;
    diff = static_cast<unsigned char>(diff | (x ^ y));
  }
  return diff == 0;
}

std::optional<AccessDenied> check_access(const AccessPolicy& policy,
                                         std::optional<std::string_view> host,
                                         std::optional<std::string_view> origin,
                                         std::optional<std::string_view> authorization) {
  if (policy.loopback_only) {
    if (!host) return AccessDenied{400, "Bad Request: the Host header is missing"};
    if (!is_loopback_host(host_of(*host)))
      return AccessDenied{403, "Forbidden: Host '" + std::string(*host) +
                                   "' is not a loopback name; this server listens on loopback only "
                                   "(DNS rebinding protection)"};
  }
  if (origin && !origin_allowed(*origin, policy))
    return AccessDenied{403, "Forbidden: Origin '" + std::string(*origin) +
                                 "' is not allowed; start the server with --allow-origin " +
                                 std::string(*origin) + " to accept it"};
  if (!policy.auth_token.empty()) {
    constexpr std::string_view scheme = "Bearer ";
    const bool bearer = authorization && authorization->size() > scheme.size() &&
                        ascii_lower(authorization->substr(0, scheme.size())) == "bearer ";
    if (!bearer) return AccessDenied{401, "Unauthorized: send \"Authorization: Bearer <token>\""};
    if (!constant_time_equal(authorization->substr(scheme.size()), policy.auth_token))
      return AccessDenied{401, "Unauthorized: the bearer token is not valid"};
  }
  return std::nullopt;
}

}  // namespace mcpread::server::http
