#pragma once
// The refusals of an OAuth protected resource (RFC 6750 section 3, MCP authorization): 401 with
// a WWW-Authenticate header that names the resource metadata (where a client starts discovery)
// and the scope to ask for; error="invalid_token" when a token was sent but is not good;
// 403 error="insufficient_scope" for a good token without the scope.
#include <string>
#include <utility>
#include <vector>

namespace mcpread::server::auth {

struct Refusal {
  unsigned status;  // 401, 403, or 503 when tokens cannot be checked now
  // WWW-Authenticate with 401 and 403; Retry-After with 503.
  std::vector<std::pair<std::string, std::string>> headers;
  std::string message;  // the JSON-RPC error's message
};

class Challenge {
 public:
  Challenge(std::string metadata_url, std::string scope)
      : metadata_url_(std::move(metadata_url)), scope_(std::move(scope)) {}

  [[nodiscard]] Refusal missing_token() const;
  [[nodiscard]] Refusal invalid_token() const;
  [[nodiscard]] Refusal insufficient_scope() const;
  [[nodiscard]] static Refusal unavailable();
  // The same, when tokens are introspected and the introspection endpoint failed.
  [[nodiscard]] static Refusal introspection_unavailable();

 private:
  [[nodiscard]] std::string header(const char* error) const;
  std::string metadata_url_;
  std::string scope_;
};

}  // namespace mcpread::server::auth
