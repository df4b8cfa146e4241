#pragma once
// What serves the requests of each session and of the stateless ones. The transports take a
// HandlerFactory, so the same transport code can serve other handlers (tests, the conformance
// fixture); ReadHandlers (app/read_handlers.hpp) is mcp-read's own.
#include "mcpread/protocol/server_handler.hpp"

#include <functional>
#include <memory>
#include <string>

namespace mcpread::server {

class HandlerFactory {
 public:
  using ClientLog = std::function<void(protocol::LogLevel, const std::string&)>;
  virtual ~HandlerFactory() = default;
  // The handler of one new session; `client_log` sends notifications/message to its client.
  // `caller`: who opened it (with OAuth; empty otherwise): its scope is the session's for good.
  virtual std::unique_ptr<protocol::ServerHandler> session_handler(ClientLog client_log,
                                                                   const protocol::Caller& caller) = 0;
  // The handler every stateless (2026-07-28) request shares.
  virtual protocol::ServerHandler& stateless_handler() = 0;
};

}  // namespace mcpread::server
