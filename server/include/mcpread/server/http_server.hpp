#pragma once
// MCP over HTTP: one listener serving Streamable HTTP at /mcp and HTTP+SSE at /sse, on an
// io_context of its own; tool calls run on the worker pool. SIGINT/SIGTERM stop accepting, end
// the sessions (cancelling their calls) and close the streams, then the process exits.
// /healthz, /readyz and /metrics serve the operator.
#include "mcpread/server/config.hpp"
#include "mcpread/server/handlers.hpp"

#include "mcpread/protocol/server_handler.hpp"
#include "mcpread/readers/access.hpp"

#include <functional>
#include <memory>

namespace boost::asio {
class thread_pool;
}

namespace mcpread::server::http {

class Service;

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
  std::unique_ptr<Service> service_;
};

}  // namespace mcpread::server::http
