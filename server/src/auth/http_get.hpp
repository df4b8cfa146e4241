#pragma once
// A GET of an authorization server's document (its metadata or its JWKS), or a POST of a form
// (token introspection): bounded in time (10 s) and size (1 MiB), redirects not followed (a
// redirect could lead from https to plain http). The URL is one already accepted: https, or
// http on a loopback address.
#include <optional>
#include <string>
#include <vector>

namespace mcpread::server::auth {

struct HttpGot {
  long status = 0;
  std::string body;
};

// The status and body, or nothing with `why` set when no answer came (the cause: libcurl's text).
std::optional<HttpGot> http_get(const std::string& url, std::string& why);

// A POST of `form` (application/x-www-form-urlencoded) with `headers` ("Name: value") added;
// the same answer. The headers may hold a secret: neither they nor the form are ever logged.
std::optional<HttpGot> http_post(const std::string& url, const std::string& form,
                                 const std::vector<std::string>& headers, std::string& why);

}  // namespace mcpread::server::auth
