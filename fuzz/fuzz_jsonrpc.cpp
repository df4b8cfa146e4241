// fuzz_jsonrpc: mcp-read's stdio input path. The bytes a client writes are split into lines by
// server::LineFramer and each line goes to protocol::Session::receive, as
// server/src/stdio_transport.cpp does, with a fake ServerHandler in place of the readers.
//
// Input: an optional opening byte, then the stream.
//   '0'       nothing is sent first: the stream has to initialize the session itself
//   '1'..'9'  d: the fake client first sends initialize with supported_versions[(d-1) % N] and
//             notifications/initialized; d > N also declares the roots capability, so the server
//             sends roots/list (id "mcp-read-roots-1") and the stream may answer it.
//             With today's four versions '2' opens with 2025-03-26, the version with batches.
//   other     no opening; the byte is the first of the stream
// The stream reaches the framer in chunks of varying sizes, so lines split across reads occur.
//
// The fake tools: "read" answers at once (echoing its arguments as structuredContent, after a
// log message and a progress notification); "wait" answers only after the input has ended, so
// that notifications/cancelled and duplicate ids meet a call in flight; "fail" throws.
//
// Checked on every input: each message sent is one JSON object or array in strict UTF-8;
// receive() returns true exactly when one final reply follows; nothing is left in flight at the
// end; serialize() round-trips the arguments the session hands to the tool.
#include "fuzz_check.hpp"
#include "line_framer.hpp"
#include "mcpread/protocol/json_writer.hpp"
#include "mcpread/protocol/session.hpp"

