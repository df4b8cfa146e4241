// McpHttp: an MCP client over Streamable HTTP that validates every server message against the
// schema of its version; and the checks the HTTP tests share.
#include "http_client.hpp"

#include "mcp_client.hpp"
#include "schema_validator.hpp"

#include <doctest/doctest.h>
#include <strings.h>

#include <algorithm>
#include <sstream>

namespace mcpread::test::http {

using nlohmann::json;

namespace {

// Sets header `name` to `value` in `headers` (an empty value removes it).
void override_header(Headers& headers, const std::string& name, const std::string& value) {
  headers.erase(std::remove_if(headers.begin(), headers.end(),
                               [&name](const auto& h) { return ::strcasecmp(h.first.c_str(), name.c_str()) == 0; }),
                headers.end());
  if (!value.empty()) headers.emplace_back(name, value);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Validation

void validate_server_message(const std::string& version, const json& message, const std::string& method) {
  REQUIRE_MESSAGE(message.is_object(), "not a JSON-RPC message: " << message.dump().substr(0, 500));
  // An error that answers no message (the HTTP layer's refusals) has no id; schemas before
  // 2025-11-25 cannot express that, so check such an error by hand there.
  if (message.contains("error") && (!message.contains("id") || message["id"].is_null()) &&
      version < "2025-11-25") {
    CHECK(message.value("jsonrpc", "") == "2.0");
    CHECK(message["error"]["code"].is_number_integer());
    CHECK(message["error"]["message"].is_string());
    return;
  }
  const std::string errors = server_message_errors(version, message, method);
  if (!errors.empty())
    FAIL_CHECK("schema violation: " << errors << "\nmessage: " << message.dump().substr(0, 2000));
}

json expect_rpc_error(const Reply& reply, unsigned status, int code, const std::string& message,
                      const std::string& version) {
  CHECK(reply.status == status);
  CHECK(reply.header("Content-Type") == std::optional<std::string>("application/json"));
  const json body = reply.json();
  if (!body.is_object() || !body.contains("error")) {
    FAIL_CHECK("not a JSON-RPC error: " << reply.body.substr(0, 500));
    return json::object();
  }
  validate_server_message(version, body);
  CHECK(body["error"]["code"] == code);
  CHECK(body["error"]["message"] == message);
  return body["error"];
}

Headers post_headers(Headers more) {
  Headers headers{{"Accept", "application/json, text/event-stream"}, {"Content-Type", "application/json"}};
  for (auto& h : more) headers.push_back(std::move(h));
  return headers;
}

const json& Exchange::last() const {
  REQUIRE_MESSAGE(!messages.empty(), "no JSON-RPC message in the answer (status " << http.status << ")");
  return messages.back();
}

// ---------------------------------------------------------------------------------------------
// McpHttp

McpHttp::McpHttp(unsigned short port, Headers extra) : client_(port), extra_(std::move(extra)) {}

long long McpHttp::next_id(const std::string& method, const std::string& version) {
  const long long id = next_id_++;
  pending_[json(id).dump()] = {method, version};
  return id;
}

void McpHttp::validate(const json& message) {
  if (message.is_array()) {  // a batch's answer: responses of their own
    CHECK(version_ == "2025-03-26");
    CHECK_FALSE(message.empty());
    for (const auto& element : message) validate(element);
    return;
  }
  std::string method;
  std::string version = version_;
  if (message.is_object() && message.contains("id") && (message.contains("result") || message.contains("error"))) {
    const auto it = pending_.find(message["id"].dump());
    if (it != pending_.end()) {
      method = it->second.first;
      if (!it->second.second.empty()) version = it->second.second;
      pending_.erase(it);
    }
    if (method == "initialize") {
      version = message.contains("result") ? message["result"].value("protocolVersion", version_) : "2025-11-25";
    }
  }
  validate_server_message(version, message, method);
}

// The JSON-RPC messages of one answer: its JSON body, or the data of each event of its stream.
Exchange McpHttp::collect(Reply reply) {
  Exchange exchange{std::move(reply), {}};
  const Reply& http = exchange.http;
  if (http.is_event_stream()) {
    CHECK_MESSAGE(http.end == StreamState::ended, "the event stream was " << to_string(http.end));
    for (const auto& event : http.events) {
      CHECK(event.name == "message");
      json message = json::parse(event.data, nullptr, false);
      REQUIRE_MESSAGE(!message.is_discarded(), "an event that is not JSON: " << event.data.substr(0, 500));
      exchange.messages.push_back(std::move(message));
    }
  } else if (!http.body.empty()) {
    CHECK(http.header("Content-Type") == std::optional<std::string>("application/json"));
    exchange.messages.push_back(http.json());
  }
  return exchange;
}

Exchange McpHttp::post(const json& message, const Headers& extra) {
  Headers headers = post_headers(extra_);
  if (!session_id_.empty()) {
    headers.emplace_back("Mcp-Session-Id", session_id_);
    headers.emplace_back("MCP-Protocol-Version", version_);
  }
  for (const auto& [name, value] : extra) override_header(headers, name, value);
  // The answer's notifications (progress) carry no id: they follow the request's version (a
  // stateless request's, or the session's).
  std::string exchange_version;
  if (message.is_object() && message.contains("id")) {
    const auto it = pending_.find(message["id"].dump());
    if (it != pending_.end()) exchange_version = it->second.second;
  }
  Exchange exchange = collect(client_.send("POST", "/mcp", headers, message.dump()));
  const std::string saved = version_;
  if (!exchange_version.empty()) version_ = exchange_version;
  for (const auto& m : exchange.messages) validate(m);
  if (!exchange_version.empty()) version_ = saved;
  if (exchange.http.status == 202) CHECK(exchange.http.body.empty());
  return exchange;
}

std::string McpHttp::initialize(const std::string& version, json capabilities, bool send_initialized) {
  session_id_.clear();
  const long long id = next_id("initialize");
  Exchange e = post({{"jsonrpc", "2.0"},
                     {"id", id},
                     {"method", "initialize"},
                     {"params",
                      {{"protocolVersion", version},
                       {"capabilities", std::move(capabilities)},
                       {"clientInfo", {{"name", "mcpread-http-e2e"}, {"version", "1.0"}}}}}});
  REQUIRE(e.http.status == 200);
  REQUIRE_MESSAGE(e.last().contains("result"), e.http.body);
  const auto session = e.http.header("Mcp-Session-Id");
  REQUIRE(session);
  session_id_ = *session;
  version_ = e.last()["result"]["protocolVersion"].get<std::string>();
  if (send_initialized) {
    const Exchange n = post({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
    CHECK(n.http.status == 202);
  }
  return session_id_;
}

json McpHttp::request(const std::string& method, json params) {
  const long long id = next_id(method);
  const Exchange e = post({{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}});
  REQUIRE_MESSAGE(e.http.status == 200, "status " << e.http.status << ": " << e.http.body.substr(0, 500));
  REQUIRE(e.last().value("id", json()) == id);
  return e.last();
}

json McpHttp::call(const std::string& tool, json arguments) {
  const json response = request("tools/call", {{"name", tool}, {"arguments", std::move(arguments)}});
  REQUIRE_MESSAGE(response.contains("result"), response.dump());
  return response["result"];
}

Exchange McpHttp::stateless(const std::string& method, json params, const Headers& extra) {
  json& meta = params["_meta"];
  if (!meta.contains("io.modelcontextprotocol/protocolVersion"))
    meta["io.modelcontextprotocol/protocolVersion"] = stateless_version;
  if (!meta.contains("io.modelcontextprotocol/clientCapabilities"))
    meta["io.modelcontextprotocol/clientCapabilities"] = json::object();
  const json& declared = meta["io.modelcontextprotocol/protocolVersion"];
  Headers headers{{"Mcp-Session-Id", ""},
                  {"MCP-Protocol-Version", declared.is_string() ? declared.get<std::string>() : declared.dump()},
                  {"Mcp-Method", method}};
  for (const char* field : {"name", "uri", "taskId"})  // taskId: the task methods (SEP-2663)
    if (params.contains(field) && params[field].is_string())
      headers.emplace_back("Mcp-Name", params[field].get<std::string>());
  // Kept even when empty: post() then leaves the header out.
  for (const auto& [name, value] : extra) {
    override_header(headers, name, "-");
    headers.back().second = value;
  }
  const long long id = next_id(method, stateless_version);
  return post({{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}}, headers);
}

double metric_sample(const std::string& metrics, const std::string& series) {
  std::istringstream lines(metrics);
  for (std::string line; std::getline(lines, line);)
    if (line.starts_with(series + " ")) return std::stod(line.substr(series.size() + 1));
  return -1;
}

}  // namespace mcpread::test::http
