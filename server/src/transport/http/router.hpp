#pragma once
// Every HTTP request passes here first: who may ask (Host, Origin, token or OAuth access token),
// CORS for browser
// clients, then the endpoint its path names. MCP exchanges are counted for /metrics; the
// operator's endpoints (/healthz, /readyz, /metrics) may take their own token.
#include "authorizer.hpp"
#include "connection.hpp"
#include "identity_roots.hpp"
#include "mcp_endpoint.hpp"
#include "metrics.hpp"
#include "ops_endpoint.hpp"
#include "security.hpp"
#include "sse_endpoint.hpp"

#include <atomic>
#include <memory>

namespace mcpread::server::http {

class Router : public RequestHandler {
 public:
  // `ops_token`: the bearer token the operator's endpoints take instead of the policy's (empty:
  // the policy's own).
  // `draining`: once set, new MCP requests and streams are refused (503); what belongs to work
  // already in flight (responses to the server's requests, notifications, DELETE) still passes.
  Router(AccessPolicy policy, std::string ops_token, McpEndpoint& mcp, SseEndpoint& sse,
         const OpsEndpoint& ops, HttpMetrics& metrics, const std::atomic<bool>& draining)
      : policy_(std::move(policy)), ops_policy_(policy_), mcp_(mcp), sse_(sse), ops_(ops), metrics_(metrics),
        draining_(draining) {
    if (!ops_token.empty()) ops_policy_.auth_token = std::move(ops_token);
  }
  void handle(Request request, std::shared_ptr<ResponseSink> sink) override;
  // OAuth mode: MCP requests need an access token the authorizer accepts, and the resource's
  // metadata is served. Set before the listener starts.
  void set_authorizer(std::shared_ptr<const auth::Authorizer> authorizer) { authorizer_ = std::move(authorizer); }
  // With --oauth-roots: each identity reads within the roots the policy gives it.
  void set_identity_roots(std::shared_ptr<const auth::IdentityRoots> roots) { identity_roots_ = std::move(roots); }

 private:
  std::shared_ptr<const auth::Authorizer> authorizer_;
  std::shared_ptr<const auth::IdentityRoots> identity_roots_;
  AccessPolicy policy_;
  AccessPolicy ops_policy_;
  McpEndpoint& mcp_;
  SseEndpoint& sse_;
  const OpsEndpoint& ops_;
  HttpMetrics& metrics_;
  const std::atomic<bool>& draining_;
};

}  // namespace mcpread::server::http
