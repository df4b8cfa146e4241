#pragma once
// A FakeHandler that also offers prompts, completions and resource subscriptions (each switchable),
// and a session harness that records every message: the replies of each exchange (with their
// `final` flag) and what went out on the session's own channel.
#include "fake_handler.hpp"
#include "mcpread/protocol/session.hpp"
#include "mcpread/protocol/stateless.hpp"
#include "schema_validator.hpp"

#include <doctest/doctest.h>

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mcpread::protocol {

class FeatureHandler : public FakeHandler {
 public:
  bool prompts_on = true;
  bool completions_on = true;
  bool subscriptions_on = true;
  std::vector<PromptDefinition> prompt_list = {
      {"plain", "Plain", "No arguments", {}},
      {"greet", "Greet", "Greets someone", {{"who", "Who", "The name", true}, {"tone", "", "", false}}}};
  std::deque<PromptRequest> prompt_requests;
  std::deque<std::function<void(RequestOutcome)>> prompt_pending;
  std::deque<CompletionRequest> completion_requests;
  std::deque<std::function<void(RequestOutcome)>> completion_pending;
  std::vector<std::pair<std::string, bool>> subscription_changes;
  std::optional<ResourceError> refuse_subscription;

  const std::vector<PromptDefinition>& prompts() const override {
    static const std::vector<PromptDefinition> none;
    return prompts_on ? prompt_list : none;
  }
  void get_prompt(PromptRequest request, std::function<void(RequestOutcome)> done) override {
    prompt_requests.push_back(std::move(request));
    prompt_pending.push_back(std::move(done));
  }
  bool offers_completions() const override { return completions_on; }
  void complete(CompletionRequest request, std::function<void(RequestOutcome)> done) override {
    completion_requests.push_back(std::move(request));
    completion_pending.push_back(std::move(done));
  }
  bool offers_subscriptions() const override { return subscriptions_on; }
  std::optional<ResourceError> subscription_changed(const std::string& uri, bool subscribed) override {
    subscription_changes.emplace_back(uri, subscribed);
    return refuse_subscription;
  }
  void finish_prompt(RequestOutcome outcome) {
    auto done = std::move(prompt_pending.front());
    prompt_pending.pop_front();
    done(std::move(outcome));
  }
  void finish_completion(RequestOutcome outcome) {
    auto done = std::move(completion_pending.front());
    completion_pending.pop_front();
    done(std::move(outcome));
  }
};

inline json rpc_request(json id, const std::string& method, json params = json::object()) {
  return json{{"jsonrpc", "2.0"}, {"id", std::move(id)}, {"method", method}, {"params", std::move(params)}};
}

inline json stateless_rpc(json id, const std::string& method, json params = json::object(),
                          json capabilities = json::object()) {
  params["_meta"] = json{{meta_key::protocol_version, "2026-07-28"}, {meta_key::client_capabilities, capabilities}};
  return rpc_request(std::move(id), method, std::move(params));
}

struct FeatureHarness {
  FeatureHarness() { handler.offer_resources(); }
  FeatureHandler handler;
  std::mutex mutex;
  std::vector<std::pair<json, bool>> replies;  // per exchange, in order
  std::vector<json> outbound;                  // the session's own channel
  Session session{ServerInfo{"mcp-read", "Title", "1.0", ""}, handler, [this](std::string m) {
                    std::lock_guard lock(mutex);
                    outbound.push_back(json::parse(m));
                  }};
  std::string version;

  bool send(const json& message) {
    return session.receive(message.dump(), [this](std::string m, bool final) {
      std::lock_guard lock(mutex);
      replies.emplace_back(m.empty() ? json() : json::parse(m), final);
    });
  }
  json last() {
    std::lock_guard lock(mutex);
    return replies.back().first;
  }
  void init(const std::string& v, json capabilities = json::object()) {
    version = v;
    send(rpc_request(0, "initialize", {{"protocolVersion", v}, {"capabilities", std::move(capabilities)}}));
    send({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
    replies.clear();
    outbound.clear();
  }
  // The last reply, after checking it against the schema of `v` (the session's version if empty).
  json checked(const std::string& method, std::string v = {}) {
    const json r = last();
    if (v.empty()) v = version;
    const std::string errors = mcpread::test::server_message_errors(v, r, method);
    CHECK_MESSAGE(errors.empty(), errors << "\n" << r.dump());
    return r;
  }
};

}  // namespace mcpread::protocol
