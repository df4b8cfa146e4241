#include "method_helpers.hpp"

#include "task_calls.hpp"

#include "mcpread/protocol/pagination.hpp"
#include "prompt_methods.hpp"

#include <algorithm>
#include <utility>

namespace mcpread::protocol {
namespace {
constexpr std::size_t tools_page_size = 50;
constexpr std::size_t templates_page_size = 50;
}

json server_capabilities(const ServerHandler& handler, std::string_view version) {
  const VersionFeatures features = features_of(version);
  // Sessions get no list_changed notifications; from 2026-07-28 a client follows the lists the
  // handler says can change on a subscriptions/listen stream.
  const ListChanges changes = features.stateless ? handler.list_changes() : ListChanges{};
  json caps{{"logging", json::object()}, {"tools", {{"listChanged", changes.tools}}}};
  // Each capability only when the handler offers it.
  if (offers_resources(handler)) {
    caps["resources"] = json::object();
    // Stateless versions replace resources/subscribe with subscriptions/listen (not served).
    if (handler.offers_subscriptions() && features.subscriptions) caps["resources"]["subscribe"] = true;
    if (changes.resources) caps["resources"]["listChanged"] = true;
  }
  if (offers_prompts(handler)) caps["prompts"] = {{"listChanged", changes.prompts}};
  // 2024-11-05 has completion/complete but not yet the capability that announces it.
  if (handler.offers_completions() && features.completions) caps["completions"] = json::object();
  // The tasks extension (SEP-2663) is of the stateless era; sessions never see it.
  if (is_stateless_version(version) && offers_tasks(handler)) caps["extensions"][tasks_extension] = json::object();
  return caps;
}

ClientInfo ClientInfo::from_json(const json& info) {
  ClientInfo client;
  if (!info.is_object()) return client;
  if (const auto name = info.find("name"); name != info.end() && name->is_string()) client.name = *name;
  if (const auto version = info.find("version"); version != info.end() && version->is_string())
    client.version = *version;
  return client;
}

MessageError id_in_use(const json& id) {
  return {id, error_code::invalid_request,
          "Invalid Request: id " + id_key(id) + " is already used by a request in progress"};
}

MessageError params_error(const json& id, std::string message) {
  return MessageError{id, error_code::invalid_params, "Invalid params: " + std::move(message)};
}

std::variant<ToolCall, json> prepare_tool_call(const std::vector<ToolDefinition>& tools,
                                               const Message& m) {
  const auto name = m.params.find("name");
  if (name == m.params.end() || !name->is_string())
    return make_error(params_error(m.id, "\"tools/call\" needs \"name\" (a string)"));
  const std::string tool_name = name->get<std::string>();
  const bool known = std::any_of(tools.begin(), tools.end(),
                                 [&](const ToolDefinition& t) { return t.name == tool_name; });
  if (!known) {
    std::string available;
    for (const auto& t : tools) available += (available.empty() ? "" : ", ") + t.name;
    return make_error(m.id, error_code::invalid_params,
                      "Unknown tool: " + tool_name + ". Available tools: " + available);
  }
  ToolCall call;
  call.id = m.id;
  call.name = tool_name;
  if (const auto args = m.params.find("arguments"); args != m.params.end() && !args->is_null()) {
    if (!args->is_object()) {
      // Input problems are results the model can see and correct, not protocol errors.
      return make_result(m.id, json{{"content", json::array({json{{"type", "text"},
                                                                  {"text", "Invalid arguments: \"arguments\" must be an object"}}})},
                                    {"isError", true}});
    }
    call.arguments = *args;
  }
  return call;
}

json progress_token(const Message& m) {
  const auto meta = m.params.find("_meta");
  if (meta == m.params.end() || !meta->is_object()) return nullptr;
  const auto t = meta->find("progressToken");
  if (t != meta->end() && (t->is_string() || t->is_number_integer())) return *t;
  return nullptr;
}

std::function<void(double, std::optional<double>, const std::string&)> progress_sender(
    json token, bool with_message, Reply reply) {
  return [token = std::move(token), with_message, reply = std::move(reply)](
             double progress, std::optional<double> total, const std::string& text) {
    if (token.is_null()) return;
    json params{{"progressToken", token}, {"progress", progress}};
    if (total) params["total"] = *total;
    if (with_message && !text.empty()) params["message"] = text;
    reply(serialize(make_notification("notifications/progress", std::move(params))), false);
  };
}

std::function<void(LogLevel, const std::string&)> log_sender(std::string logger,
                                                            std::function<bool(LogLevel)> passes,
                                                            Reply reply) {
  return [logger = std::move(logger), passes = std::move(passes), reply = std::move(reply)](
             LogLevel level, const std::string& text) {
    if (!passes(level)) return;
    reply(serialize(make_notification("notifications/message",
                                      {{"level", to_string(level)}, {"logger", logger}, {"data", text}})),
          false);
  };
}

std::optional<std::size_t> list_start(const Message& m, std::string_view tag, std::string_view method,
                                      std::size_t count, std::optional<MessageError>* error) {
  const auto cursor = m.params.find("cursor");
  if (cursor == m.params.end() || cursor->is_null()) return 0;
  std::optional<std::size_t> decoded;
  if (cursor->is_string()) decoded = decode_cursor(tag, cursor->get<std::string>(), count);
  if (!decoded)
    *error = params_error(m.id, "unknown \"cursor\"; pass a nextCursor from an earlier " + std::string(method));
  return decoded;
}

json list_tools(const std::vector<ToolDefinition>& tools, const Message& m,
                const VersionFeatures& features, std::optional<MessageError>* error) {
  const auto start = list_start(m, "tools", "tools/list", tools.size(), error);
  if (!start) return nullptr;
  const std::size_t position = *start;
  json list = json::array();
  const std::size_t end = std::min(tools.size(), position + tools_page_size);
  for (std::size_t i = position; i < end; ++i) list.push_back(render_tool(tools[i], features));
  json result{{"tools", std::move(list)}};
  if (end < tools.size()) result["nextCursor"] = encode_cursor("tools", end);
  return result;
}

bool offers_resources(const ServerHandler& handler) { return !handler.resource_templates().empty(); }

bool is_resource_method(std::string_view method) {
  return method == "resources/templates/list" || method == "resources/list" ||
         method == "resources/read";
}

bool is_subscription_method(std::string_view method) {
  return method == "resources/subscribe" || method == "resources/unsubscribe";
}

json list_resource_templates(const std::vector<ResourceTemplate>& templates, const Message& m,
                             const VersionFeatures& features, std::optional<MessageError>* error) {
  const auto start = list_start(m, "resource-templates", "resources/templates/list", templates.size(), error);
  if (!start) return nullptr;
  const std::size_t position = *start;
  json list = json::array();
  const std::size_t end = std::min(templates.size(), position + templates_page_size);
  for (std::size_t i = position; i < end; ++i) {
    const ResourceTemplate& t = templates[i];
    json entry{{"uriTemplate", t.uri_template}, {"name", t.name}};
    if (features.titles && !t.title.empty()) entry["title"] = t.title;
    if (!t.description.empty()) entry["description"] = t.description;
    if (!t.mime_type.empty()) entry["mimeType"] = t.mime_type;
    list.push_back(std::move(entry));
  }
  json result{{"resourceTemplates", std::move(list)}};
  if (end < templates.size()) result["nextCursor"] = encode_cursor("resource-templates", end);
  return result;
}

std::variant<ResourceRequest, MessageError> prepare_resource_request(const Message& m) {
  ResourceRequest request;
  request.id = m.id;
  if (m.method == "resources/read") {
    const auto uri = m.params.find("uri");
    if (uri == m.params.end() || !uri->is_string() || uri->get_ref<const std::string&>().empty())
      return params_error(m.id, "\"resources/read\" needs \"uri\" (a non-empty string)");
    request.uri = uri->get<std::string>();
  } else if (const auto cursor = m.params.find("cursor");
             cursor != m.params.end() && !cursor->is_null()) {
    if (!cursor->is_string())
      return params_error(m.id, "unknown \"cursor\"; pass a nextCursor from an earlier resources/list");
    request.cursor = cursor->get<std::string>();
  }
  return request;
}

void start_resource_request(ServerHandler& handler, const std::string& method,
                            ResourceRequest request, std::function<void(ResourceOutcome)> done) {
  if (method == "resources/read")
    handler.read_resource(std::move(request), std::move(done));
  else
    handler.list_resources(std::move(request), std::move(done));
}

json resource_response(const json& id, const std::string& uri, ResourceOutcome outcome,
                       bool stateless) {
  if (auto* result = std::get_if<json>(&outcome)) return make_result(id, std::move(*result));
  const ResourceError& e = std::get<ResourceError>(outcome);
  json data = uri.empty() ? json(nullptr) : json{{"uri", uri}};
  switch (e.kind) {
    case ResourceError::Kind::not_found:
      // The reason (missing, outside the roots, ...) rides along for people reading logs.
      data["reason"] = e.message;
      return make_error(MessageError{id, stateless ? error_code::invalid_params : error_code::resource_not_found,
                                     "Resource not found", std::move(data)});
    case ResourceError::Kind::invalid:
      return make_error(MessageError{id, error_code::invalid_params, "Invalid params: " + e.message,
                                     std::move(data)});
    case ResourceError::Kind::not_offered:
      return make_error(MessageError{id, error_code::method_not_found, e.message});
    case ResourceError::Kind::failed:
      break;
  }
  return make_error(MessageError{id, error_code::internal_error, e.message, std::move(data)});
}

}  // namespace mcpread::protocol
