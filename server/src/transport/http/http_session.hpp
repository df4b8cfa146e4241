#pragma once
// One initialize-based MCP session over HTTP: the protocol session, the roots its client narrows,
// and the stream the server's own messages (roots/list requests, log messages) go out on — the
// GET stream of Streamable HTTP, or the event stream of the HTTP+SSE transport, which carries
// every message. Messages sent while no stream is open wait (boundedly) for one.
#include "mcpread/server/handlers.hpp"
#include "response_sink.hpp"

#include "mcpread/protocol/session.hpp"

#include <chrono>
#include <deque>
#include <memory>
#include <mutex>
#include <string>

namespace mcpread::server::http {

class HttpSession {
 public:
  // `caller`: who opens it (handlers.session_handler makes its handler for them).
  HttpSession(std::string id, HandlerFactory& handlers, protocol::ServerInfo info,
              protocol::ClientRoots stateless_roots, const protocol::Caller& caller = {});
  ~HttpSession();
  HttpSession(const HttpSession&) = delete;
  HttpSession& operator=(const HttpSession&) = delete;

  [[nodiscard]] const std::string& id() const { return id_; }
  protocol::Session& protocol() { return session_; }

  // Makes `sink` (an open event stream) the session's stream and sends what waited for one.
  // False when a stream is already open (one stream per session: no message goes on two).
  bool attach_stream(std::shared_ptr<ResponseSink> sink);
  void detach_stream(const ResponseSink* sink);
  [[nodiscard]] bool has_stream() const;
  // Sends one message on the stream (or keeps it until one opens). Any thread.
  void send(std::string message);

  void touch();
  // Unused (no stream open, nothing in flight) since before `deadline`.
  [[nodiscard]] bool idle_since_before(std::chrono::steady_clock::time_point deadline) const;

  // Cancels calls in flight and ends the stream. The session answers nothing more.
  void end();

 private:
  std::string id_;
  std::string logger_;
  std::unique_ptr<protocol::ServerHandler> handler_;  // before session_, which refers to it
  protocol::Session session_;

  mutable std::mutex mutex_;
  std::shared_ptr<ResponseSink> stream_;
  std::deque<std::string> waiting_;  // for a stream to open
  std::chrono::steady_clock::time_point last_used_;
  bool ended_ = false;
};

}  // namespace mcpread::server::http
