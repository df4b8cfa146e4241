#pragma once
// One MCP session: lifecycle, version negotiation, dispatch of requests to the server's handler,
// cancellation, logging notifications, resource subscriptions and the server's own requests
// (roots/list; sampling/createMessage and elicitation/create on a tool call's behalf).
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
#include <set>
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

  // Sends notifications/resources/updated when the client subscribed to `uri`.
  void resource_updated(const std::string& uri);
  [[nodiscard]] bool subscribed(const std::string& uri) const;

  // Cancels every call in flight (their responses are dropped) and every task still running, and
  // completes every request the server awaits an answer to with ClientRequestError::Kind::cancelled;
  // subscriptions/listen streams end with their closing result. Used at shutdown.
  void cancel_all();
  // Ends the subscriptions/listen streams with their closing result (the client's input ended).
  void close_subscriptions();
  [[nodiscard]] std::size_t in_flight() const;
  // Requests sent to the client (on a call's behalf) whose answer is still awaited.
  [[nodiscard]] std::size_t awaiting_client() const;
  [[nodiscard]] std::string negotiated_version() const;
  [[nodiscard]] bool initialized() const;

 private:
  struct Batch;
  using Respond = std::function<void(std::optional<json>)>;  // nullopt: nothing to answer

  bool handle_batch(const json& array, Reply reply);  // true when a reply is due
  // Handles one message; calls `respond` exactly once (with nullopt when there is no response).
  void handle_request(const Message& m, bool in_batch, const Reply& reply, Respond respond);
  void handle_notification(const Message& m);
  void handle_response(const Message& m);
  void answer_roots(const Message& m);  // the client's answer to our roots/list

  json error_json(const MessageError& e) const;
  json on_initialize(const Message& m, bool in_batch, std::optional<MessageError>* error);
  std::optional<MessageError> on_set_level(const Message& m);
  json on_tools_list(const Message& m, std::optional<MessageError>* error);
  void on_tools_call(const Message& m, const Reply& reply, Respond respond);
  void on_resource_request(const Message& m, Respond respond);  // resources/list and /read
  void on_prompt_request(const Message& m, Respond respond);    // prompts/get, completion/complete
  std::optional<MessageError> on_subscription(const Message& m);  // resources/(un)subscribe
  // A tool call's ClientRequester: requests go out on `reply` under ids of their own; answers
  // come back through handle_response.
  ClientRequester client_requester(Reply reply, std::shared_ptr<std::atomic<bool>> call);
  void send_client_request(const std::string& method, json params, const Reply& reply,
                           std::shared_ptr<std::atomic<bool>> call, std::function<void(ClientResponse)> done);
  // Completes (cancelled) the awaited requests made for `call`, or all of them when it is null.
  void abandon_client_requests(const std::shared_ptr<std::atomic<bool>>& call, const std::string& why);
  void serve_stateless(const Message& m, const Reply& reply);
  // Registers a request in flight under its id key; false when the key is taken.
  bool track(const std::string& key, const std::shared_ptr<std::atomic<bool>>& cancelled);
  // track() under the request's id, answering it -32600 and returning null when the id is taken.
  std::shared_ptr<std::atomic<bool>> track_request(const Message& m, const Respond& respond);
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
  ClientInfo client_info_;
  std::optional<LogLevel> log_threshold_;
  std::atomic<bool> null_error_ids_{false};  // versions before 2025-11-25 answer "id": null
  std::map<std::string, std::shared_ptr<std::atomic<bool>>> in_flight_;  // id_key -> cancelled
  // The server's requests awaiting an answer. roots/list has no `done` (the handler's roots
  // hooks take its answer); the others belong to the tool call whose flag is `call`.
  struct Outgoing {
    std::string method;
    std::function<void(ClientResponse)> done;
    std::shared_ptr<std::atomic<bool>> call;
  };
  std::map<std::string, Outgoing> outgoing_;  // id_key -> request
  std::set<std::string> subscriptions_;       // resource URIs
  unsigned long next_outgoing_id_ = 1;
};

}  // namespace mcpread::protocol
