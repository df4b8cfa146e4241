#pragma once
// A ServerHandler whose tool calls wait until the test finishes them: deterministic ordering for
// the protocol tests.
#include "mcpread/protocol/server_handler.hpp"

#include <deque>
#include <functional>
#include <string>
#include <vector>

namespace mcpread::protocol {

class FakeHandler : public ServerHandler {
 public:
  FakeHandler() { tools_.push_back({"echo", "Echo", "Echoes", json{{"type", "object"}}, std::nullopt, json::object()}); }
  const std::vector<ToolDefinition>& tools() const override { return tools_; }
  void call_tool(ToolCall call, std::function<void(json)> done) override {
    calls.push_back(std::move(call));
    pending.push_back(std::move(done));
  }
  void roots_requested() override { ++roots_requests; }
  void roots_received(const std::vector<std::string>& uris) override { received = uris; }
  void roots_failed(const std::string& why) override { failure = why; }
  // Completes the oldest pending call.
  void finish(json result = json{{"content", json::array()}}) {
    auto done = std::move(pending.front());
    pending.pop_front();
    done(std::move(result));
  }
  std::vector<ToolDefinition> tools_;
  std::deque<ToolCall> calls;
  std::deque<std::function<void(json)>> pending;
  int roots_requests = 0;
  std::vector<std::string> received;
  std::string failure;
};

}  // namespace mcpread::protocol
