#include "tasks.hpp"

#include "client_requests.hpp"

#include "mcpread/common/platform.hpp"

#include <array>
#include <ctime>
#include <exception>
#include <utility>

namespace mcpread::protocol {
namespace {

// 128 random bits in hex. The id is all a client needs to read or cancel a task (mcp-read has no
// authorization), so it must not be guessable (SEP-2663 §Security).
std::optional<std::string> random_id() {
  std::array<unsigned char, 16> bytes{};
  std::size_t got = 0;
  while (got < bytes.size()) {
    const std::ptrdiff_t n = platform::random_bytes(bytes.data() + got, bytes.size() - got);
    if (n <= 0) return std::nullopt;
    got += static_cast<std::size_t>(n);
  }
  static constexpr char hex[] = "0123456789abcdef";
  std::string id;
  for (unsigned char b : bytes) {
    id += hex[b >> 4];
    id += hex[b & 0xF];
  }
  return id;
}

void call_quietly(const std::function<void(ClientResponse)>& done, ClientResponse response) {
  try {
    done(std::move(response));
  } catch (const std::exception&) {
    // The tool's own failure; its call still ends through its `done`.
  }
}

}  // namespace

std::string iso8601(std::chrono::system_clock::time_point t) {
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
  const std::time_t seconds = static_cast<std::time_t>(ms / 1000);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  std::array<char, 32> text{};
  const std::size_t n = std::strftime(text.data(), text.size(), "%Y-%m-%dT%H:%M:%S", &utc);
  const auto millis = static_cast<int>(ms % 1000);
  std::string out(text.data(), n);
  out += '.';
  out += static_cast<char>('0' + millis / 100);
  out += static_cast<char>('0' + millis / 10 % 10);
  out += static_cast<char>('0' + millis % 10);
  out += 'Z';
  return out;
}

TaskStore::TaskStore(Clock now, std::string id_prefix) : now_(std::move(now)), id_prefix_(std::move(id_prefix)) {}

TaskStore::~TaskStore() { cancel_all(); }

void TaskStore::end(Task& task, const std::string& status, std::chrono::system_clock::time_point now,
                    Abandoned* abandoned) {
  task.status = status;
  task.updated = now;
  for (auto& [key, input] : task.inputs) abandoned->emplace_back(input.method, std::move(input.done));
  task.inputs.clear();
}

void TaskStore::abandon(Abandoned& abandoned, const std::string& why) {
  for (auto& [method, done] : abandoned) call_quietly(done, client_request_cancelled(method, why));
}

void TaskStore::purge(std::chrono::system_clock::time_point now, Abandoned* abandoned) {
  const auto ttl = std::chrono::milliseconds(ttl_ms);
  for (auto it = tasks_.begin(); it != tasks_.end();) {
    if (now - it->second.created < ttl) {
      ++it;
      continue;
    }
    if (!it->second.finished()) {
      it->second.cancelled->store(true);
      end(it->second, "cancelled", now, abandoned);
    }
    it = tasks_.erase(it);
  }
  if (tasks_.size() < max_tasks) return;
  auto oldest = tasks_.end();
  for (auto it = tasks_.begin(); it != tasks_.end(); ++it)
    if (it->second.finished() && (oldest == tasks_.end() || it->second.updated < oldest->second.updated)) oldest = it;
  if (oldest != tasks_.end()) tasks_.erase(oldest);
}

json TaskStore::fields(const std::string& id, const Task& task) const {
  json out{{"taskId", id},
           {"status", task.status},
           {"createdAt", iso8601(task.created)},
           {"lastUpdatedAt", iso8601(task.updated)},
           {"ttlMs", ttl_ms},
           {"pollIntervalMs", poll_interval_ms}};
  if (!task.status_message.empty()) out["statusMessage"] = task.status_message;
  return out;
}

std::optional<json> TaskStore::create(std::shared_ptr<std::atomic<bool>> cancelled, const std::string& status_message,
                                      json client_capabilities, std::string owner) {
  auto id = random_id();
  if (!id) return std::nullopt;
  id->insert(0, id_prefix_);
  Abandoned abandoned;
  std::optional<json> created;
  {
    std::lock_guard lock(mutex_);
    const auto now = now_();
    purge(now, &abandoned);
    if (tasks_.size() < max_tasks) {
      Task task;
      task.status_message = status_message;
      task.created = task.updated = now;
      task.client_capabilities = std::move(client_capabilities);
      task.owner = std::move(owner);
      task.cancelled = cancelled ? std::move(cancelled) : std::make_shared<std::atomic<bool>>(false);
      created = fields(*id, task);
      tasks_.emplace(*id, std::move(task));
    }
  }
  abandon(abandoned, "the task expired");
  return created;
}

void TaskStore::finish(const std::string& id, ToolOutcome outcome) {
  Abandoned abandoned;
  {
    std::lock_guard lock(mutex_);
    const auto it = tasks_.find(id);
    if (it == tasks_.end() || it->second.finished()) return;  // cancelled or expired: nobody wants it
    Task& task = it->second;
    if (auto* error = std::get_if<RequestError>(&outcome)) {
      task.result = json{{"code", error->code}, {"message", error->message}};
      end(task, "failed", now_(), &abandoned);
    } else {
      task.result = std::move(std::get<json>(outcome));
      end(task, "completed", now_(), &abandoned);
    }
  }
  abandon(abandoned, "the task finished before the client answered");
}

void TaskStore::set_message(const std::string& id, const std::string& message) {
  std::lock_guard lock(mutex_);
  const auto it = tasks_.find(id);
  if (it == tasks_.end() || it->second.finished()) return;
  it->second.status_message = message;
  it->second.updated = now_();
}

void TaskStore::ask(const std::string& id, const std::string& method, json params,
                    std::function<void(ClientResponse)> done) {
  std::optional<ClientResponse> refused;
  {
    std::lock_guard lock(mutex_);
    const auto it = tasks_.find(id);
    if (it == tasks_.end() || it->second.finished()) {
      refused = client_request_cancelled(method, "the task has ended");
    } else if (auto cannot = cannot_ask(method, it->second.client_capabilities, features_of(stateless_versions.back()))) {
      refused = std::move(*cannot);
    } else if (!params.is_null() && !params.is_object()) {
      refused = ClientRequestError{ClientRequestError::Kind::not_supported, error_code::invalid_params,
                                   method + ": the parameters must be an object"};
    } else {
      Task& task = it->second;
      // Keys are never reused within a task, so a late answer cannot reach a later question.
      const std::string key = "input-" + std::to_string(++task.next_input);
      task.inputs[key] = Input{method, params.is_null() ? json::object() : std::move(params), std::move(done)};
      task.status = "input_required";
      task.updated = now_();
      return;
    }
  }
  call_quietly(done, std::move(*refused));
}

std::optional<json> TaskStore::get(const std::string& id, const std::string& owner) {
  Abandoned abandoned;
  std::optional<json> out;
  {
    std::lock_guard lock(mutex_);
    purge(now_(), &abandoned);
    const auto it = tasks_.find(id);
    if (it != tasks_.end() && it->second.owner == owner) {
      const Task& task = it->second;
      out = fields(id, task);
      if (task.status == "completed") (*out)["result"] = task.result;
      if (task.status == "failed") (*out)["error"] = task.result;
      if (!task.inputs.empty()) {
        json requests = json::object();
        for (const auto& [key, input] : task.inputs) requests[key] = {{"method", input.method}, {"params", input.params}};
        (*out)["inputRequests"] = std::move(requests);
      }
    }
  }
  abandon(abandoned, "the task expired");
  return out;
}

bool TaskStore::update(const std::string& id, const json& input_responses, const std::string& owner) {
  std::vector<std::pair<std::function<void(ClientResponse)>, ClientResponse>> answered;
  {
    std::lock_guard lock(mutex_);
    const auto it = tasks_.find(id);
    if (it == tasks_.end() || it->second.owner != owner) return false;
    Task& task = it->second;
    for (const auto& [key, answer] : input_responses.items()) {
      const auto input = task.inputs.find(key);
      if (input == task.inputs.end()) continue;  // unknown or answered already: ignored
      answered.emplace_back(std::move(input->second.done), client_result(input->second.method, answer));
      task.inputs.erase(input);
    }
    if (!answered.empty()) {
      task.updated = now_();
      if (task.inputs.empty() && task.status == "input_required") task.status = "working";
    }
  }
  // Outside the lock: a tool may finish (or ask again) from its callback.
  for (auto& [done, response] : answered) call_quietly(done, std::move(response));
  return true;
}

bool TaskStore::cancel(const std::string& id, const std::string& owner) {
  Abandoned abandoned;
  {
    std::lock_guard lock(mutex_);
    const auto it = tasks_.find(id);
    if (it == tasks_.end() || it->second.owner != owner) return false;
    if (!it->second.finished()) {
      it->second.cancelled->store(true);
      end(it->second, "cancelled", now_(), &abandoned);
    }
  }
  abandon(abandoned, "the task was cancelled");
  return true;
}

void TaskStore::cancel_all() {
  Abandoned abandoned;
  {
    std::lock_guard lock(mutex_);
    for (auto& [id, task] : tasks_) {
      if (task.finished()) continue;
      task.cancelled->store(true);
      end(task, "cancelled", now_(), &abandoned);
    }
  }
  abandon(abandoned, "the server is shutting down");
}

}  // namespace mcpread::protocol
