#pragma once
// What HttpServer (mcpread/server/http_server.hpp) runs: the listener, the endpoints and the
// sessions on one io_context, the worker pool, and the shutdown sequence.
#include "mcpread/server/config.hpp"
#include "mcpread/server/handlers.hpp"
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

class Service {
 public:
  using MakeHandlers =
      std::function<std::shared_ptr<HandlerFactory>(const Config& config, boost::asio::thread_pool& pool)>;
  Service(Config config, protocol::ServerInfo info, const MakeHandlers& make_handlers);
  ~Service();
  Service(const Service&) = delete;
  Service& operator=(const Service&) = delete;

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
