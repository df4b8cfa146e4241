#pragma once
// The tasks extension (io.modelcontextprotocol/tasks, SEP-2663): a tool call that outlives its
// request. The call's POST is answered with the task's id (CreateTaskResult); the client polls
// tasks/get until the task is completed (the CallToolResult inlined), failed (a protocol error)
// or cancelled, answers the task's own input requests with tasks/update, and ends it with
// tasks/cancel. TaskStore keeps the tasks of one dispatcher (one HTTP endpoint, one stdio
// session); every method is safe from any thread.
#include "mcpread/protocol/server_handler.hpp"

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace mcpread::protocol {

class TaskStore {
 public:
  using Clock = std::function<std::chrono::system_clock::time_point()>;
  // Beyond this many stored tasks (and none finished to make room), calls run synchronously.
  static constexpr std::size_t max_tasks = 256;
  // How long a task can be read after it was created (SEP-2663 ttlMs), and how often to poll.
  static constexpr long long ttl_ms = 60LL * 60 * 1000;
  static constexpr long long poll_interval_ms = 500;

  // `id_prefix` starts every task id (a replica's routing key and a dot, as for session ids: a
  // load balancer sends tasks/get, whose Mcp-Name header is the id, to the replica running it).
  explicit TaskStore(Clock now = std::chrono::system_clock::now, std::string id_prefix = {});
  ~TaskStore();
  TaskStore(const TaskStore&) = delete;
  TaskStore& operator=(const TaskStore&) = delete;

  // Stores a new `working` task whose call stops when `cancelled` is set; the task's fields for a
  // CreateTaskResult (without resultType), or nullopt when the store is full. Input requests go
  // only to a client whose `client_capabilities` allow them. `owner`: who created it (see get).
  std::optional<json> create(std::shared_ptr<std::atomic<bool>> cancelled, const std::string& status_message,
                             json client_capabilities, std::string owner = {});
  // The call's end: `completed` with its CallToolResult, or `failed` with its protocol error.
  // Dropped when the task was cancelled or has expired.
  void finish(const std::string& id, ToolOutcome outcome);
  // What the task is doing now (tasks/get's statusMessage).
  void set_message(const std::string& id, const std::string& message);
  // The call asks the client something: the task is `input_required` until tasks/update brings the
  // answer, which goes to `done` (so does the cancellation or the end of the task).
  void ask(const std::string& id, const std::string& method, json params, std::function<void(ClientResponse)> done);

  // tasks/get: the DetailedTask (without resultType), or nullopt for an unknown or expired id.
  // get, update and cancel take the asker's owner: another owner's task is unknown to them.
  [[nodiscard]] std::optional<json> get(const std::string& id, const std::string& owner = {});
  // tasks/update: hands each answer whose key is pending to its request; other keys are ignored.
  // False for an unknown id.
  bool update(const std::string& id, const json& input_responses, const std::string& owner = {});
  // tasks/cancel: a task still running becomes `cancelled` and its call is told to stop; a
  // finished one is left as it is. False for an unknown id.
  bool cancel(const std::string& id, const std::string& owner = {});
  // Shutdown: every running task is cancelled.
  void cancel_all();

 private:
  struct Input {
    std::string method;
    json params;
    std::function<void(ClientResponse)> done;
  };
  struct Task {
    std::string status = "working";
    std::string status_message;
    std::chrono::system_clock::time_point created;
    std::chrono::system_clock::time_point updated;
    json result;  // completed: the CallToolResult; failed: the error object
    std::map<std::string, Input> inputs;
    unsigned next_input = 0;
    json client_capabilities;
    std::string owner;
    std::shared_ptr<std::atomic<bool>> cancelled;
    [[nodiscard]] bool finished() const { return status == "completed" || status == "failed" || status == "cancelled"; }
  };
  using Abandoned = std::vector<std::pair<std::string, std::function<void(ClientResponse)>>>;

  // Under mutex_: drops tasks past their ttlMs (stopping those still running); makes room for one
  // more by dropping the oldest finished task when the store is full.
  void purge(std::chrono::system_clock::time_point now, Abandoned* abandoned);
  // Under mutex_: ends `task` with `status`, collecting its pending input requests.
  static void end(Task& task, const std::string& status, std::chrono::system_clock::time_point now,
                  Abandoned* abandoned);
  static void abandon(Abandoned& abandoned, const std::string& why);
  [[nodiscard]] json fields(const std::string& id, const Task& task) const;

  Clock now_;
  std::string id_prefix_;
  std::mutex mutex_;
  std::map<std::string, Task> tasks_;
};

// A task's times as tasks carry them: ISO 8601 in UTC with milliseconds.
std::string iso8601(std::chrono::system_clock::time_point t);

}  // namespace mcpread::protocol
