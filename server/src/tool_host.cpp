#include "tool_host.hpp"

#include "read_tool.hpp"

#include "mcpread/readers/read.hpp"

#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>

#include <chrono>
#include <exception>

namespace mcpread::server {

using nlohmann::json;

ToolHost::ToolHost(const Config& config, RootsState& roots, boost::asio::thread_pool& pool)
    : config_(config), roots_(roots), pool_(pool), tools_(read_tool_definitions(config)) {}

void ToolHost::call_tool(protocol::ToolCall call, std::function<void(json)> done) {
  boost::asio::post(pool_, [this, call = std::move(call), done = std::move(done)]() {
    json result;
    try {
      result = run_call(call);
    } catch (const std::exception& e) {
      spdlog::error("tools/call {} failed: {}", call.name, e.what());
      result = {{"content", json::array({{{"type", "text"},
                                           {"text", std::string("Internal error while reading: ") + e.what()}}})},
                {"isError", true}};
    }
    done(std::move(result));
  });
}

json ToolHost::run_call(const protocol::ToolCall& call) const {
  const auto features = protocol::features_of(call.protocol_version);
  auto parsed = parse_read_arguments(call.arguments);
  if (auto* problem = std::get_if<std::string>(&parsed))
    return to_call_tool_result(readers::ReadOutcome::error(*problem), features, config_.structured_content);
  auto& request = std::get<readers::ReadRequest>(parsed);
  request.progress = call.progress;  // notifications/progress when the client asked for them

  const auto roots = roots_.current(std::chrono::milliseconds(config_.roots_wait_ms), call.cancelled.get());
  if (!roots) return to_call_tool_result(readers::ReadOutcome::stopped(), features, false);
  readers::CancelToken cancel = readers::CancelToken::wrap(call.cancelled);
  const auto started = std::chrono::steady_clock::now();
  readers::ReadOutcome outcome = readers::read_file(*roots, request, config_.limits, cancel);
  const auto micros = std::chrono::duration_cast<std::chrono::microseconds>(
                          std::chrono::steady_clock::now() - started).count();
  spdlog::debug("{} {} -> {} in {} us", call.name, request.file_path,
                outcome.cancelled ? "cancelled" : outcome.is_error ? "error" : "ok", micros);
  return to_call_tool_result(std::move(outcome), features, config_.structured_content);
}

void ToolHost::roots_requested() { roots_.request_started(); }

void ToolHost::roots_received(const std::vector<std::string>& uris) {
  const std::string outcome = roots_.apply_client_roots(uris);
  spdlog::info("client roots: {}", outcome);
  if (client_log_) client_log_(protocol::LogLevel::info, "Client roots applied: " + outcome);
}

void ToolHost::roots_failed(const std::string& why) {
  roots_.request_failed();
  spdlog::warn("roots/list failed ({}); keeping the current roots", why);
  if (client_log_)
    client_log_(protocol::LogLevel::warning, "roots/list failed (" + why + "); keeping the current roots");
}

}  // namespace mcpread::server
