#pragma once
// What the protocol core asks of the server behind it (its tools, where calls run, what the
// client's roots are), and the callback that carries messages back to the transport.
#include "mcpread/protocol/jsonrpc.hpp"
#include "mcpread/protocol/logging.hpp"
#include "mcpread/protocol/tool_catalog.hpp"
#include "mcpread/protocol/versions.hpp"

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>
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
  // The root URIs the client gave for this one request (a stateless request's answer to our
  // roots/list input request); unset: the session's or the server's roots apply.
  std::optional<std::vector<std::string>> client_roots;
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

class ServerHandler {
 public:
  virtual ~ServerHandler() = default;
  // In listing order.
  [[nodiscard]] virtual const std::vector<ToolDefinition>& tools() const = 0;
  // Starts a call of one of tools(). `done` must be called exactly once with a CallToolResult
  // object, from any thread; it may be called after the call was cancelled (it is then dropped).
  virtual void call_tool(ToolCall call, std::function<void(json result)> done) = 0;
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

// The capabilities this server advertises (initialize, server/discover).
json server_capabilities(const ServerHandler& handler);

}  // namespace mcpread::protocol
