#pragma once
// Who may talk to the HTTP server: the browser Origin (DNS rebinding and cross-site requests),
// the Host a loopback listener is reached by, and an optional bearer token. Pure functions of the
// request's headers, so they are tested without sockets.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcpread::server::http {

struct AccessPolicy {
  bool loopback_only = true;                 // bound to a loopback address: Host must be loopback
  std::vector<std::string> allowed_origins;  // besides http(s)://localhost, 127.0.0.1, [::1]
  std::string auth_token;                    // empty: no token required
};

struct AccessDenied {
  unsigned status;  // 400, 401 or 403
  std::string message;
};

// Whether `address` is a loopback address or name (127.0.0.0/8, ::1, localhost).
bool is_loopback_host(std::string_view address);

// The host part of a Host header value ("localhost:8080" -> "localhost", "[::1]:1" -> "::1").
std::string host_of(std::string_view host_header);

bool origin_allowed(std::string_view origin, const AccessPolicy& policy);

// Compares in time that depends only on the lengths, so the token cannot be guessed byte by byte.
bool constant_time_equal(std::string_view a, std::string_view b);

// The refusal of a request with these headers (absent headers passed as nullopt), or nullopt.
std::optional<AccessDenied> check_access(const AccessPolicy& policy,
                                         std::optional<std::string_view> host,
                                         std::optional<std::string_view> origin,
                                         std::optional<std::string_view> authorization);

}  // namespace mcpread::server::http
