#pragma once
// One MCP session: lifecycle, version negotiation, dispatch of requests to the server's handler,
// cancellation, logging notifications and the server's own requests (roots/list).
// Pure: it receives serialized messages and hands serialized messages to callbacks; the transport
// decides where they go. Thread-safe: receive() runs on the transport's thread while tool calls
// complete on worker threads.
#include "mcpread/protocol/jsonrpc.hpp"
#include "mcpread/protocol/logging.hpp"
#include "mcpread/protocol/tool_catalog.hpp"
#include "mcpread/protocol/versions.hpp"

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

// Where messages go. `final` is true for the response that completes the exchange started by
// received text; false for notifications sent while it is in progress (progress, log messages).
using Reply = std::function<void(std::string message, bool final)>;

struct ToolCall {
  json id;
  std::string name;
  json arguments = json::object();
  std::string protocol_version;
  std::shared_ptr<std::atomic<bool>> cancelled;
  // Sends notifications/message to the client if `level` passes the client's threshold.
  std::function<void(LogLevel level, const std::string& message)> log;
  // Sends notifications/progress when the request carried _meta.progressToken; otherwise a no-op.
  std::function<void(double progress, std::optional<double> total, const std::string& message)>
      progress;
};

class ServerHandler {
 public:
  virtual ~ServerHandler() = default;
  // In listing order.
  [[nodiscard]] virtual const std::vector<ToolDefinition>& tools() const = 0;
  // Starts a call of one of tools(). `done` must be called exactly once with a CallToolResult
  // object, from any thread; it may be called after the call was cancelled (it is then dropped).
  virtual void call_tool(ToolCall call, std::function<void(json result)> done) = 0;
  // A roots/list request went out; reads should wait for its answer (briefly).
  virtual void roots_requested() {}
  // The client's root URIs, from a roots/list answer.
  virtual void roots_received(const std::vector<std::string>& uris) { (void)uris; }
  // The client answered roots/list with an error or a malformed result.
  virtual void roots_failed(const std::string& why) { (void)why; }
};

struct ServerInfo {
  std::string name;
  std::string title;
  std::string version;
  std::string instructions;
};

class Session {
 public:
  // `outbound` carries messages the server starts itself (requests, notifications not tied to an
  // exchange). It must be thread-safe.
  Session(ServerInfo info, ServerHandler& handler, std::function<void(std::string)> outbound);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // Handles one framed message (a line on stdio). Returns true when `reply` will be called with a
  // final response (now or later), false when nothing will answer it (notifications, responses).
  bool receive(std::string_view text, Reply reply);

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
  void request_roots();
  bool level_passes(LogLevel level) const;

  ServerInfo info_;
  ServerHandler& handler_;
  std::function<void(std::string)> outbound_;

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
