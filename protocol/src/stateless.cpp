#include "mcpread/protocol/stateless.hpp"

#include "method_helpers.hpp"

#include <exception>
#include <utility>

namespace mcpread::protocol {
namespace {

// Caching hints. The tool list and capabilities change only with the binary: a day, shared.
constexpr long long static_ttl_ms = 24LL * 60 * 60 * 1000;

const json* meta_of(const Message& m) {
  const auto meta = m.params.find("_meta");
  return meta != m.params.end() && meta->is_object() ? &*meta : nullptr;
}

bool known_method(const std::string& method) {
  return method == "server/discover" || method == "tools/list" || method == "tools/call";
}

}  // namespace

bool declares_version(const Message& m) {
  const json* meta = meta_of(m);
  return meta != nullptr && meta->contains(meta_key::protocol_version);
}

StatelessDispatcher::StatelessDispatcher(ServerInfo info, ServerHandler& handler)
    : info_(std::move(info)), handler_(handler) {}

std::optional<MessageError> StatelessDispatcher::check(const Message& m) const {
  const json* meta = meta_of(m);
  const auto version = meta ? meta->find(meta_key::protocol_version) : json::const_iterator{};
  if (meta == nullptr || version == meta->end())
    return params_error(m.id, std::string("_meta needs \"") + meta_key::protocol_version + "\"");
  const std::string requested = version->is_string() ? version->get<std::string>() : version->dump();
  if (!version->is_string() || !is_stateless_version(requested)) {
    std::string message = "Unsupported protocol version: " + requested;
    if (is_supported_version(requested))
      message += " is served only after \"initialize\"; requests without a session use 2026-07-28";
    return MessageError{m.id, error_code::unsupported_protocol_version, std::move(message),
                        json{{"requested", requested}, {"supported", all_versions()}}};
  }
  const auto caps = meta->find(meta_key::client_capabilities);
  if (caps == meta->end() || !caps->is_object())
    return params_error(m.id, std::string("_meta needs \"") + meta_key::client_capabilities +
                                  "\" (an object, empty when the client has none)");
  if (const auto level = meta->find(meta_key::log_level); level != meta->end()) {
    if (!level->is_string() || !parse_log_level(level->get<std::string>()))
      return params_error(m.id, std::string("\"") + meta_key::log_level +
                                    "\" must be one of debug, info, notice, warning, error, "
                                    "critical, alert, emergency");
  }
  if (!known_method(m.method)) {
    std::string message = "Method not found: " + m.method;
    if (m.method == "ping" || m.method == "logging/setLevel" || m.method == "initialize")
      message += " (not part of protocol " + requested + ")";
    return MessageError{m.id, error_code::method_not_found, std::move(message)};
  }
  return std::nullopt;
}

json StatelessDispatcher::complete(json result) const {
  result["resultType"] = "complete";
  json server{{"name", info_.name}, {"version", info_.version}};
  if (!info_.title.empty()) server["title"] = info_.title;
  result["_meta"][meta_key::server_info] = std::move(server);
  return result;
}

json StatelessDispatcher::discover_result() const {
  json result{{"supportedVersions", all_versions()},
              {"capabilities", server_capabilities(handler_)},
              {"ttlMs", static_ttl_ms},
              {"cacheScope", "public"}};
  if (!info_.instructions.empty()) result["instructions"] = info_.instructions;
  return complete(std::move(result));
}

void StatelessDispatcher::serve(const Message& m, const Reply& reply,
                                std::shared_ptr<std::atomic<bool>> cancelled) {
  if (m.method == "tools/call") {
    call_tool(m, reply, std::move(cancelled));
    return;
  }
  json response;
  if (m.method == "server/discover") {
    response = make_result(m.id, discover_result());
  } else {  // tools/list
    std::optional<MessageError> error;
    json result = list_tools(handler_.tools(), m, features_of(stateless_versions.back()), &error);
    if (error) {
      response = make_error(*error);
    } else {
      result["ttlMs"] = static_ttl_ms;
      result["cacheScope"] = "public";
      response = make_result(m.id, complete(std::move(result)));
    }
  }
  reply(serialize(response), true);
}

void StatelessDispatcher::call_tool(const Message& m, const Reply& reply,
                                    std::shared_ptr<std::atomic<bool>> cancelled) {
  auto prepared = prepare_tool_call(handler_.tools(), m);
  if (auto* refusal = std::get_if<json>(&prepared)) {
    if (refusal->contains("result")) (*refusal)["result"] = complete(std::move((*refusal)["result"]));
    reply(serialize(*refusal), true);
    return;
  }
  ToolCall call = std::move(std::get<ToolCall>(prepared));
  const json& meta = m.params["_meta"];
  call.protocol_version = meta[meta_key::protocol_version].get<std::string>();
  call.cancelled = cancelled;
  // No log messages unless this request asked for them with a level (there is no session).
  std::optional<LogLevel> threshold;
  if (const auto level = meta.find(meta_key::log_level); level != meta.end())
    threshold = parse_log_level(level->get<std::string>());
  call.log = log_sender(info_.name, [threshold](LogLevel l) { return threshold && l >= *threshold; },
                        reply);
  call.progress = progress_sender(progress_token(m), true, reply);
  auto done = [this, id = m.id, reply, cancelled](json result) {
    if (cancelled && cancelled->load()) {
      reply(std::string(), true);  // the client no longer wants an answer
      return;
    }
    reply(serialize(make_result(id, complete(std::move(result)))), true);
  };
  try {
    handler_.call_tool(std::move(call), std::move(done));
  } catch (const std::exception& e) {
    reply(serialize(make_error(m.id, error_code::internal_error, std::string("Internal error: ") + e.what())),
          true);
  }
}

}  // namespace mcpread::protocol
