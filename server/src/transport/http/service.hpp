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
#include <boost/asio/strand.hpp>
#include <boost/asio/thread_pool.hpp>

#include <atomic>
#include <chrono>
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
  // A first signal drains (see --drain-seconds), a second stops at once.
  void on_signal(int signal);
  void drain(const char* why);
  void wait_for_work(std::chrono::steady_clock::time_point deadline);
  void shutdown();
  void sweep_sessions();
  // The OAuth authorizer once the port is known (the default resource URI names it); null, with
  // the reason logged, when it cannot be made.
  std::shared_ptr<const auth::Authorizer> make_authorizer(unsigned short port) const;
  // --oauth-roots: the policy loaded (false, the reason logged, when it is unusable), and
  // reloaded on each SIGHUP.
  bool load_identity_roots();
  void await_reload();
  void wait_for_connections();

  HttpMetrics metrics_;  // first: the tool host reports to it from the start (Config::counters)
  Config config_;
  boost::asio::io_context io_;
  // The signal, timers and shutdown steps run here: two threads run io_.
  boost::asio::strand<boost::asio::io_context::executor_type> control_{io_.get_executor()};
  boost::asio::signal_set signals_;
  boost::asio::signal_set reload_signals_;  // SIGHUP, with --oauth-roots only
  std::shared_ptr<auth::IdentityRoots> identity_roots_;
  boost::asio::steady_timer sweep_timer_;
  boost::asio::steady_timer shutdown_timer_;
  boost::asio::steady_timer poll_timer_;
  boost::asio::steady_timer drain_timer_;
  boost::asio::thread_pool pool_;
  std::shared_ptr<HandlerFactory> handlers_;  // after pool_, which they may post work to
  SessionRegistry sessions_;
  McpEndpoint mcp_;
  SseEndpoint sse_;
  std::atomic<bool> draining_{false};  // /readyz and new requests answer 503 once set
  bool stopping_ = false;              // on the io thread that handles signals
  OpsEndpoint ops_;
  Router router_;
  std::shared_ptr<Listener> listener_;
};

}  // namespace mcpread::server::http
