#include "mcpread/protocol/stateless.hpp"

#include "input_round.hpp"
#include "method_helpers.hpp"
#include "prompt_methods.hpp"
#include "task_calls.hpp"
#include "subscriptions.hpp"

#include <exception>
#include <utility>

namespace mcpread::protocol {
namespace {

// Caching hints. The tool list, the resource templates and the capabilities change only with
// the binary: a day, shared by anyone ("public": they say nothing about the user's files).
constexpr long long static_ttl_ms = 24LL * 60 * 60 * 1000;
// The resource list names the user's files ("private": never shared across authorization
// contexts). Files come and go while someone works, so the list is worth keeping only for
// the few seconds a client takes to page through it.
constexpr long long resource_list_ttl_ms = 5 * 1000;
// A read's contents are the file as it is now; the next edit makes any cached copy wrong, and
// the read tool never caches either: stale at once, and private.
constexpr long long resource_read_ttl_ms = 0;

const json* meta_of(const Message& m) {
  const auto meta = m.params.find("_meta");
  return meta != m.params.end() && meta->is_object() ? &*meta : nullptr;
}

bool known_method(const std::string& method, const ServerHandler& handler) {
  if (is_task_method(method)) return offers_tasks(handler);
  if (is_resource_method(method)) return offers_resources(handler);
  if (is_prompt_method(method)) return serves_prompt_method(handler, method);
  if (method == "subscriptions/listen") return handler.list_changes().any();
  return method == "server/discover" || method == "tools/list" || method == "tools/call";
}

}  // namespace

bool declares_version(const Message& m) {
  const json* meta = meta_of(m);
  return meta != nullptr && meta->contains(meta_key::protocol_version);
}

StatelessDispatcher::StatelessDispatcher(ServerInfo info, ServerHandler& handler, ClientRoots client_roots,
                                         std::string task_id_prefix)
    : info_(std::move(info)),
      handler_(handler),
      client_roots_(client_roots),
      tasks_(std::make_shared<TaskStore>(std::chrono::system_clock::now, std::move(task_id_prefix))),
      subscriptions_(std::make_shared<SubscriptionHub>()) {
  handler_.watch_list_changes(subscriptions_);
}

StatelessDispatcher::~StatelessDispatcher() { tasks_->cancel_all(); }

void StatelessDispatcher::cancel_tasks() { tasks_->cancel_all(); }

namespace {
bool reads_files(const std::string& method) {
  return method == "tools/call" || method == "resources/list" || method == "resources/read";
}
constexpr const char* roots_input_key = "roots";
}  // namespace

std::optional<json> StatelessDispatcher::client_roots_of(const Message& m, InputRound* round,
                                                         std::optional<std::vector<std::string>>* roots) const {
  if (client_roots_ == ClientRoots::ignore || !reads_files(m.method) || round == nullptr) return std::nullopt;
  const json& caps = m.params["_meta"][meta_key::client_capabilities];
  if (!caps.contains("roots")) return std::nullopt;  // `ask`: served within the server's roots
  // Asked like any tool's request, so the answer is sealed into the state of later rounds too.
  std::optional<std::string> malformed;
  round->keyed_requester()(roots_input_key, "roots/list", json::object(), [&](ClientResponse response) {
    const json* result = std::get_if<json>(&response);
    if (result == nullptr) {
      if (std::get<ClientRequestError>(response).kind == ClientRequestError::Kind::malformed)
        malformed = "inputResponses.roots must be a roots/list result ({\"roots\": [...]})";
      return;
    }
    std::vector<std::string> uris;
    for (const auto& root : (*result)["roots"])
      if (root.is_object() && root.contains("uri") && root["uri"].is_string()) uris.push_back(root["uri"].get<std::string>());
    *roots = std::move(uris);
  });
  if (auto why = round->invalid()) return make_error(params_error(m.id, *why));
  if (malformed) return make_error(params_error(m.id, *malformed));
  if (!round->pending().empty()) return round_response(m.id, *round, json());
  return std::nullopt;
}

json StatelessDispatcher::round_response(const json& id, const InputRound& round, json result) const {
  if (auto why = round.invalid()) return make_error(params_error(id, *why));
  if (!round.pending().empty()) {
    json input = complete(round.input_required(StateSeal::process()));
    input["resultType"] = "input_required";
    return make_result(id, std::move(input));
  }
  return make_result(id, complete(std::move(result)));
}

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
  if (!known_method(m.method, handler_)) {
    std::string message = "Method not found: " + m.method;
    if (m.method == "ping" || m.method == "logging/setLevel" || m.method == "initialize")
      message += " (not part of protocol " + requested + ")";
    return MessageError{m.id, error_code::method_not_found, std::move(message)};
  }
  if (client_roots_ == ClientRoots::require && reads_files(m.method) && !caps->contains("roots")) {
    return MessageError{m.id, error_code::missing_client_capability,
                        "Missing required client capability: roots. This server reads only within the "
                        "client's roots; declare the roots capability and answer the roots/list input request",
                        json{{"requiredCapabilities", {{"roots", json::object()}}}}};
  }
  if (m.method == "tools/call") return tool_capabilities_error(m, *caps);
  if (is_task_method(m.method)) return task_method_error(m, *caps);
  if (m.method == "subscriptions/listen") {
    auto filter = parse_listen_filter(m.params);
    if (auto* why = std::get_if<std::string>(&filter)) return params_error(m.id, std::move(*why));
  }
  return std::nullopt;
}

