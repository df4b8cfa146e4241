// The requests a session answers from its own state: initialize, logging/setLevel, tools/list,
// tools/call and the resources requests (session.cpp takes messages in and routes them).
#include "mcpread/protocol/session.hpp"

#include "method_helpers.hpp"

#include <exception>
#include <utility>

namespace mcpread::protocol {

json Session::on_initialize(const Message& m, bool in_batch, std::optional<MessageError>* error) {
  if (in_batch) {
    *error = MessageError{m.id, error_code::invalid_request,
                          "Invalid Request: \"initialize\" must not be part of a batch"};
    return nullptr;
  }
  const auto requested = m.params.find("protocolVersion");
  if (requested == m.params.end() || !requested->is_string()) {
    *error = params_error(m.id, "\"initialize\" needs \"protocolVersion\" (a string)");
    return nullptr;
  }
  const auto caps = m.params.find("capabilities");
  if (caps != m.params.end() && !caps->is_object()) {
    *error = params_error(m.id, "\"capabilities\" must be an object");
    return nullptr;
  }
  std::lock_guard lock(mutex_);
  if (phase_ != Phase::awaiting_initialize) {
    *error = MessageError{m.id, error_code::invalid_request,
                          "Invalid Request: the session is already initialized"};
    return nullptr;
  }
  version_ = negotiate_version(requested->get<std::string>());
  features_ = features_of(version_);
  null_error_ids_ = version_ < "2025-11-25";
  if (caps != m.params.end()) client_capabilities_ = *caps;
  client_info_ = ClientInfo::from_json(m.params.value("clientInfo", json()));
  phase_ = Phase::initializing;

  json server_info{{"name", info_.name}, {"version", info_.version}};
  if (features_.titles && !info_.title.empty()) server_info["title"] = info_.title;
  json result{{"protocolVersion", version_},
              {"capabilities", server_capabilities(handler_, version_)},
              {"serverInfo", std::move(server_info)}};
  if (!info_.instructions.empty()) result["instructions"] = info_.instructions;
  return result;
}

std::optional<MessageError> Session::on_set_level(const Message& m) {
  const auto level = m.params.find("level");
  std::optional<LogLevel> parsed;
  if (level != m.params.end() && level->is_string()) parsed = parse_log_level(level->get<std::string>());
  if (!parsed) {
    return params_error(m.id, "\"level\" must be one of debug, info, notice, warning, error, "
                              "critical, alert, emergency");
  }
  std::lock_guard lock(mutex_);
  log_threshold_ = parsed;
  return std::nullopt;
}

json Session::on_tools_list(const Message& m, std::optional<MessageError>* error) {
  VersionFeatures features;
  ClientInfo client;
  {
    std::lock_guard lock(mutex_);
    features = features_;
    client = client_info_;
  }
  return list_tools(handler_.tools_for(client), m, features, error);
}

void Session::on_tools_call(const Message& m, const Reply& reply, Respond respond) {
  auto prepared = prepare_tool_call(handler_.tools(), m);
  if (auto* refusal = std::get_if<json>(&prepared)) {
    respond(std::move(*refusal));
    return;
  }
  ToolCall call = std::move(std::get<ToolCall>(prepared));
  const std::string key = id_key(m.id);
  auto cancelled = std::make_shared<std::atomic<bool>>(false);
  {
    std::lock_guard lock(mutex_);
    if (!in_flight_.emplace(key, cancelled).second) {
      respond(make_error(id_in_use(m.id)));
      return;
    }
    call.protocol_version = version_;
    call.client = client_info_;
  }
  call.cancelled = cancelled;
  call.log = log_sender(info_.name, [this](LogLevel level) { return level_passes(level); }, reply);
  call.progress = progress_sender(progress_token(m), features_of(call.protocol_version).progress_message,
                                  reply);
  call.request = client_requester(reply, cancelled);

  auto done = [this, key, cancelled, id = m.id, respond](ToolOutcome outcome) {
    bool live = false;
    {
      std::lock_guard lock(mutex_);
      const auto it = in_flight_.find(key);
      if (it != in_flight_.end() && it->second == cancelled) {
        live = !cancelled->load();
        in_flight_.erase(it);
      }
    }
    // Requests still awaiting the client's answer end with the call (exactly once each).
    abandon_client_requests(cancelled, "the tool call finished before the client answered");
    // A cancelled call gets no answer: the client no longer wants one.
    if (!live) return respond(std::nullopt);
    if (auto* error = std::get_if<RequestError>(&outcome)) return respond(make_error(id, error->code, error->message));
    respond(make_result(id, std::move(std::get<json>(outcome))));
  };
  try {
    handler_.call_tool(std::move(call), std::move(done));
  } catch (const std::exception& e) {
    {
      std::lock_guard lock(mutex_);
      in_flight_.erase(key);
    }
    respond(make_error(m.id, error_code::internal_error, std::string("Internal error: ") + e.what()));
  }
}

void Session::on_resource_request(const Message& m, Respond respond) {
  auto prepared = prepare_resource_request(m);
  if (auto* error = std::get_if<MessageError>(&prepared)) {
    respond(make_error(*error));
    return;
  }
  ResourceRequest request = std::move(std::get<ResourceRequest>(prepared));
  const std::string key = id_key(m.id);
  auto cancelled = track_request(m, respond);
  if (!cancelled) return;
  request.protocol_version = negotiated_version();
  request.cancelled = cancelled;
  const std::string uri = request.uri;
  auto done = [this, key, cancelled, id = m.id, uri, respond](ResourceOutcome outcome) {
    // A cancelled request gets no answer: the client no longer wants one.
    untrack(key, cancelled) ? respond(resource_response(id, uri, std::move(outcome), false))
                            : respond(std::nullopt);
  };
  try {
    start_resource_request(handler_, m.method, std::move(request), std::move(done));
  } catch (const std::exception& e) {
    {
      std::lock_guard lock(mutex_);
      in_flight_.erase(key);
    }
    respond(make_error(m.id, error_code::internal_error, std::string("Internal error: ") + e.what()));
  }
}

}  // namespace mcpread::protocol
