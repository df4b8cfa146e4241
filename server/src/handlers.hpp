#pragma once
// What serves the requests of each session and of the stateless ones. The transports take a
// HandlerFactory, so the same transport code can serve other handlers (tests, the conformance
// fixture); ReadHandlers is mcp-read's own: the read tools and the file resources.
#include "config.hpp"
#include "roots_state.hpp"
#include "tool_host.hpp"

#include "mcpread/protocol/server_handler.hpp"

#include <boost/asio/thread_pool.hpp>

#include <functional>
#include <memory>
#include <string>

namespace mcpread::server {

class HandlerFactory {
 public:
  using ClientLog = std::function<void(protocol::LogLevel, const std::string&)>;
  virtual ~HandlerFactory() = default;
  // The handler of one new session; `client_log` sends notifications/message to its client.
  virtual std::unique_ptr<protocol::ServerHandler> session_handler(ClientLog client_log) = 0;
  // The handler every stateless (2026-07-28) request shares.
  virtual protocol::ServerHandler& stateless_handler() = 0;
};

class ReadHandlers : public HandlerFactory {
 public:
  ReadHandlers(const Config& config, readers::Roots roots, bool roots_default, boost::asio::thread_pool& pool);
  std::unique_ptr<protocol::ServerHandler> session_handler(ClientLog client_log) override;
  protocol::ServerHandler& stateless_handler() override { return stateless_host_; }

 private:
  const Config& config_;
  readers::Roots roots_;
  bool roots_default_;
  boost::asio::thread_pool& pool_;
  // Stateless requests read within the command line's roots (no session, so no client roots).
  RootsState stateless_roots_;
  ToolHost stateless_host_;
};

}  // namespace mcpread::server
