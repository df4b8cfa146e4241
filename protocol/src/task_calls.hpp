#pragma once
// How the stateless dispatcher serves the tasks extension: a tools/call that becomes a task
// (ToolCall::start_task) and the methods that read, answer and cancel tasks.
#include "tasks.hpp"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace mcpread::protocol {

// tasks/get, tasks/update and tasks/cancel (tasks/result and tasks/list were removed by SEP-2663).
bool is_task_method(std::string_view method);
// Whether one of the handler's tools can run as a task: the extension is then declared in
// server/discover and the task methods are served.
bool offers_tasks(const ServerHandler& handler);
// Whether a request's client capabilities declare the tasks extension.
bool declares_tasks(const json& client_capabilities);
// The client capabilities a tool that must run as a task requires (the tasks extension).
json task_requirement();

// -32021 for a task method from a client that did not declare the extension; -32602 for a
// tasks/update whose inputResponses is not an object.
std::optional<MessageError> task_method_error(const Message& m, const json& client_capabilities);
// Serves a task method check() accepted: the response, whose result still lacks resultType and
// serverInfo. Another owner's task is answered as unknown.
json serve_task_method(TaskStore& store, const Message& m, const std::string& owner = {});

// The link between one tool call and the task it may become.
class TaskLink {
 public:
  struct Context {
    std::shared_ptr<TaskStore> store;
    bool allowed = false;  // the client declared the extension and the tool may run as a task
    json client_capabilities;
    std::string owner;  // who sent the call: the task is theirs
    std::function<bool()> can_start;           // e.g. no input request of this round pending
    std::function<void(json created)> answer;  // sends the CreateTaskResult as the call's answer
  };
  // Sets call.start_task, and routes call.request, call.request_as, call.progress and call.log to the task once
  // the call is one (requests become the task's inputRequests, progress its statusMessage, log
  // messages are dropped: a task has no stream to send them on).
  static std::shared_ptr<TaskLink> attach(ToolCall& call, Context context);

  // The task's id once the call became one.
  [[nodiscard]] std::optional<std::string> id() const;
  // Hands the call's outcome to its task; false when the call is not a task (answer it as usual).
  bool finish(ToolOutcome& outcome);

 private:
  bool start(const std::string& status_message, const std::shared_ptr<std::atomic<bool>>& cancelled);

  Context context_;
  mutable std::mutex mutex_;
  std::optional<std::string> id_;
  bool finished_ = false;
};

// The context of one tools/call `m` (its tool, the client's capabilities): `can_start` says
// whether it may become a task now, `answer` sends its CreateTaskResult.
TaskLink::Context task_context(const ServerHandler& handler, std::shared_ptr<TaskStore> store, const Message& m,
                               std::string owner, std::function<bool()> can_start, std::function<void(json created)> answer);

}  // namespace mcpread::protocol
