#pragma once
// The server's side of the protocol: the tools it offers and where their work runs. Tool calls
// are posted to a worker pool so that the transport keeps answering (ping, cancellations) while
// a slow read runs.
#include "cli.hpp"
#include "roots_state.hpp"

#include "mcpread/protocol/session.hpp"

#include <boost/asio/thread_pool.hpp>

#include <functional>
#include <string>
#include <vector>

namespace mcpread::server {

class ToolHost : public protocol::ServerHandler {
 public:
  using ClientLog = std::function<void(protocol::LogLevel, const std::string&)>;

  ToolHost(const Config& config, RootsState& roots, boost::asio::thread_pool& pool);

  // Where messages for the client's log go (the session's notifications/message).
  void set_client_log(ClientLog log) { client_log_ = std::move(log); }

  [[nodiscard]] const std::vector<protocol::ToolDefinition>& tools() const override { return tools_; }
  void call_tool(protocol::ToolCall call, std::function<void(nlohmann::json)> done) override;
  void roots_requested() override;
  void roots_received(const std::vector<std::string>& uris) override;
  void roots_failed(const std::string& why) override;

  // Runs one call synchronously (what the worker does); public for tests.
  nlohmann::json run_call(const protocol::ToolCall& call) const;

 private:
  const Config& config_;
  RootsState& roots_;
  boost::asio::thread_pool& pool_;
  std::vector<protocol::ToolDefinition> tools_;
  ClientLog client_log_;
};

}  // namespace mcpread::server
