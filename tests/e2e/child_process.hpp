#pragma once
// The server under test as a child process, on POSIX and on Windows alike: its stdin and stdout
// pipes to the test (or the null device), its stderr captured in a temporary file, its exit
// awaited with a timeout. The end-to-end clients (McpClient over stdio, ServerProcess over HTTP)
// are written against this class only; os/child_process_posix.cpp and _windows.cpp hold the rest.
// Start children from one thread at a time: on Windows a child inherits every inheritable handle
// open at its start, another child's pipe ends included.
#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcpread::test {

class ChildProcess {
 public:
  struct Spec {
    std::vector<std::string> argv;       // argv[0]: the program's path
    std::vector<std::string> extra_env;  // "NAME=value", added to (or replacing) the test's own
    std::filesystem::path cwd;           // empty: the test's
    bool pipes = true;                   // stdin and stdout piped to the test; else the null device
  };
  enum class Read { data, eof, timeout };

  explicit ChildProcess(const Spec& spec);  // throws std::runtime_error when it cannot start
  ~ChildProcess();                          // kills the process if it still runs, and reaps it
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Writes all of `bytes` to its stdin; throws when the pipe is gone.
  void write(std::string_view bytes);
  void close_stdin();
  // Appends what its stdout has within `timeout`: data, or the end of the stream, or nothing.
  Read read(std::string& out, std::chrono::milliseconds timeout);
  // The exit status (128 + the signal's number when a signal ended it), or nullopt on timeout.
  std::optional<int> wait_exit(std::chrono::milliseconds timeout);
  void kill();  // SIGKILL; on Windows TerminateProcess with status 137, as a SIGKILL would give
  // POSIX signals (SIGTERM, SIGINT): a test that sends one does not run on Windows, where this
  // fails the test.
  void signal(int sig);
  [[nodiscard]] pid_t pid() const;
  [[nodiscard]] std::string stderr_text() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::filesystem::path stderr_path_;
  std::optional<int> exit_status_;
};

}  // namespace mcpread::test
