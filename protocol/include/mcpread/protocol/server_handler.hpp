#pragma once
// What the protocol core asks of the server behind it (its tools, where calls run, what the
// client's roots are), and the callback that carries messages back to the transport.
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
#include <variant>
#include <vector>

namespace mcpread::protocol {

// Where messages go. `final` is true for the response that completes the exchange started by
// received text; false for messages sent while it is in progress (progress, log messages, the
// server's own requests made on the exchange's behalf).
using Reply = std::function<void(std::string message, bool final)>;

// Why a request the server sent the client (sampling/createMessage, elicitation/create) has no
// usable result. The tool sees it; nothing of it goes on the wire.
struct ClientRequestError {
  enum class Kind {
    error_response,  // the client answered with a JSON-RPC error (`code` is the client's)
    malformed,       // the client's result is not what the method returns
    not_supported,   // the client did not declare the capability, or the version lacks the method
    cancelled,       // the call was cancelled or its session ended before the answer came
    input_required,  // stateless request: asked of the client in an input_required result
  };
  Kind kind = Kind::error_response;
  int code = error_code::internal_error;
  std::string message;
};
// The client's result object, or why there is none.
using ClientResponse = std::variant<json, ClientRequestError>;
// Sends a request to the client and calls `done` exactly once with its outcome, from any thread.
using ClientRequester =
    std::function<void(const std::string& method, json params, std::function<void(ClientResponse)> done)>;

// The same, under a key the caller names: in a stateless request the input request's key in
// inputRequests and inputResponses (SEP-2322); sessions have no keys.
using KeyedClientRequester = std::function<void(const std::string& key, const std::string& method, json params,
                                                std::function<void(ClientResponse)> done)>;
// Asks through `request_as` when set (stateless requests), else through `request` (sessions);
// with neither, `done` gets Kind::not_supported.
void ask_keyed(const KeyedClientRequester& request_as, const ClientRequester& request, const std::string& key,
               const std::string& method, json params, std::function<void(ClientResponse)> done);

// Who the client says it is (initialize's clientInfo, or a 2026-07-28 request's
// io.modelcontextprotocol/clientInfo); empty when it did not say.
struct ClientInfo {
  std::string name;
  std::string version;
  static ClientInfo from_json(const json& info);
};

// The server's own knowledge of who sent a request (e.g. what an authenticated identity may
// read): made by the transport, handed untouched to the handler, which knows what it made.
struct CallerScope {
  virtual ~CallerScope() = default;
};

// Who sent a request, as the transport established it. The protocol compares owners only (a task
// is its creator's); `scope` goes to the handler with the request. Empty: an unauthenticated
// transport, where every caller is the same one.
struct Caller {
  std::string owner;
  std::shared_ptr<const CallerScope> scope;
};

// How a request asks its client for input: in a session, requests on its own exchange; in a
// stateless (2026-07-28) request, rounds of input_required results carrying a sealed
// requestState. Tool calls and prompts/get both have them.
struct InputRounds {
  // Asks the client something on this request's behalf (sampling/createMessage, elicitation/create)
  // and waits for its answer without blocking: `done` runs once the answer, an error, the
  // cancellation of this request or the end of the session is in. In a session the request goes
  // out on the request's own exchange (over HTTP the POST's event stream). In a stateless request
  // the first round collects its requests into an input_required result and is answered
  // with ClientRequestError::Kind::input_required; the client's retry brings the answers, which
  // are matched to its requests in the order it makes them.
  ClientRequester request;
  // Multi round-trip requests with named keys (stateless only; see ask_as).
  KeyedClientRequester request_as;
  // Whether this request brought back a verified requestState of ours (a later round).
  bool resumed = false;
  // The tool's (or prompt's) own state from the previous round (null when none), and how it keeps one for the
  // next: sealed into the requestState, so the client can neither read it usefully nor change it.
  json state;
  std::function<void(json)> keep_state;
  // Like `request`, but in a stateless request under `key` (the spec's examples name them, e.g.
  // "user_name"): answers of earlier rounds are kept across rounds, so a tool that asks step by
  // step is handed each answer again on every later round.
  void ask_as(const std::string& key, const std::string& method, json params,
              std::function<void(ClientResponse)> done) const {
    ask_keyed(request_as, request, key, method, std::move(params), std::move(done));
  }
};

struct ToolCall : InputRounds {
  json id;
  ClientInfo client;
  std::string name;
  json arguments = json::object();
  std::string protocol_version;
  std::shared_ptr<std::atomic<bool>> cancelled;
  // Sends notifications/message to the client if `level` passes the client's threshold.
  std::function<void(LogLevel level, const std::string& message)> log;
  // Sends notifications/progress when the request carried _meta.progressToken; otherwise a no-op.
  std::function<void(double progress, std::optional<double> total, const std::string& message)>
      progress;
  // The root URIs the client gave for this one request (a stateless request's answer to our
  // roots/list input request); unset: the session's or the server's roots apply.
  std::optional<std::vector<std::string>> client_roots;
  // Who sent a stateless request (its scope narrows what it may read); unset in sessions, whose
  // handler was made for their caller.
  std::shared_ptr<const CallerScope> caller;
  // Turns the call into a task (2026-07-28, tasks extension): the request is answered at once with
  // the task's id, and the call's `done` completes the task instead. From then on `request` asks
  // through the task (tasks/update brings the answers), `progress` sets its statusMessage, `log`
  // is dropped, and only tasks/cancel or shutdown set `cancelled`. False when the call must stay
  // in its request: the client did not declare the extension, the tool's task_support is
  // forbidden, input requests of this round are pending, or too many tasks are stored. Unset
  // outside stateless requests.
  std::function<bool(const std::string& status_message)> start_task;
};

// A resource template the server offers (resources/templates/list); rendered for each version.
struct ResourceTemplate {
  std::string uri_template;  // RFC 6570, e.g. "file:///{+path}"
  std::string name;
  std::string title;         // sent from 2025-06-18 on
  std::string description;
  std::string mime_type;     // empty: the type varies and is left out
};

// A resources/list or resources/read request, its parameters checked.
struct ResourceRequest {
  json id;
  std::string uri;     // resources/read
  std::string cursor;  // resources/list: empty for the first page, else a nextCursor we issued
  std::string protocol_version;
  std::shared_ptr<std::atomic<bool>> cancelled;
  std::optional<std::vector<std::string>> client_roots;  // as in ToolCall
  std::shared_ptr<const CallerScope> caller;              // as in ToolCall
};

// Why a resources request has no result; the protocol layer shapes the error for the version.
struct ResourceError {
  enum class Kind {
    not_found,    // -32002 "Resource not found" (-32602 from 2026-07-28), data {uri, reason}
    invalid,      // -32602: the request asks for something this server does not serve
    failed,       // -32603: reading failed (permissions, damaged file, a limit)
    not_offered,  // -32601: the server offers no resources
  };
  Kind kind = Kind::failed;
  std::string message;  // complete, user-facing: what, which file, what to do
};

// A ListResourcesResult or ReadResourceResult object, or the error that replaces it.
using ResourceOutcome = std::variant<json, ResourceError>;

// A prompt the server offers (prompts/list), rendered for each version.
struct PromptArgument {
  std::string name;
  std::string title;  // sent from 2025-06-18 on
  std::string description;
  bool required = false;
};
struct PromptDefinition {
  std::string name;
  std::string title;  // sent from 2025-06-18 on
  std::string description;
  std::vector<PromptArgument> arguments;
};

// A prompts/get request: the prompt is one of prompts(), every required argument is present and
// every argument is a string (checked before the handler sees it).
// Its input rounds (InputRounds) are those of stateless requests; unset in sessions.
struct PromptRequest : InputRounds {
  json id;
  std::string name;
  std::map<std::string, std::string> arguments;
  std::string protocol_version;
  std::shared_ptr<std::atomic<bool>> cancelled;
};

// A completion/complete request, its shape checked: `ref` is {"type": "ref/prompt", "name"} with
// a prompt of prompts(), or {"type": "ref/resource", "uri"}.
struct CompletionRequest {
  json id;
  json ref;
  std::string argument;  // the argument's name
  std::string value;     // what the user typed so far
  std::map<std::string, std::string> context;  // arguments resolved already
  std::string protocol_version;
  std::shared_ptr<std::atomic<bool>> cancelled;
};

// Why a prompts/get or completion/complete request has no result: the JSON-RPC error to send.
struct RequestError {
  int code = error_code::internal_error;
  std::string message;
};
// A GetPromptResult or CompleteResult object, or the error that replaces it.
using RequestOutcome = std::variant<json, RequestError>;
// A CallToolResult object (a tool that ran, isError or not), or the protocol error that replaces
// it: a JSON-RPC error when the call is answered at once, the task's `failed` status when it runs
// as a task.
using ToolOutcome = std::variant<json, RequestError>;

// The lists whose changes a 2026-07-28 client can follow on a subscriptions/listen stream
// (notifications/tools/list_changed, /prompts/list_changed, /resources/list_changed).
enum class ListKind { tools, prompts, resources };
struct ListChanges {
  bool tools = false;
  bool prompts = false;
  bool resources = false;
  [[nodiscard]] bool any() const { return tools || prompts || resources; }
  [[nodiscard]] bool covers(ListKind kind) const {
    return kind == ListKind::tools ? tools : kind == ListKind::prompts ? prompts : resources;
  }
};
// Where a handler reports that one of its lists changed (the protocol core's subscription hub).
class ListChangeSink {
 public:
  virtual ~ListChangeSink() = default;
  virtual void list_changed(ListKind kind) = 0;
};

class ServerHandler {
 public:
  virtual ~ServerHandler() = default;
  // In listing order.
  [[nodiscard]] virtual const std::vector<ToolDefinition>& tools() const = 0;
  // The same tools as listed to one client: the definitions may carry hints for that host
  // (ToolDefinition::meta), never other names or schemas.
  [[nodiscard]] virtual std::vector<ToolDefinition> tools_for(const ClientInfo& client) const {
    (void)client;
    return tools();
  }
  // Starts a call of one of tools(). `done` must be called exactly once with a CallToolResult
  // object or a protocol error, from any thread; it may be called after the call was cancelled
  // (it is then dropped).
  virtual void call_tool(ToolCall call, std::function<void(ToolOutcome outcome)> done) = 0;
  // Resources. A server that offers them returns at least one template (this turns on the
  // `resources` capability and the three methods) and implements the two requests below. Like
  // call_tool, `done` must be called exactly once, from any thread; it may be called after the
  // request was cancelled (it is then dropped).
  [[nodiscard]] virtual const std::vector<ResourceTemplate>& resource_templates() const {
    static const std::vector<ResourceTemplate> none;
    return none;
  }
  virtual void list_resources(ResourceRequest request, std::function<void(ResourceOutcome)> done) {
    (void)request;
    done(ResourceError{ResourceError::Kind::not_offered, "This server offers no resources."});
  }
  virtual void read_resource(ResourceRequest request, std::function<void(ResourceOutcome)> done) {
    (void)request;
    done(ResourceError{ResourceError::Kind::not_offered, "This server offers no resources."});
  }
  // Prompts. A server that offers any returns them here (this turns on the `prompts` capability
  // and prompts/list, prompts/get) and implements get_prompt; `done` as for call_tool.
  [[nodiscard]] virtual const std::vector<PromptDefinition>& prompts() const {
    static const std::vector<PromptDefinition> none;
    return none;
  }
  virtual void get_prompt(PromptRequest request, std::function<void(RequestOutcome)> done) {
    (void)request;
    done(RequestError{error_code::method_not_found, "This server offers no prompts."});
  }
  // Argument completion (the `completions` capability and completion/complete); `done` as for
  // call_tool, with a CompleteResult object (at most 100 values are sent).
  [[nodiscard]] virtual bool offers_completions() const { return false; }
  virtual void complete(CompletionRequest request, std::function<void(RequestOutcome)> done) {
    (void)request;
    done(RequestError{error_code::method_not_found, "This server offers no completions."});
  }
  // Resource subscriptions (resources.subscribe and resources/subscribe, /unsubscribe), for a
  // server that offers resources. The session keeps the subscribed URIs and sends
  // notifications/resources/updated for them (Session::resource_updated); the handler may refuse a
  // URI it does not serve (an error) or just note the change (nullopt).
  [[nodiscard]] virtual bool offers_subscriptions() const { return false; }
  virtual std::optional<ResourceError> subscription_changed(const std::string& uri, bool subscribed) {
    (void)uri;
    (void)subscribed;
    return std::nullopt;
  }
  // A roots/list request went out; reads should wait for its answer (briefly).
  virtual void roots_requested() {}
  // The client's root URIs, from a roots/list answer.
  virtual void roots_received(const std::vector<std::string>& uris) { (void)uris; }
  // The client answered roots/list with an error or a malformed result.
  virtual void roots_failed(const std::string& why) { (void)why; }

