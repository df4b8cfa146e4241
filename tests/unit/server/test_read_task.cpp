// mcp-read's `read` as a task (tasks extension): past --task-after-ms the call asks to become a
// task, named after its file; a call that cannot become one goes on in its request; the task's
// cancellation reaches the reader. start_task is the test's own, standing in for the dispatcher.
#include "fixtures.hpp"
#include "roots_state.hpp"
#include "tool_host.hpp"

#include <doctest/doctest.h>

#include <future>
#include <string>
#include <vector>

using namespace mcpread;
using mcpread::test::TempDir;
using nlohmann::json;

namespace {

struct Host {
  explicit Host(const TempDir& dir, unsigned task_after_ms) : roots(roots_of(dir), false), host(config_with(task_after_ms), roots, pool) {}
  static readers::Roots roots_of(const TempDir& dir) {
    readers::Roots r;
    std::string error;
    REQUIRE(readers::Roots::from_paths({dir.path().string()}, &r, &error));
    return r;
  }
  const server::Config& config_with(unsigned task_after_ms) {
    config.task_after_ms = task_after_ms;
    return config;
  }
  // Calls read on `file`; `start_task` as the dispatcher would set it (unset: a session's call).
  json call(const std::string& file, std::function<bool(const std::string&)> start_task,
            std::shared_ptr<std::atomic<bool>> cancelled = std::make_shared<std::atomic<bool>>(false)) {
    protocol::ToolCall c;
    c.name = "read";
    c.arguments = {{"file_path", file}};
    c.protocol_version = "2026-07-28";
    c.cancelled = std::move(cancelled);
    c.progress = [](double, std::optional<double>, const std::string&) {};
    c.start_task = std::move(start_task);
    std::promise<protocol::ToolOutcome> outcome;
    host.call_tool(std::move(c), [&outcome](protocol::ToolOutcome o) { outcome.set_value(std::move(o)); });
    auto o = outcome.get_future().get();
    REQUIRE(std::holds_alternative<json>(o));
    return std::get<json>(o);
  }
  server::Config config;
  server::RootsState roots;
  boost::asio::thread_pool pool{1};
  server::ToolHost host;
};

}  // namespace

TEST_CASE("read as a task") {
  TempDir dir;
  dir.write("notes.txt", "alpha\nbeta\n");
  std::vector<std::string> started;
  auto start = [&started](bool accept) {
    return [&started, accept](const std::string& message) {
      started.push_back(message);
      return accept;
    };
  };
  SUBCASE("the tool may become a task; it is not rendered") {
    Host h(dir, 0);
    CHECK(h.host.tools()[0].task_support == protocol::TaskSupport::optional);
  }
  SUBCASE("--task-after-ms 0: a task before the read starts, named after its file; the read's result completes it") {
    Host h(dir, 0);
    const json r = h.call("notes.txt", start(true));
    CHECK(started == std::vector<std::string>{"reading notes.txt"});
    CHECK(r["content"][0]["text"].get<std::string>().rfind("     1\talpha\n     2\tbeta\n", 0) == 0);
  }
  SUBCASE("a call that cannot become a task goes on in its request") {
    Host h(dir, 0);
    const json r = h.call("notes.txt", start(false));
    CHECK(started.size() == 1);
    CHECK_FALSE(r.contains("isError"));
  }
  SUBCASE("a session's call (no start_task) is never a task") {
    Host h(dir, 0);
    const json r = h.call("notes.txt", nullptr);
    CHECK_FALSE(r.contains("isError"));
  }
  SUBCASE("within the budget: no task") {
    Host h(dir, 3600000);
    h.call("notes.txt", start(true));
    CHECK(started.empty());
  }
  SUBCASE("tasks/cancel stops the read (its flag is the reader's cancel token)") {
    Host h(dir, 0);
    auto cancelled = std::make_shared<std::atomic<bool>>(false);
    // The client cancels the task as soon as it exists.
    const json r = h.call("notes.txt", [cancelled](const std::string&) {
      cancelled->store(true);
      return true;
    }, cancelled);
    CHECK(r["isError"] == true);
    CHECK(r["content"][0]["text"] == "The read was cancelled.");
  }
}
