#pragma once
// Every HTTP request passes here first: who may ask (Host, Origin, token), CORS for browser
// clients, then the endpoint its path names.
#include "connection.hpp"
#include "mcp_endpoint.hpp"
#include "security.hpp"
#include "sse_endpoint.hpp"

namespace mcpread::server::http {

class Router : public RequestHandler {
 public:
  Router(AccessPolicy policy, McpEndpoint& mcp, SseEndpoint& sse)
      : policy_(std::move(policy)), mcp_(mcp), sse_(sse) {}
  void handle(Request request, std::shared_ptr<ResponseSink> sink) override;

 private:
  AccessPolicy policy_;
  McpEndpoint& mcp_;
  SseEndpoint& sse_;
};

}  // namespace mcpread::server::http
