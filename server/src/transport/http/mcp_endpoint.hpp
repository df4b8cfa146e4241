#pragma once
// The Streamable HTTP endpoint (/mcp), dual-era: requests carrying 2026-07-28 `_meta` are served
// statelessly; initialize opens a session (Mcp-Session-Id) served as protocol 2025-03-26 …
// 2025-11-25 describe: POST for messages, GET for the server's own stream, DELETE to end.
#include "mcpread/server/config.hpp"
#include "mcpread/server/handlers.hpp"
#include "response_sink.hpp"
#include "session_registry.hpp"

#include "mcpread/protocol/stateless.hpp"

#include <boost/asio/thread_pool.hpp>

#include <memory>

namespace mcpread::server::http {

class McpEndpoint {
 public:
  McpEndpoint(const Config& config, SessionRegistry& sessions, protocol::ServerInfo info,
              std::shared_ptr<HandlerFactory> handlers);

  // `caller`: who asks (the OAuth identity; empty without OAuth): a session is its creator's
  // owner's, and reads within its scope; so is a stateless request and the task it becomes.
  void handle(Request request, std::shared_ptr<ResponseSink> sink, const protocol::Caller& caller = {});
  // Shutdown: cancels the tasks still running (no connection of theirs closes to stop them).
  void cancel_tasks() { stateless_.cancel_tasks(); }
  // The server is stopping: subscriptions/listen streams end with their closing result (they
  // would otherwise hold their connections open until the shutdown deadline).
  void shutdown() { stateless_.close_subscriptions(); }

 private:
  void post(const Request& request, const std::shared_ptr<ResponseSink>& sink, const protocol::Caller& caller);
  void open_stream(const Request& request, const std::shared_ptr<ResponseSink>& sink, const std::string& owner);
  void end_session(const Request& request, const std::shared_ptr<ResponseSink>& sink, const std::string& owner);
  void serve_stateless(const protocol::Message& m, const Request& request,
                       const std::shared_ptr<ResponseSink>& sink, const protocol::Caller& caller);
  void initialize(const nlohmann::json& body, const std::shared_ptr<ResponseSink>& sink,
                  const protocol::Caller& caller);
  // The session a request names, or the refusal already sent.
  // The request's session, or nullptr after answering (with `request_id`, when known) why not.
  std::shared_ptr<HttpSession> session_of(const Request& request, const std::shared_ptr<ResponseSink>& sink,
                                          const nlohmann::json& request_id, const std::string& owner);

  const Config& config_;
  SessionRegistry& sessions_;
  protocol::ServerInfo info_;
  std::shared_ptr<HandlerFactory> handlers_;
  protocol::StatelessDispatcher stateless_;
};

}  // namespace mcpread::server::http
