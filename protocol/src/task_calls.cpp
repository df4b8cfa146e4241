#include "task_calls.hpp"

#include "method_helpers.hpp"

#include "mcpread/protocol/stateless.hpp"

#include <utility>

namespace mcpread::protocol {

bool is_task_method(std::string_view method) {
  return method == "tasks/get" || method == "tasks/update" || method == "tasks/cancel";
}

bool offers_tasks(const ServerHandler& handler) {
  for (const ToolDefinition& tool : handler.tools())
    if (tool.task_support != TaskSupport::forbidden) return true;
  return false;
}

bool declares_tasks(const json& client_capabilities) {
  const auto extensions = client_capabilities.find("extensions");
  return extensions != client_capabilities.end() && extensions->is_object() && extensions->contains(tasks_extension);
}

json task_requirement() { return json{{"extensions", {{tasks_extension, json::object()}}}}; }

std::optional<MessageError> task_method_error(const Message& m, const json& client_capabilities) {
  if (!declares_tasks(client_capabilities))
    return MessageError{m.id, error_code::missing_client_capability,
                        std::string("Missing required client capability: extension ") + tasks_extension + ". " +
                            m.method + " serves only clients that declare it in _meta[\"" +
                            meta_key::client_capabilities + "\"].extensions",
                        json{{"requiredCapabilities", task_requirement()}}};
  if (m.method == "tasks/update") {
    const auto responses = m.params.find("inputResponses");
    if (responses == m.params.end() || !responses->is_object())
      return params_error(m.id, "tasks/update needs \"inputResponses\", an object of answers by input request key");
  }
  return std::nullopt;
}

json serve_task_method(TaskStore& store, const Message& m, const std::string& owner) {
  const auto id_it = m.params.find("taskId");
  if (id_it == m.params.end() || !id_it->is_string())
    return make_error(params_error(m.id, m.method + " needs \"taskId\", a string"));
  const std::string& id = id_it->get_ref<const std::string&>();
  const auto unknown = [&] {
    return make_error(params_error(m.id, "Unknown task: " + id + " (never created here, or past its ttlMs)"));
  };
  if (m.method == "tasks/get") {
    auto task = store.get(id, owner);
    return task ? make_result(m.id, std::move(*task)) : unknown();
  }
  const bool known = m.method == "tasks/update" ? store.update(id, m.params["inputResponses"], owner)
                                                  : store.cancel(id, owner);
  // The acknowledgement is empty: the task's new state is read with tasks/get.
  return known ? make_result(m.id, json::object()) : unknown();
}

TaskLink::Context task_context(const ServerHandler& handler, std::shared_ptr<TaskStore> store, const Message& m,
                               std::string owner, std::function<bool()> can_start,
                               std::function<void(json created)> answer) {
  TaskLink::Context context;
  context.owner = std::move(owner);
  context.store = std::move(store);
  context.client_capabilities = m.params["_meta"][meta_key::client_capabilities];
  const auto name = m.params.find("name");
  for (const ToolDefinition& tool : handler.tools())
    if (name != m.params.end() && name->is_string() && tool.name == name->get_ref<const std::string&>())
      context.allowed = tool.task_support != TaskSupport::forbidden && declares_tasks(context.client_capabilities);
  // A call whose input requests of this round are pending answers them first (multi round-trip
  // requests), and becomes a task on a later round.
  context.can_start = std::move(can_start);
  context.answer = std::move(answer);
  return context;
}

std::shared_ptr<TaskLink> TaskLink::attach(ToolCall& call, Context context) {
  auto link = std::make_shared<TaskLink>();
  link->context_ = std::move(context);
  auto cancelled = call.cancelled;
  call.start_task = [link, cancelled](const std::string& status_message) { return link->start(status_message, cancelled); };
  call.request = [link, ask = std::move(call.request)](const std::string& method, json params,
                                                        std::function<void(ClientResponse)> done) {
    if (auto id = link->id()) return link->context_.store->ask(*id, method, std::move(params), std::move(done));
    if (ask) return ask(method, std::move(params), std::move(done));
    done(ClientRequestError{ClientRequestError::Kind::not_supported, error_code::internal_error,
                            method + " cannot be sent from here"});
  };
  // Named keys are the input round's (stateless multi round-trip requests); a task names its own.
  call.request_as = [link, ask = std::move(call.request_as)](const std::string& key, const std::string& method,
                                                              json params, std::function<void(ClientResponse)> done) {
    if (auto id = link->id()) return link->context_.store->ask(*id, method, std::move(params), std::move(done));
    if (ask) return ask(key, method, std::move(params), std::move(done));
    done(ClientRequestError{ClientRequestError::Kind::not_supported, error_code::internal_error,
                            method + " cannot be sent from here"});
  };
  call.progress = [link, progress = std::move(call.progress)](double done, std::optional<double> total,
                                                              const std::string& message) {
    if (auto id = link->id()) {
      std::string text = message;
      if (text.empty()) {
        text = std::to_string(static_cast<long long>(done));
        if (total) text += " of " + std::to_string(static_cast<long long>(*total));
      }
      link->context_.store->set_message(*id, text);
    } else if (progress) {
      progress(done, total, message);
    }
  };
  call.log = [link, log = std::move(call.log)](LogLevel level, const std::string& message) {
    if (!link->id() && log) log(level, message);
  };
  return link;
}

bool TaskLink::start(const std::string& status_message, const std::shared_ptr<std::atomic<bool>>& cancelled) {
  std::lock_guard lock(mutex_);
  if (id_ || finished_ || !context_.allowed || !context_.store) return false;
  if (cancelled && cancelled->load()) return false;
  if (context_.can_start && !context_.can_start()) return false;
  auto created = context_.store->create(cancelled, status_message, context_.client_capabilities,
                                        context_.owner);
  if (!created) return false;  // full: the call goes on synchronously
  id_ = (*created)["taskId"].get<std::string>();
  // Stored before it is announced, so a tasks/get right after the answer finds it.
  context_.answer(std::move(*created));
  return true;
}

std::optional<std::string> TaskLink::id() const {
  std::lock_guard lock(mutex_);
  return id_;
}

bool TaskLink::finish(ToolOutcome& outcome) {
  std::optional<std::string> id;
  {
    std::lock_guard lock(mutex_);
    finished_ = true;
    id = id_;
  }
  if (!id) return false;
  context_.store->finish(*id, std::move(outcome));
  return true;
}

}  // namespace mcpread::protocol
