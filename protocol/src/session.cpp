#include "mcpread/protocol/session.hpp"

#include "mcpread/common/spare_buffers.hpp"

#include "method_helpers.hpp"
#include "prompt_methods.hpp"

#include <exception>
#include <utility>

namespace mcpread::protocol {
namespace {

constexpr LogLevel default_log_threshold = LogLevel::warning;

}  // namespace

Session::Session(ServerInfo info, ServerHandler& handler, std::function<void(std::string)> outbound,
                 ClientRoots stateless_roots)
    : info_(info), handler_(handler), outbound_(std::move(outbound)), stateless_(std::move(info), handler, stateless_roots) {}

Session::~Session() { cancel_all(); }

json Session::error_json(const MessageError& e) const {
  json j = make_error(e);
  // JSON-RPC answers an unreadable id with null; the schemas from 2025-11-25 on instead leave
  // "id" out (null is not a RequestId there). Older schemas allow neither, so keep JSON-RPC's.
  if (e.id.is_null() && !null_error_ids_.load()) j.erase("id");
  return j;
}

std::string Session::unaddressed_error(int code, std::string_view message) const {
  return serialize(error_json(MessageError{nullptr, code, std::string(message)}));
}

bool Session::receive(std::string_view text, Reply reply) {
  auto parsed = parse_json(text);
  if (auto* e = std::get_if<MessageError>(&parsed)) {
    reply(serialize(error_json(*e)), true);
    return true;
  }
  return receive_parsed(std::get<json>(parsed), std::move(reply));
}

bool Session::receive_parsed(const json& value, Reply reply) {
  if (value.is_array()) {
    return handle_batch(value, reply);
  }
  auto message = to_message(value);
  if (auto* e = std::get_if<MessageError>(&message)) {
    reply(serialize(error_json(*e)), true);
    return true;
  }
  const Message& m = std::get<Message>(message);
  if (m.kind == MessageKind::notification) {
    handle_notification(m);
    return false;
  }
  if (m.kind == MessageKind::response) {
    handle_response(m);
    return false;
  }
  handle_request(m, false, reply, [reply](std::optional<json> response) {
    std::string wire = response ? serialize(*response) : std::string();
    // Only a large answer can hold a buffer worth keeping: the rest are not walked.
    const bool large = wire.size() >= common::spare::min_bytes;
    reply(std::move(wire), true);
    if (large) recycle_buffers(*response);
  });
  return true;
}

void Session::handle_request(const Message& m, bool in_batch, const Reply& reply, Respond respond) {
  auto send_error = [&](const MessageError& e) { respond(make_error(e)); };
  {
    // Even a request answered at once (ping, tools/list) must not reuse the id of one still in
    // progress: the client could not tell the two answers apart.
    const std::string key = id_key(m.id);
    std::lock_guard lock(mutex_);
    if (in_flight_.contains(key)) {
      send_error(id_in_use(m.id));
      return;
    }
  }
  if (m.method == "ping") {
    respond(make_result(m.id, json::object()));
    return;
  }
  if (m.method != "initialize" && !in_batch && declares_version(m)) {
    // A stateless request (2026-07-28) unless this session negotiated an older version and the
    // request merely repeats it.
    bool legacy = false;
    {
      std::lock_guard lock(mutex_);
      legacy = phase_ != Phase::awaiting_initialize && !is_stateless_version(m.params["_meta"].value(
                                                           meta_key::protocol_version, std::string()));
    }
    if (!legacy) {
      serve_stateless(m, reply);
      return;
    }
  }
  if (m.method == "initialize") {
    std::optional<MessageError> error;
    json result = on_initialize(m, in_batch, &error);
    error ? send_error(*error) : respond(make_result(m.id, std::move(result)));
    return;
  }
  {
    std::lock_guard lock(mutex_);
    if (phase_ == Phase::awaiting_initialize) {
      send_error({m.id, error_code::invalid_request,
                  "Invalid Request: the session is not initialized; send \"initialize\" first"});
      return;
    }
  }
  if (m.method == "tools/list") {
    std::optional<MessageError> error;
    json result = on_tools_list(m, &error);
    error ? send_error(*error) : respond(make_result(m.id, std::move(result)));
  } else if (m.method == "tools/call") {
    on_tools_call(m, reply, std::move(respond));
  } else if (is_resource_method(m.method)) {
    if (!offers_resources(handler_)) {
      send_error({m.id, error_code::method_not_found, "Method not found: " + m.method});
    } else if (m.method == "resources/templates/list") {
      VersionFeatures features;
      {
        std::lock_guard lock(mutex_);
        features = features_;
      }
      std::optional<MessageError> error;
      json result = list_resource_templates(handler_.resource_templates(), m, features, &error);
      error ? send_error(*error) : respond(make_result(m.id, std::move(result)));
    } else {
      on_resource_request(m, std::move(respond));
    }
  } else if (is_prompt_method(m.method)) {
    if (!serves_prompt_method(handler_, m.method)) {
      send_error({m.id, error_code::method_not_found, "Method not found: " + m.method});
    } else if (m.method == "prompts/list") {
      std::optional<MessageError> error;
      json result = list_prompts(handler_.prompts(), m, features_of(negotiated_version()), &error);
      error ? send_error(*error) : respond(make_result(m.id, std::move(result)));
    } else {
      on_prompt_request(m, std::move(respond));
    }
  } else if (is_subscription_method(m.method)) {
    if (!offers_resources(handler_) || !handler_.offers_subscriptions()) {
      send_error({m.id, error_code::method_not_found, "Method not found: " + m.method});
    } else {
      auto error = on_subscription(m);
      error ? send_error(*error) : respond(make_result(m.id, json::object()));
    }
  } else if (m.method == "logging/setLevel") {
    auto error = on_set_level(m);
    error ? send_error(*error) : respond(make_result(m.id, json::object()));
  } else {
    send_error({m.id, error_code::method_not_found, "Method not found: " + m.method});
  }
}


bool Session::track(const std::string& key, const std::shared_ptr<std::atomic<bool>>& cancelled) {
  std::lock_guard lock(mutex_);
  return in_flight_.emplace(key, cancelled).second;
}

std::shared_ptr<std::atomic<bool>> Session::track_request(const Message& m, const Respond& respond) {
  auto cancelled = std::make_shared<std::atomic<bool>>(false);
  if (track(id_key(m.id), cancelled)) return cancelled;
  respond(make_error(id_in_use(m.id)));
  return nullptr;
}

bool Session::untrack(const std::string& key, const std::shared_ptr<std::atomic<bool>>& cancelled) {
  std::lock_guard lock(mutex_);
  const auto it = in_flight_.find(key);
  if (it == in_flight_.end() || it->second != cancelled) return false;  // cancelled meanwhile
  in_flight_.erase(it);
  return !cancelled->load();
}


void Session::serve_stateless(const Message& m, const Reply& reply) {
  if (auto error = stateless_.check(m)) {
    reply(serialize(make_error(*error)), true);
    return;
  }
  // Tracked like any call in flight, so notifications/cancelled reaches it and ids stay unique.
  const std::string key = id_key(m.id);
  auto cancelled = std::make_shared<std::atomic<bool>>(false);
  {
    std::lock_guard lock(mutex_);
    if (!in_flight_.emplace(key, cancelled).second) {
      reply(serialize(make_error(id_in_use(m.id))), true);
      return;
    }
  }
  stateless_.serve(m, [this, key, cancelled, reply](std::string message, bool final) {
    if (final) {
      std::lock_guard lock(mutex_);
      const auto it = in_flight_.find(key);
      if (it != in_flight_.end() && it->second == cancelled) in_flight_.erase(it);
    }
    reply(std::move(message), final);
  }, cancelled);
}

void Session::handle_notification(const Message& m) {
  if (m.method == "notifications/initialized") {
    bool wants_roots = false;
    {
      std::lock_guard lock(mutex_);
      if (phase_ != Phase::initializing) return;
      phase_ = Phase::ready;
      wants_roots = client_capabilities_.contains("roots");
    }
    if (wants_roots) request_roots();
  } else if (m.method == "notifications/roots/list_changed") {
    bool wants_roots = false;
    {
      std::lock_guard lock(mutex_);
      wants_roots = phase_ != Phase::awaiting_initialize && client_capabilities_.contains("roots");
    }
    if (wants_roots) request_roots();
  } else if (m.method == "notifications/cancelled") {
    const auto id = m.params.find("requestId");
    if (id == m.params.end()) return;
    std::shared_ptr<std::atomic<bool>> flag;
    {
      std::lock_guard lock(mutex_);
      const auto it = in_flight_.find(id_key(*id));
      if (it == in_flight_.end()) return;  // unknown or already finished: nothing to do
      flag = it->second;
      flag->store(true);
      in_flight_.erase(it);
    }
    abandon_client_requests(flag, "the tool call was cancelled");
    stateless_.drop_cancelled_subscriptions();  // a cancelled subscriptions/listen ends now
  }
  // Other notifications need no action.
}

bool Session::level_passes(LogLevel level) const {
  std::lock_guard lock(mutex_);
  if (phase_ == Phase::awaiting_initialize) return false;
  return level >= log_threshold_.value_or(default_log_threshold);
}

void Session::log(LogLevel level, std::string_view logger, const std::string& message) {
  if (!level_passes(level)) return;
  outbound_(serialize(make_notification(
      "notifications/message", {{"level", to_string(level)}, {"logger", logger}, {"data", message}})));
}

void Session::cancel_all() {
  // First, while they are still live: listen streams end with their closing result.
  stateless_.close_subscriptions();
  {
    std::lock_guard lock(mutex_);
    for (auto& [key, flag] : in_flight_) flag->store(true);
    in_flight_.clear();
  }
  abandon_client_requests(nullptr, "the session ended");
  stateless_.cancel_tasks();  // and the calls that became tasks
}

std::size_t Session::in_flight() const {
  std::lock_guard lock(mutex_);
  return in_flight_.size();
}

std::string Session::negotiated_version() const {
  std::lock_guard lock(mutex_);
  return version_;
}

bool Session::initialized() const {
  std::lock_guard lock(mutex_);
  return phase_ != Phase::awaiting_initialize;
}

void Session::close_subscriptions() { stateless_.close_subscriptions(); }

}  // namespace mcpread::protocol
