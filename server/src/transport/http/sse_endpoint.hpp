#pragma once
// The HTTP+SSE transport of protocol 2024-11-05, kept for the clients that still speak it:
// GET /sse opens a session's event stream, whose first event names the URL to POST messages to;
// every answer and every message of the server goes out on that stream as `event: message`.
#include "mcpread/server/config.hpp"
#include "mcpread/server/handlers.hpp"
#include "response_sink.hpp"
#include "session_registry.hpp"

#include <boost/asio/thread_pool.hpp>

namespace mcpread::server::http {

class SseEndpoint {
 public:
  static constexpr std::string_view stream_path = "/sse";
  static constexpr std::string_view message_path = "/messages";

  SseEndpoint(const Config& config, SessionRegistry& sessions, protocol::ServerInfo info,
              std::shared_ptr<HandlerFactory> handlers);

  // `caller`: who asks (the OAuth identity; empty without OAuth): a session is its creator's
  // owner's (`owner` of post), and reads within its scope.
  void open(const Request& request, const std::shared_ptr<ResponseSink>& sink, const protocol::Caller& caller = {});
  void post(const Request& request, const std::shared_ptr<ResponseSink>& sink, const std::string& owner = {});

 private:
  const Config& config_;
  SessionRegistry& sessions_;
  protocol::ServerInfo info_;
  std::shared_ptr<HandlerFactory> handlers_;
};

}  // namespace mcpread::server::http
