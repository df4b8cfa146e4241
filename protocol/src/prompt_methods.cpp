#include "prompt_methods.hpp"

#include "method_helpers.hpp"
#include "mcpread/protocol/pagination.hpp"

#include <algorithm>
#include <exception>
#include <utility>

namespace mcpread::protocol {
namespace {

constexpr std::size_t prompts_page_size = 50;
// CompleteResult.completion.values holds at most 100 items (every schema version says so).
constexpr std::size_t max_completion_values = 100;

const PromptDefinition* find_prompt(const std::vector<PromptDefinition>& prompts, const std::string& name) {
  const auto it = std::find_if(prompts.begin(), prompts.end(),
                               [&](const PromptDefinition& p) { return p.name == name; });
  return it == prompts.end() ? nullptr : &*it;
}

MessageError unknown_prompt(const json& id, const std::vector<PromptDefinition>& prompts,
                            const std::string& name) {
  std::string available;
  for (const auto& p : prompts) available += (available.empty() ? "" : ", ") + p.name;
  return params_error(id, "unknown prompt \"" + name + "\"; available prompts: " + available);
}

// A {"name": "value", ...} object of strings, or the error naming what is wrong with it.
std::optional<MessageError> string_map(const json& id, const json& value, const std::string& what,
                                       std::map<std::string, std::string>* out) {
  if (value.is_null()) return std::nullopt;
  if (!value.is_object()) return params_error(id, "\"" + what + "\" must be an object of strings");
  for (const auto& [key, item] : value.items()) {
    if (!item.is_string())
      return params_error(id, "\"" + what + "." + key + "\" must be a string");
    (*out)[key] = item.get<std::string>();
  }
  return std::nullopt;
}

std::variant<PromptRequest, MessageError> prepare_get(const std::vector<PromptDefinition>& prompts,
                                                      const Message& m) {
  const auto name = m.params.find("name");
  if (name == m.params.end() || !name->is_string())
    return params_error(m.id, "\"prompts/get\" needs \"name\" (a string)");
  PromptRequest request;
  request.id = m.id;
  request.name = name->get<std::string>();
  const PromptDefinition* prompt = find_prompt(prompts, request.name);
  if (prompt == nullptr) return unknown_prompt(m.id, prompts, request.name);
  if (auto e = string_map(m.id, m.params.value("arguments", json()), "arguments", &request.arguments)) return *e;
  for (const auto& argument : prompt->arguments) {
    if (argument.required && request.arguments.count(argument.name) == 0)
      return params_error(m.id, "prompt \"" + prompt->name + "\" needs the argument \"" + argument.name + "\"");
  }
  return request;
}

std::variant<CompletionRequest, MessageError> prepare_complete(const std::vector<PromptDefinition>& prompts,
                                                               const Message& m) {
  CompletionRequest request;
  request.id = m.id;
  const auto ref = m.params.find("ref");
  std::string type;
  if (ref != m.params.end() && ref->is_object()) {
    const auto t = ref->find("type");
    if (t != ref->end() && t->is_string()) type = t->get<std::string>();
  }
  if (type == "ref/prompt") {
    const auto name = ref->find("name");  // find: the message is const, [] would not be safe
    if (name == ref->end() || !name->is_string())
      return params_error(m.id, "\"ref.name\" must be a string (a prompt's name)");
    if (find_prompt(prompts, name->get<std::string>()) == nullptr)
      return unknown_prompt(m.id, prompts, name->get<std::string>());
  } else if (type == "ref/resource") {
    if (!ref->contains("uri") || !(*ref)["uri"].is_string())
      return params_error(m.id, "\"ref.uri\" must be a string (a resource template)");
  } else {
    return params_error(m.id, "\"ref\" must be {\"type\": \"ref/prompt\", \"name\"} or "
                              "{\"type\": \"ref/resource\", \"uri\"}");
  }
  request.ref = *ref;
  const auto argument = m.params.find("argument");
  if (argument == m.params.end() || !argument->is_object() || !argument->contains("name") ||
      !(*argument)["name"].is_string() || !argument->contains("value") || !(*argument)["value"].is_string())
    return params_error(m.id, "\"argument\" must be {\"name\": string, \"value\": string}");
  request.argument = (*argument)["name"].get<std::string>();
  request.value = (*argument)["value"].get<std::string>();
  if (const auto context = m.params.find("context"); context != m.params.end() && !context->is_null()) {
    if (!context->is_object()) return params_error(m.id, "\"context\" must be an object");
    if (auto e = string_map(m.id, context->value("arguments", json()), "context.arguments", &request.context)) return *e;
  }
  return request;
}

// The response for a handler's outcome; a completion keeps the schema's bound on its values.
json outcome_response(const json& id, RequestOutcome outcome, bool completion) {
  if (auto* e = std::get_if<RequestError>(&outcome)) return make_error(id, e->code, e->message);
  json& result = std::get<json>(outcome);
  const auto body = completion && result.is_object() ? result.find("completion") : result.end();
  if (body != result.end() && body->is_object()) {
    const auto values = body->find("values");
    if (values != body->end() && values->is_array() && values->size() > max_completion_values) {
      values->erase(values->begin() + static_cast<std::ptrdiff_t>(max_completion_values), values->end());
      (*body)["hasMore"] = true;
    }
  }
  return make_result(id, std::move(result));
}

}  // namespace

bool offers_prompts(const ServerHandler& handler) { return !handler.prompts().empty(); }

bool is_prompt_method(std::string_view method) {
  return method == "prompts/list" || method == "prompts/get" || method == "completion/complete";
}

bool serves_prompt_method(const ServerHandler& handler, std::string_view method) {
  if (method == "completion/complete") return handler.offers_completions();
  return is_prompt_method(method) && offers_prompts(handler);
}

json list_prompts(const std::vector<PromptDefinition>& prompts, const Message& m,
                  const VersionFeatures& features, std::optional<MessageError>* error) {
  const auto start = list_start(m, "prompts", "prompts/list", prompts.size(), error);
  if (!start) return nullptr;
  const std::size_t position = *start;
  json list = json::array();
  const std::size_t end = std::min(prompts.size(), position + prompts_page_size);
  for (std::size_t i = position; i < end; ++i) {
    const PromptDefinition& p = prompts[i];
    json entry{{"name", p.name}};
    if (features.titles && !p.title.empty()) entry["title"] = p.title;
    if (!p.description.empty()) entry["description"] = p.description;
    if (!p.arguments.empty()) {
      json arguments = json::array();
      for (const auto& a : p.arguments) {
        json argument{{"name", a.name}, {"required", a.required}};
        if (features.titles && !a.title.empty()) argument["title"] = a.title;
        if (!a.description.empty()) argument["description"] = a.description;
        arguments.push_back(std::move(argument));
      }
      entry["arguments"] = std::move(arguments);
    }
    list.push_back(std::move(entry));
  }
  json result{{"prompts", std::move(list)}};
  if (end < prompts.size()) result["nextCursor"] = encode_cursor("prompts", end);
  return result;
}

void serve_prompt_request(ServerHandler& handler, const Message& m, const std::string& version,
                          std::shared_ptr<std::atomic<bool>> cancelled,
                          std::function<void(json response)> respond,
                          const std::function<void(PromptRequest&)>& attach) {
  const bool completion = m.method == "completion/complete";
  auto done = [id = m.id, completion, respond](RequestOutcome outcome) {
    respond(outcome_response(id, std::move(outcome), completion));
  };
  try {
    if (completion) {
      auto prepared = prepare_complete(handler.prompts(), m);
      if (auto* e = std::get_if<MessageError>(&prepared)) {
        respond(make_error(*e));
        return;
      }
      CompletionRequest request = std::move(std::get<CompletionRequest>(prepared));
      request.protocol_version = version;
      request.cancelled = std::move(cancelled);
      handler.complete(std::move(request), std::move(done));
    } else {
      auto prepared = prepare_get(handler.prompts(), m);
      if (auto* e = std::get_if<MessageError>(&prepared)) {
        respond(make_error(*e));
        return;
      }
      PromptRequest request = std::move(std::get<PromptRequest>(prepared));
      request.protocol_version = version;
      request.cancelled = std::move(cancelled);
      if (attach) attach(request);
      handler.get_prompt(std::move(request), std::move(done));
    }
  } catch (const std::exception& e) {
    respond(make_error(m.id, error_code::internal_error, std::string("Internal error: ") + e.what()));
  }
}

}  // namespace mcpread::protocol
