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

// The capabilities this server advertises (initialize, server/discover).
json server_capabilities(const ServerHandler& handler);

}  // namespace mcpread::protocol