  // List changes. A handler whose lists can change while it serves says which here (from
  // 2026-07-28 this declares `listChanged` for them and lets subscriptions/listen follow them),
  // and reports each change with notify_list_changed(). The protocol core registers its sinks
  // with watch_list_changes(); a sink that is gone is forgotten. Any thread.
  [[nodiscard]] virtual ListChanges list_changes() const { return {}; }
  void watch_list_changes(std::weak_ptr<ListChangeSink> sink) {
    std::lock_guard lock(sinks_mutex_);
    std::erase_if(sinks_, [](const std::weak_ptr<ListChangeSink>& s) { return s.expired(); });
    sinks_.push_back(std::move(sink));
  }
  void notify_list_changed(ListKind kind) {
    std::vector<std::shared_ptr<ListChangeSink>> live;
    {
      std::lock_guard lock(sinks_mutex_);
      std::erase_if(sinks_, [](const std::weak_ptr<ListChangeSink>& s) { return s.expired(); });
      for (const auto& sink : sinks_)
        if (auto s = sink.lock()) live.push_back(std::move(s));
    }
    for (const auto& sink : live) sink->list_changed(kind);  // outside the lock: sinks send messages
  }

 private:
  std::mutex sinks_mutex_;
  std::vector<std::weak_ptr<ListChangeSink>> sinks_;
};

struct ServerInfo {
  std::string name;
  std::string title;
  std::string version;
  std::string instructions;
};

// The capabilities this server advertises (initialize, server/discover) in `version`.
json server_capabilities(const ServerHandler& handler, std::string_view version);

}  // namespace mcpread::protocol
