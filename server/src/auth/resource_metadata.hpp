#pragma once
// What this server publishes about itself as an OAuth protected resource (RFC 9728): its canonical
// URI (RFC 8707; tokens must name it in `aud`), the authorization servers that issue its tokens
// and the scope a call needs; and where that document is served.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcpread::server::auth {

// `uri` as a canonical resource URI: an absolute http(s) URI without fragment, its scheme and
// host lowercased, without a trailing slash after a path (MCP authorization, "Canonical Server
// URI"). nullopt when it is none.
std::optional<std::string> canonical_resource_uri(std::string_view uri);

// An authorization server's issuer identifier as RFC 8414 wants it: https, no query or fragment.
// http is accepted for loopback hosts only (a test's or a sidecar's server). nullopt otherwise.
std::optional<std::string> checked_issuer(std::string_view uri);

// The resource URI of a server listening on `host`:`port` with no --oauth-resource: the MCP
// endpoint's URL. nullopt for a wildcard address (0.0.0.0, ::), which names no server.
std::optional<std::string> resource_uri_for_listener(std::string_view host, unsigned port);

class ResourceMetadata {
 public:
  static constexpr std::string_view well_known = "/.well-known/oauth-protected-resource";

  ResourceMetadata(std::string resource, std::vector<std::string> issuers, std::string scope);

  [[nodiscard]] const std::string& resource() const { return resource_; }
  [[nodiscard]] const std::vector<std::string>& issuers() const { return issuers_; }
  [[nodiscard]] const std::string& scope() const { return scope_; }
  // The document's URL, named in challenges: the well-known path with the resource's path after
  // it (RFC 9728 section 3.1).
  [[nodiscard]] const std::string& url() const { return url_; }
  // Whether a request for `path` gets the document: the well-known path, bare or followed by the
  // resource's path.
  [[nodiscard]] bool serves(std::string_view path) const;
  // The JSON document.
  [[nodiscard]] std::string document() const;

 private:
  std::string resource_;
  std::vector<std::string> issuers_;
  std::string scope_;
  std::string resource_path_;  // "/mcp", or empty for a resource at the root
  std::string url_;
};

}  // namespace mcpread::server::auth
