#include "resource_metadata.hpp"

#include "mcpread/common/ascii.hpp"

#include <boost/asio/ip/address.hpp>
#include <nlohmann/json.hpp>

namespace mcpread::server::auth {

namespace {

struct UriParts {
  std::string scheme;     // lowercased
  std::string authority;  // host[:port], the host lowercased
  std::string host;       // without brackets or port
  std::string rest;       // path and query
};

std::optional<UriParts> split(std::string_view uri) {
  const auto colon = uri.find("://");
  if (colon == std::string_view::npos || uri.find('#') != std::string_view::npos) return std::nullopt;
  for (const char c : uri)
    if (static_cast<unsigned char>(c) <= ' ' || static_cast<unsigned char>(c) >= 0x7f || c == '"' || c == '\\')
      return std::nullopt;  // also keeps the URI safe inside a quoted header parameter
  UriParts parts;
  parts.scheme = common::ascii_lower(uri.substr(0, colon));
  if (parts.scheme != "https" && parts.scheme != "http") return std::nullopt;
  const std::string_view after = uri.substr(colon + 3);
  const auto slash = after.find_first_of("/?");
  const std::string_view authority = after.substr(0, slash);
  if (authority.empty() || authority.find('@') != std::string_view::npos) return std::nullopt;
  parts.authority = common::ascii_lower(authority);
  parts.rest = slash == std::string_view::npos ? std::string() : std::string(after.substr(slash));
  std::string_view host = parts.authority;
  if (!host.empty() && host.front() == '[') {
    const auto close = host.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    host = host.substr(1, close - 1);
  } else if (const auto port = host.find(':'); port != std::string_view::npos) {
    host = host.substr(0, port);
  }
  if (host.empty()) return std::nullopt;
  parts.host = host;
  return parts;
}

// A name ("localhost") or an address that is loopback; "127.evil.example" is neither.
bool loopback(std::string_view host) {
  if (host == "localhost") return true;
  boost::system::error_code ec;
  const auto address = boost::asio::ip::make_address(std::string(host), ec);
  return !ec && address.is_loopback();
}

}  // namespace

std::optional<std::string> canonical_resource_uri(std::string_view uri) {
  auto parts = split(uri);
  if (!parts) return std::nullopt;
  std::string rest = parts->rest;
  if (rest.find('?') == std::string::npos)
    while (!rest.empty() && rest.back() == '/') rest.pop_back();
  return parts->scheme + "://" + parts->authority + rest;
}

std::optional<std::string> checked_issuer(std::string_view uri) {
  auto parts = split(uri);
  if (!parts || parts->rest.find('?') != std::string::npos) return std::nullopt;
  if (parts->scheme == "http" && !loopback(parts->host)) return std::nullopt;
  // Kept as given: the `iss` of tokens and the metadata's `issuer` are compared with it byte for byte.
  return std::string(uri);
}

std::optional<std::string> resource_uri_for_listener(std::string_view host, unsigned port) {
  if (host == "0.0.0.0" || host == "::" || host == "[::]" || host.empty()) return std::nullopt;
  const bool v6 = host.find(':') != std::string_view::npos && host.front() != '[';
  return canonical_resource_uri("http://" + (v6 ? "[" + std::string(host) + "]" : std::string(host)) + ":" +
                                std::to_string(port) + "/mcp");
}

ResourceMetadata::ResourceMetadata(std::string resource, std::vector<std::string> issuers, std::string scope)
    : resource_(std::move(resource)), issuers_(std::move(issuers)), scope_(std::move(scope)) {
  const auto parts = split(resource_);
  std::string origin = resource_;
  if (parts) {
    origin = parts->scheme + "://" + parts->authority;
    resource_path_ = parts->rest.substr(0, parts->rest.find('?'));
  }
  url_ = origin + std::string(well_known) + resource_path_;
}

bool ResourceMetadata::serves(std::string_view path) const {
  if (path == well_known) return true;
  return !resource_path_.empty() && path.size() == well_known.size() + resource_path_.size() &&
         path.substr(0, well_known.size()) == well_known && path.substr(well_known.size()) == resource_path_;
}

std::string ResourceMetadata::document() const {
  return nlohmann::json{{"resource", resource_},
                        {"authorization_servers", issuers_},
                        {"scopes_supported", {scope_}},
                        {"bearer_methods_supported", {"header"}}}
      .dump();
}

}  // namespace mcpread::server::auth
