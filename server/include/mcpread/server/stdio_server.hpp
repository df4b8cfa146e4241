#pragma once
// MCP over stdio: newline-delimited JSON-RPC on stdin/stdout, driven by one Asio io_context.
// stdout carries only whole MCP messages, written one at a time from a queue; tool calls run on a
// worker pool; EOF lets in-flight calls finish and exits, SIGINT/SIGTERM cancel them and exit.
#include "mcpread/server/config.hpp"
#include "mcpread/server/handlers.hpp"

#include "mcpread/protocol/server_handler.hpp"
#include "mcpread/readers/access.hpp"

#include <functional>
#include <memory>

namespace boost::asio {
class thread_pool;
}

namespace mcpread::server {

namespace stdio {
class Service;
}

class StdioServer {
 public:
  // Serves mcp-read's own handlers (ReadHandlers) within `roots`.
  StdioServer(Config config, readers::Roots roots, bool roots_default);
  // Serves the session handler `make_handlers` builds (once, with the config and worker pool), as
  // HttpServer does.
  using MakeHandlers =
      std::function<std::shared_ptr<HandlerFactory>(const Config& config, boost::asio::thread_pool& pool)>;
  StdioServer(Config config, protocol::ServerInfo info, const MakeHandlers& make_handlers);
  ~StdioServer();
  StdioServer(const StdioServer&) = delete;
  StdioServer& operator=(const StdioServer&) = delete;

  // Serves until EOF on stdin or a signal; returns the process exit code.
  int run();

 private:
  std::unique_ptr<stdio::Service> service_;
};

}  // namespace mcpread::server
