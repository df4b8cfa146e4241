#pragma once
// A ServerHandler whose tool calls and resource requests wait until the test finishes them:
// deterministic ordering for the protocol tests. It offers resources once offer_resources() ran.
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
  void call_tool(ToolCall call, std::function<void(ToolOutcome)> done) override {
    calls.push_back(std::move(call));
    pending.push_back(std::move(done));
  }
  const std::vector<ResourceTemplate>& resource_templates() const override { return templates_; }
  void offer_resources() {
    templates_ = {ResourceTemplate{"file:///{+path}", "file", "File", "A file by path", ""}};
  }
  void list_resources(ResourceRequest request, std::function<void(ResourceOutcome)> done) override {
    resource_methods.push_back("resources/list");
    resource_requests.push_back(std::move(request));
    resource_pending.push_back(std::move(done));
  }
  void read_resource(ResourceRequest request, std::function<void(ResourceOutcome)> done) override {
    resource_methods.push_back("resources/read");
    resource_requests.push_back(std::move(request));
    resource_pending.push_back(std::move(done));
  }
  // Completes the oldest pending resource request.
  void finish_resource(ResourceOutcome outcome) {
    auto done = std::move(resource_pending.front());
    resource_pending.pop_front();
    done(std::move(outcome));
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
  std::vector<ResourceTemplate> templates_;
  std::deque<std::string> resource_methods;
  std::deque<ResourceRequest> resource_requests;
  std::deque<std::function<void(ResourceOutcome)>> resource_pending;
  std::deque<ToolCall> calls;
  std::deque<std::function<void(ToolOutcome)>> pending;
  int roots_requests = 0;
  std::vector<std::string> received;
  std::string failure;
};

}  // namespace mcpread::protocol
