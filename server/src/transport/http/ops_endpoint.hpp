#pragma once
// The operator's endpoints, off the MCP path: GET /healthz (the process answers), /readyz (it
// accepts work; 503 while it drains) and /metrics (Prometheus text format).
#include "metrics.hpp"
#include "response_sink.hpp"
#include "session_registry.hpp"

#include <atomic>
#include <memory>
#include <string_view>

namespace mcpread::server::http {

class OpsEndpoint {
 public:
  OpsEndpoint(HttpMetrics& metrics, SessionRegistry& sessions, const std::atomic<bool>& draining)
      : metrics_(metrics), sessions_(sessions), draining_(draining) {}

  static bool serves(std::string_view path) {
    return path == "/healthz" || path == "/readyz" || path == "/metrics";
  }
  void handle(const Request& request, const std::shared_ptr<ResponseSink>& sink) const;

 private:
  HttpMetrics& metrics_;
  SessionRegistry& sessions_;
  const std::atomic<bool>& draining_;
};

}  // namespace mcpread::server::http
