#pragma once
// MCP over HTTP: one listener serving Streamable HTTP at /mcp and HTTP+SSE at /sse, on an
// io_context of its own; tool calls run on the worker pool. SIGINT/SIGTERM stop accepting, end
// the sessions (cancelling their calls) and close the streams, then the process exits.
// /healthz, /readyz and /metrics serve the operator.
#include "../config.hpp"
#include "listener.hpp"
#include "mcp_endpoint.hpp"
#include "metrics.hpp"
#include "ops_endpoint.hpp"
#include "router.hpp"
#include "session_registry.hpp"
#include "sse_endpoint.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/thread_pool.hpp>

#include <atomic>
#include <functional>
#include <memory>

namespace mcpread::server::http {

class HttpServer {
 public:
  // Serves mcp-read's own handlers (ReadHandlers) within `roots`.
  HttpServer(Config config, readers::Roots roots, bool roots_default);
  // Serves the handlers `make_handlers` builds (once, with the server's config and worker pool).
  using MakeHandlers =
      std::function<std::shared_ptr<HandlerFactory>(const Config& config, boost::asio::thread_pool& pool)>;
  HttpServer(Config config, protocol::ServerInfo info, const MakeHandlers& make_handlers);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Serves until a signal; returns the process exit code.
  int run();

 private:
  void shutdown(const char* why);
  void sweep_sessions();
  void wait_for_connections();

  Config config_;
  boost::asio::io_context io_;
  boost::asio::signal_set signals_;
  boost::asio::steady_timer sweep_timer_;
  boost::asio::steady_timer shutdown_timer_;
  boost::asio::steady_timer poll_timer_;
  boost::asio::thread_pool pool_;
  std::shared_ptr<HandlerFactory> handlers_;  // after pool_, which they may post work to
  SessionRegistry sessions_;
  McpEndpoint mcp_;
  SseEndpoint sse_;
  HttpMetrics metrics_;
  std::atomic<bool> draining_{false};  // /readyz answers 503 once set
  OpsEndpoint ops_;
  Router router_;
  std::shared_ptr<Listener> listener_;
};

}  // namespace mcpread::server::http
