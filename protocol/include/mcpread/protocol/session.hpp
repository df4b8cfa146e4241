#pragma once
// One MCP session: lifecycle, version negotiation, dispatch of requests to the server's handler,
// cancellation, logging notifications and the server's own requests (roots/list).
// Pure: it receives serialized messages and hands serialized messages to callbacks; the transport
// decides where they go. Thread-safe: receive() runs on the transport's thread while tool calls
// complete on worker threads.
#include "mcpread/protocol/server_handler.hpp"
#include "mcpread/protocol/stateless.hpp"

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcpread::protocol {

class Session {
 public:
  // `outbound` carries messages the server starts itself (requests, notifications not tied to an
  // exchange). It must be thread-safe.
  Session(ServerInfo info, ServerHandler& handler, std::function<void(std::string)> outbound,
          ClientRoots stateless_roots = ClientRoots::ignore);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // Handles one framed message (a line on stdio). Returns true when `reply` will be called with a
  // final response (now or later), false when nothing will answer it (notifications, responses).
  bool receive(std::string_view text, Reply reply);
  // The same for a message already parsed (a transport that had to look inside it first).
  bool receive_parsed(const json& value, Reply reply);

  // Sends notifications/message when initialized and `level` passes the client's threshold.
  void log(LogLevel level, std::string_view logger, const std::string& message);

  // A serialized error response to a message whose id is unknown (e.g. one too large to read),
  // shaped for the negotiated version.
  [[nodiscard]] std::string unaddressed_error(int code, std::string_view message) const;

  // Cancels every call in flight (their responses are dropped). Used at shutdown.
  void cancel_all();
  [[nodiscard]] std::size_t in_flight() const;
  [[nodiscard]] std::string negotiated_version() const;
  [[nodiscard]] bool initialized() const;

 private:
  struct Batch;
  using Respond = std::function<void(std::optional<json>)>;  // nullopt: nothing to answer

  bool handle_batch(const json& array, Reply reply);  // true when a reply is due
  // Handles one message; calls `respond` exactly once (with nullopt when there is no response).
  void handle_message(const json& value, bool in_batch, const Reply& reply, Respond respond);
  void handle_request(const Message& m, bool in_batch, const Reply& reply, Respond respond);
  void handle_notification(const Message& m);
  void handle_response(const Message& m);

  json error_json(const MessageError& e) const;
  json on_initialize(const Message& m, bool in_batch, std::optional<MessageError>* error);
  std::optional<MessageError> on_set_level(const Message& m);
  json on_tools_list(const Message& m, std::optional<MessageError>* error);
  void on_tools_call(const Message& m, const Reply& reply, Respond respond);
  void on_resource_request(const Message& m, Respond respond);  // resources/list and /read
  void serve_stateless(const Message& m, const Reply& reply);
  // Registers a request in flight under its id key; false when the key is taken.
  bool track(const std::string& key, const std::shared_ptr<std::atomic<bool>>& cancelled);
  // Removes it; true when it is still wanted (neither cancelled nor replaced).
  bool untrack(const std::string& key, const std::shared_ptr<std::atomic<bool>>& cancelled);
  void request_roots();
  bool level_passes(LogLevel level) const;

  ServerInfo info_;
  ServerHandler& handler_;
  std::function<void(std::string)> outbound_;
  StatelessDispatcher stateless_;

  mutable std::mutex mutex_;
  enum class Phase { awaiting_initialize, initializing, ready } phase_ = Phase::awaiting_initialize;
  std::string version_;
  VersionFeatures features_;
  json client_capabilities_ = json::object();
  std::optional<LogLevel> log_threshold_;
  std::atomic<bool> null_error_ids_{false};  // versions before 2025-11-25 answer "id": null
  std::map<std::string, std::shared_ptr<std::atomic<bool>>> in_flight_;  // id_key -> cancelled
  std::map<std::string, std::string> outgoing_;                           // id_key -> method
  unsigned long next_outgoing_id_ = 1;
};

}  // namespace mcpread::protocol
