#include "mcp_client.hpp"

#include "schema_validator.hpp"

#include <doctest/doctest.h>


namespace mcpread::test {

using nlohmann::json;
using clock_type = std::chrono::steady_clock;

std::filesystem::path binary_path() { return MCPREAD_BINARY; }

namespace {

ChildProcess::Spec stdio_server(McpClient::Options options) {
  std::vector<std::string> argv = std::move(options.prefix);
  argv.push_back(binary_path().string());
  argv.insert(argv.end(), options.args.begin(), options.args.end());
  return ChildProcess::Spec{std::move(argv), std::move(options.extra_env), std::move(options.cwd)};
}

}  // namespace

McpClient::McpClient(Options options) : child_(stdio_server(std::move(options))) {}

McpClient::~McpClient() = default;

void McpClient::send_raw(const std::string& bytes) { child_.write(bytes); }

void McpClient::send(const json& message) { send_raw(message.dump() + "\n"); }

long long McpClient::send_request(const std::string& method, json params) {
  const long long id = next_id_++;
  std::string version;
  if (params.is_object() && params.contains("_meta") && params["_meta"].is_object()) {
    const auto v = params["_meta"].find("io.modelcontextprotocol/protocolVersion");
    if (v != params["_meta"].end() && v->is_string()) version = v->get<std::string>();
  }
  pending_methods_.push_back(Pending{json(id).dump(), method, std::move(version)});
  json m{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
  if (!params.is_null()) m["params"] = std::move(params);
  send(m);
  return id;
}

std::optional<json> McpClient::receive(std::chrono::milliseconds timeout) {
  const auto deadline = clock_type::now() + timeout;
  for (;;) {
    if (const auto nl = buffer_.find('\n'); nl != std::string::npos) {
      std::string line = buffer_.substr(0, nl);
      buffer_.erase(0, nl + 1);
      json message = json::parse(line, nullptr, false);
      if (message.is_discarded()) {
        garbage_ += line + "\n";
        FAIL_CHECK("server wrote a line that is not JSON: " << line.substr(0, 200));
        continue;
      }
      validate(message);
      return message;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock_type::now());
    if (left.count() <= 0) return std::nullopt;
    if (child_.read(buffer_, left) == ChildProcess::Read::eof) {
      if (!buffer_.empty()) garbage_ += buffer_;
      buffer_.clear();
      return std::nullopt;  // EOF
    }
  }
}

void McpClient::validate(const json& message) {
  if (message.is_array()) {  // a batch answer: each element is a response of its own
    CHECK(version_ == "2025-03-26");
    CHECK_FALSE(message.empty());
    for (const auto& element : message) validate(element);
    return;
  }
  std::string method;
  std::string version = version_;
  if (message.contains("id") && (message.contains("result") || message.contains("error"))) {
    const std::string key = message["id"].dump();
    for (auto it = pending_methods_.begin(); it != pending_methods_.end(); ++it) {
      if (it->id_key == key) {
        method = it->method;
        // A stateless request's answer follows its own version (when there is a schema for it:
        // an unsupported version is answered in the session's terms).
        if (!it->version.empty() &&
            std::filesystem::exists(std::string(MCPREAD_SCHEMA_DIR) + "/" + it->version + ".json"))
          version = it->version;
        pending_methods_.erase(it);
        break;
      }
    }
    if (method == "initialize" && message.contains("result")) {
      version_ = message["result"].value("protocolVersion", version_);
      version = version_;
    }
  }
  // A notification on a subscriptions/listen stream belongs to the stateless era (2026-07-28).
  if (!message.contains("id") && message.contains("params") && message["params"].is_object() &&
      message["params"].contains("_meta") && message["params"]["_meta"].is_object() &&
      message["params"]["_meta"].contains("io.modelcontextprotocol/subscriptionId"))
    version = "2026-07-28";
  // JSON-RPC answers an unreadable id with null; schemas before 2025-11-25 cannot express that,
  // so check the rest of such an error by hand.
  if (message.contains("error") && message.contains("id") && message["id"].is_null()) {
    CHECK(version_ < "2025-11-25");
    CHECK(message["error"]["code"].is_number_integer());
    CHECK(message["error"]["message"].is_string());
    return;
  }
  const std::string errors = server_message_errors(version, message, method);
  if (!errors.empty()) FAIL_CHECK("schema violation: " << errors << "\nmessage: " << message.dump().substr(0, 2000));
}

std::optional<json> McpClient::wait_for_id(const json& id, std::chrono::milliseconds timeout) {
  auto is_answer = [&id](const json& m) {
    return m.is_object() && m.contains("id") && m["id"] == id && (m.contains("result") || m.contains("error"));
  };
  // It may have arrived while we waited for another answer.
  for (auto it = others_.begin(); it != others_.end(); ++it) {
    if (is_answer(*it)) {
      json found = std::move(*it);
      others_.erase(it);
      return found;
    }
  }
  const auto deadline = clock_type::now() + timeout;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock_type::now());
    if (left.count() <= 0) return std::nullopt;
    auto message = receive(left);
    if (!message) return std::nullopt;
    if (is_answer(*message)) return message;
    others_.push_back(std::move(*message));
  }
}

json McpClient::request(const std::string& method, json params, std::chrono::milliseconds timeout) {
  const long long id = send_request(method, std::move(params));
  auto response = wait_for_id(id, timeout);
  if (!response) {
    FAIL("no response to " << method << " (id " << id << "); server stderr:\n" << stderr_text());
  }
  return *response;
}

json McpClient::initialize(const std::string& version, json capabilities) {
  json response = request("initialize", {{"protocolVersion", version},
                                         {"capabilities", std::move(capabilities)},
                                         {"clientInfo", {{"name", "mcpread-e2e"}, {"version", "1.0"}}}});
  REQUIRE_MESSAGE(response.contains("result"), response.dump());
  send({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
  return response["result"];
}

json McpClient::stateless_request(const std::string& method, json params, const std::string& version) {
  params["_meta"]["io.modelcontextprotocol/protocolVersion"] = version;
  if (!params["_meta"].contains("io.modelcontextprotocol/clientCapabilities"))
    params["_meta"]["io.modelcontextprotocol/clientCapabilities"] = json::object();
  return request(method, std::move(params));
}

json McpClient::call(const std::string& tool, json arguments) {
  json response = request("tools/call", {{"name", tool}, {"arguments", std::move(arguments)}});
  REQUIRE_MESSAGE(response.contains("result"), response.dump());
  return response["result"];
}

}  // namespace mcpread::test