std::optional<MessageError> StatelessDispatcher::tool_capabilities_error(const Message& m, const json& declared) const {
  const auto name = m.params.find("name");
  if (name == m.params.end() || !name->is_string()) return std::nullopt;  // the call itself says what is wrong
  for (const ToolDefinition& tool : handler_.tools()) {
    if (tool.name != name->get_ref<const std::string&>()) continue;
    json required = tool.required_capabilities;
    if (tool.task_support == TaskSupport::required) required.merge_patch(task_requirement());
    const json missing = missing_capabilities(required, declared);
    if (missing.empty()) return std::nullopt;
    std::string names;
    const auto add = [&names](const std::string& what) { names += (names.empty() ? "" : ", ") + what; };
    for (const auto& [capability, value] : missing.items()) {
      if (capability != "extensions") add(capability);
      else
        for (const auto& [extension, settings] : value.items()) add("extension " + extension);
    }
    return MessageError{m.id, error_code::missing_client_capability,
                        "Missing required client capability: " + names + ". The tool " + tool.name +
                            " needs it; declare it in _meta[\"" + meta_key::client_capabilities + "\"]",
                        json{{"requiredCapabilities", missing}}};
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
              {"capabilities", server_capabilities(handler_, stateless_versions.back())},
              {"ttlMs", static_ttl_ms},
              {"cacheScope", "public"}};
  if (!info_.instructions.empty()) result["instructions"] = info_.instructions;
  return complete(std::move(result));
}

void StatelessDispatcher::serve(const Message& m, const Reply& reply,
                                std::shared_ptr<std::atomic<bool>> cancelled, const Caller& caller) {
  if (is_task_method(m.method)) {
    json response = serve_task_method(*tasks_, m, caller.owner);
    if (response.contains("result")) response["result"] = complete(std::move(response["result"]));
    reply(serialize(response), true);
    return;
  }
  // The requests that may ask the client something (SEP-2322): their round, from inputResponses
  // and a verified requestState. Resource requests ask only for the client's roots.
  std::shared_ptr<InputRound> round;
  if (m.method == "tools/call" || m.method == "prompts/get" ||
      (client_roots_ != ClientRoots::ignore && reads_files(m.method))) {
    auto opened = open_input_round(m, StateSeal::process());
    if (auto* error = std::get_if<MessageError>(&opened)) {
      reply(serialize(make_error(*error)), true);
      return;
    }
    round = std::move(std::get<std::shared_ptr<InputRound>>(opened));
  }
  std::optional<std::vector<std::string>> roots;
  if (auto early = client_roots_of(m, round.get(), &roots)) {
    reply(serialize(*early), true);
    return;
  }
  if (m.method == "tools/call") {
    call_tool(m, reply, std::move(cancelled), std::move(roots), std::move(round), caller);
    return;
  }
  if (m.method == "subscriptions/listen") {
    listen(m, reply, std::move(cancelled));
    return;
  }
  if (m.method == "resources/list" || m.method == "resources/read") {
    resource_request(m, reply, std::move(cancelled), std::move(roots), caller);
    return;
  }
  if (m.method == "prompts/get" || m.method == "completion/complete") {
    const std::string version = m.params["_meta"][meta_key::protocol_version].get<std::string>();
    auto respond = [this, id = m.id, reply, cancelled, round](json response) {
      if (cancelled && cancelled->load()) {
        reply(std::string(), true);  // the client no longer wants an answer
        return;
      }
      if (response.contains("result")) {
        // prompts/get asks through its round; completion/complete has none.
        response = round ? round_response(id, *round, std::move(response["result"]))
                         : make_result(id, complete(std::move(response["result"])));
      }
      reply(serialize(response), true);
    };
    auto attach = [round](PromptRequest& request) {
      if (round) round->attach(request);
    };
    serve_prompt_request(handler_, m, version, cancelled, std::move(respond), std::move(attach));
    return;
  }
  // The static lists: the same for every client, cached for a day, shared.
  auto static_list = [&](json result, const std::optional<MessageError>& error) {
    if (error) return make_error(*error);
    result["ttlMs"] = static_ttl_ms;
    result["cacheScope"] = "public";
    return make_result(m.id, complete(std::move(result)));
  };
  const VersionFeatures features = features_of(stateless_versions.back());
  std::optional<MessageError> error;
  json response;
  if (m.method == "server/discover") {
    response = make_result(m.id, discover_result());
  } else if (m.method == "prompts/list") {
    json result = list_prompts(handler_.prompts(), m, features, &error);
    response = static_list(std::move(result), error);
  } else if (m.method == "resources/templates/list") {
    json result = list_resource_templates(handler_.resource_templates(), m, features, &error);
    response = static_list(std::move(result), error);
  } else {  // tools/list
    const auto& meta = m.params["_meta"];
    const auto client = ClientInfo::from_json(meta.value(meta_key::client_info, json()));
    json result = list_tools(handler_.tools_for(client), m, features, &error);
    response = static_list(std::move(result), error);
  }
  reply(serialize(response), true);
}

