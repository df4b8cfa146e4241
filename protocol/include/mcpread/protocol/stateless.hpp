#pragma once
// Stateless requests (protocol 2026-07-28 on): each request carries its protocol version, the
// client's capabilities and its log level in `_meta`; there is no initialize and no session.
// Results say `resultType`, name the server in `_meta`, and lists carry caching hints. A
// dual-era server serves these beside initialize-based sessions.
#include "mcpread/protocol/server_handler.hpp"

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mcpread::protocol {

class InputRound;
class SubscriptionHub;

namespace meta_key {
inline constexpr const char* protocol_version = "io.modelcontextprotocol/protocolVersion";
inline constexpr const char* client_capabilities = "io.modelcontextprotocol/clientCapabilities";
inline constexpr const char* client_info = "io.modelcontextprotocol/clientInfo";
inline constexpr const char* log_level = "io.modelcontextprotocol/logLevel";
inline constexpr const char* server_info = "io.modelcontextprotocol/serverInfo";
}  // namespace meta_key

// Whether a request declares a protocol version in its _meta (the mark of a stateless request).
[[nodiscard]] bool declares_version(const Message& m);

// Whether stateless requests that read files (tools/call, resources/list, resources/read) are
// confined to the client's roots too. A stateless server cannot ask the client in the middle of a
// request, so it answers `input_required` with a roots/list input request, and the client sends
// the request again with the answer in `inputResponses` (multi round-trip requests).
enum class ClientRoots {
  ignore,   // the server's roots only (no extra round trip)
  ask,      // ask clients that declare the roots capability
  require,  // ask every client; one without the roots capability gets -32021
};

class TaskStore;

class StatelessDispatcher {
 public:
  // `task_id_prefix` starts every task id (see TaskStore): a replica's routing key behind a load
  // balancer, empty otherwise.
  StatelessDispatcher(ServerInfo info, ServerHandler& handler, ClientRoots client_roots = ClientRoots::ignore,
                      std::string task_id_prefix = {});
  ~StatelessDispatcher();  // cancels the tasks still running
  StatelessDispatcher(const StatelessDispatcher&) = delete;
  StatelessDispatcher& operator=(const StatelessDispatcher&) = delete;

  // The error that refuses `m` before it runs: an unsupported or malformed version (-32022,
  // listing the supported ones), incomplete _meta (-32602), a method this era lacks (-32601), a
  // client without the roots capability when they are required, or without a capability the
  // called tool requires (-32021, data.requiredCapabilities naming what is missing).
  [[nodiscard]] std::optional<MessageError> check(const Message& m) const;

  // Serves a request check() accepted: notifications through reply(..., false), then exactly one
  // reply(response, true); the response is empty when `cancelled` was set before it was ready.
  // `caller`: who sent it; a task is visible to and cancellable by its creator's owner only, and
  // the caller's scope goes with tool calls and resource requests to the handler.
  void serve(const Message& m, const Reply& reply, std::shared_ptr<std::atomic<bool>> cancelled,
             const Caller& caller = {});

  [[nodiscard]] json discover_result() const;

  // Shutdown: every task still running is cancelled (its call told to stop), so that the workers
  // are free to be joined.
  void cancel_tasks();
  // subscriptions/listen: ends every open stream with its closing result (server shutdown; a
  // listen that comes later is closed at once), or only the streams the client cancelled.
  void close_subscriptions();
  void drop_cancelled_subscriptions();

 private:
  [[nodiscard]] json complete(json result) const;  // adds resultType and serverInfo
  // -32021 when the tools/call names a tool whose required_capabilities `declared` lacks.
  [[nodiscard]] std::optional<MessageError> tool_capabilities_error(const Message& m, const json& declared) const;
  // For a request that reads files: the client's roots from the round's answers (set in `roots`),
  // or the response that ends the request now (input_required, or a malformed answer).
  std::optional<json> client_roots_of(const Message& m, InputRound* round,
                                      std::optional<std::vector<std::string>>* roots) const;
  // The response of a request whose round is over: -32602 for an unusable answer, input_required
  // while requests are pending, else `result` completed.
  [[nodiscard]] json round_response(const json& id, const InputRound& round, json result) const;
  void call_tool(const Message& m, const Reply& reply, std::shared_ptr<std::atomic<bool>> cancelled,
                 std::optional<std::vector<std::string>> roots, std::shared_ptr<InputRound> round,
                 const Caller& caller);
  void resource_request(const Message& m, const Reply& reply, std::shared_ptr<std::atomic<bool>> cancelled,
                        std::optional<std::vector<std::string>> roots, const Caller& caller);  // resources/list, /read
  void listen(const Message& m, const Reply& reply, std::shared_ptr<std::atomic<bool>> cancelled);

  ServerInfo info_;
  ServerHandler& handler_;
  ClientRoots client_roots_;
  // The tasks of the tools/call requests that became tasks (tasks extension).
  std::shared_ptr<TaskStore> tasks_;
  std::shared_ptr<SubscriptionHub> subscriptions_;  // the handler reports list changes to it
};

}  // namespace mcpread::protocol