#include <pthread.h>

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace {

using mcpread::fuzz::check;
using namespace mcpread::protocol;

constexpr std::size_t max_line_bytes = 4096;  // small, so that the oversize path is reachable
// The session runs on a thread with a small stack: recursion that grows with the nesting of a
// message overflows it with inputs of a few kilobytes, as the server's 8 MB stacks overflow with
// messages of a few megabytes (the default limit is 16 MB).
constexpr std::size_t stack_bytes = 256 * 1024;

void check_message(std::string_view message) {
  const json value = json::parse(message.begin(), message.end(), nullptr, /*allow_exceptions=*/false);
  check(!value.is_discarded(), "every message sent is strict JSON (hence valid UTF-8)");
  check(value.is_object() || value.is_array(), "every message sent is an object or a batch array");
  if (value.is_object()) check(value.value("jsonrpc", "") == "2.0", "every message says jsonrpc 2.0");
}

class FakeTools : public ServerHandler {
 public:
  FakeTools() {
    const json schema{{"type", "object"}, {"properties", {{"file_path", {{"type", "string"}}}}}};
    for (const char* name : {"read", "wait", "fail"})
      tools_.push_back({name, name, "A fake tool.", schema, std::nullopt, json::object()});
    tools_.front().output_schema = json{{"type", "object"}};
  }
  const std::vector<ToolDefinition>& tools() const override { return tools_; }

  void call_tool(ToolCall call, std::function<void(ToolOutcome outcome)> done) override {
    std::string serialized;
    append_json(call.arguments, serialized);
    check(json::parse(serialized, nullptr, false) == call.arguments,
          "serialize() round-trips the tool's arguments");
    if (call.name == "fail") throw std::runtime_error("the fake tool failed");
    json result{{"content", json::array({json{{"type", "text"}, {"text", call.name}}})}};
    if (call.name == "wait") {
      waiting_.push_back([done = std::move(done), result] { done(result); });
      return;
    }
    call.log(LogLevel::warning, "reading");
    call.progress(1, 2, "half way");
    result["structuredContent"] = call.arguments;
    done(std::move(result));
  }

  // Answers the "wait" calls, in order; the session drops those cancelled meanwhile.
  void finish_waiting() {
    for (auto& answer : waiting_) answer();
    waiting_.clear();
  }

 private:
  std::vector<ToolDefinition> tools_;
  std::vector<std::function<void()>> waiting_;
};

// The opening the first byte asks for, or empty; *consumed tells whether the byte was one.
std::string opening(std::uint8_t first, bool* consumed) {
  *consumed = first >= '0' && first <= '9';
  if (!*consumed || first == '0') return {};
  const std::size_t d = first - '1';
  const std::size_t n = supported_versions.size();
  json caps = json::object();
  if (d >= n) caps["roots"] = json{{"listChanged", true}};
  const json initialize{{"jsonrpc", "2.0"}, {"id", "open"}, {"method", "initialize"},
                        {"params", {{"protocolVersion", supported_versions[d % n]},
                                    {"capabilities", caps},
                                    {"clientInfo", {{"name", "fuzz"}, {"version", "1"}}}}}};
  return initialize.dump() + "\n{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n";
}

struct Input {
  const std::uint8_t* data;
  std::size_t size;
};

void run_input(const Input& input) {
  if (input.size == 0) return;
  bool consumed = false;
  std::string stream = opening(input.data[0], &consumed);
  stream.append(reinterpret_cast<const char*>(input.data) + (consumed ? 1 : 0),
                input.size - (consumed ? 1 : 0));

  FakeTools tools;
  Session session(ServerInfo{"mcp-read", "mcp-read", "0", "Read files."}, tools,
                  [](std::string message) { check_message(message); });
  std::vector<bool> expects_final;  // per exchange: what receive() returned
  std::vector<int> finals;          // per exchange: final replies seen
  const auto on_line = [&](std::string_view line) {
    const std::size_t exchange = finals.size();
    finals.push_back(0);
    const bool expects = session.receive(line, [&finals, exchange](std::string message, bool final) {
      check(final || !message.empty(), "a notification sent during an exchange is not empty");
      if (!message.empty()) check_message(message);
      if (final) check(++finals[exchange] == 1, "an exchange ends with one final reply only");
    });
    expects_final.push_back(expects);
    session.log(LogLevel::error, "fuzz", "a line was handled");
  };
  const auto on_oversize = [&](std::size_t bytes) {
    check(bytes > max_line_bytes, "only lines over the limit are reported as oversize");
    check_message(session.unaddressed_error(error_code::invalid_request, "too large"));
  };

  mcpread::server::LineFramer framer(max_line_bytes);
  std::string_view rest = stream;
  for (std::uint32_t state = static_cast<std::uint32_t>(input.size); !rest.empty();) {
    state = state * 1103515245u + 12345u;
    const std::size_t chunk = std::min<std::size_t>(rest.size(), 1 + (state >> 16) % 200);
    framer.feed(rest.substr(0, chunk), on_line, on_oversize);
    rest.remove_prefix(chunk);
  }
  framer.finish(on_line);
  tools.finish_waiting();

  check(session.in_flight() == 0, "no call stays in flight once every call has answered");
  for (std::size_t i = 0; i < finals.size(); ++i)
    check(finals[i] == (expects_final[i] ? 1 : 0),
          "receive() returns true exactly when a final reply follows");
}

// A thread with a stack of stack_bytes that runs one input at a time for the caller, kept for
// the whole process: a thread per input would spend most of the time mapping stacks.
class SmallStackThread {
 public:
  SmallStackThread() {
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, stack_bytes);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_t thread;
    check(pthread_create(&thread, &attr, &SmallStackThread::loop, this) == 0, "the thread starts");
    pthread_attr_destroy(&attr);
  }

  void run(const Input& input) {
    std::unique_lock lock(mutex_);
    job_ = &input;
    changed_.notify_all();
    changed_.wait(lock, [this] { return job_ == nullptr; });
  }

 private:
  static void* loop(void* self) {
    auto& t = *static_cast<SmallStackThread*>(self);
    std::unique_lock lock(t.mutex_);
    for (;;) {
      t.changed_.wait(lock, [&t] { return t.job_ != nullptr; });
      run_input(*t.job_);
      t.job_ = nullptr;
      t.changed_.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  const Input* job_ = nullptr;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static SmallStackThread* const thread = new SmallStackThread;  // never ends, never freed
  thread->run(Input{data, size});
  return 0;
}