void StatelessDispatcher::resource_request(const Message& m, const Reply& reply,
                                           std::shared_ptr<std::atomic<bool>> cancelled,
                                           std::optional<std::vector<std::string>> roots, const Caller& caller) {
  auto prepared = prepare_resource_request(m);
  if (auto* error = std::get_if<MessageError>(&prepared)) {
    reply(serialize(make_error(*error)), true);
    return;
  }
  ResourceRequest request = std::move(std::get<ResourceRequest>(prepared));
  request.protocol_version = m.params["_meta"][meta_key::protocol_version].get<std::string>();
  request.cancelled = cancelled;
  request.client_roots = std::move(roots);
  request.caller = caller.scope;
  const long long ttl = m.method == "resources/read" ? resource_read_ttl_ms : resource_list_ttl_ms;
  auto done = [this, id = m.id, uri = request.uri, ttl, reply, cancelled](ResourceOutcome outcome) {
    if (cancelled && cancelled->load()) {
      reply(std::string(), true);  // the client no longer wants an answer
      return;
    }
    json response = resource_response(id, uri, std::move(outcome), true);
    if (response.contains("result")) {
      json& result = response["result"];
      result["ttlMs"] = ttl;
      result["cacheScope"] = "private";
      result = complete(std::move(result));
    }
    reply(serialize(response), true);
  };
  try {
    start_resource_request(handler_, m.method, std::move(request), std::move(done));
  } catch (const std::exception& e) {
    reply(serialize(make_error(m.id, error_code::internal_error, std::string("Internal error: ") + e.what())),
          true);
  }
}

void StatelessDispatcher::call_tool(const Message& m, const Reply& reply,
                                    std::shared_ptr<std::atomic<bool>> cancelled,
                                    std::optional<std::vector<std::string>> roots, std::shared_ptr<InputRound> round,
                                    const Caller& caller) {
  auto prepared = prepare_tool_call(handler_.tools(), m);
  if (auto* refusal = std::get_if<json>(&prepared)) {
    if (refusal->contains("result")) (*refusal)["result"] = complete(std::move((*refusal)["result"]));
    reply(serialize(*refusal), true);
    return;
  }
  ToolCall call = std::move(std::get<ToolCall>(prepared));
  const json& meta = m.params["_meta"];
  call.protocol_version = meta[meta_key::protocol_version].get<std::string>();
  call.client = ClientInfo::from_json(meta.value(meta_key::client_info, json()));
  call.cancelled = cancelled;
  call.client_roots = std::move(roots);
  call.caller = caller.scope;
  // No log messages unless this request asked for them with a level (there is no session).
  std::optional<LogLevel> threshold;
  if (const auto level = meta.find(meta_key::log_level); level != meta.end())
    threshold = parse_log_level(level->get<std::string>());
  call.log = log_sender(info_.name, [threshold](LogLevel l) { return threshold && l >= *threshold; },
                        reply);
  call.progress = progress_sender(progress_token(m), true, reply);
  // No session to send the tool's own requests on: they travel as input requests.
  round->attach(call);
  auto task = TaskLink::attach(
      call, task_context(handler_, tasks_, m, caller.owner, [round] { return round->pending().empty(); },
                         [this, id = m.id, reply](json created) {
                           json result = complete(std::move(created));
                           result["resultType"] = "task";
                           reply(serialize(make_result(id, std::move(result))), true);
                         }));
  auto done = [this, id = m.id, reply, cancelled, round, task](ToolOutcome outcome) {
    if (task->finish(outcome)) return;  // a task: its answer went out when it started
    if (cancelled && cancelled->load()) {
      reply(std::string(), true);  // the client no longer wants an answer
      return;
    }
    if (auto* error = std::get_if<RequestError>(&outcome)) {
      reply(serialize(make_error(id, error->code, error->message)), true);
      return;
    }
    reply(serialize(round_response(id, *round, std::move(std::get<json>(outcome)))), true);
  };
  try {
    handler_.call_tool(std::move(call), std::move(done));
  } catch (const std::exception& e) {
    reply(serialize(make_error(m.id, error_code::internal_error, std::string("Internal error: ") + e.what())),
          true);
  }
}

}  // namespace mcpread::protocol
