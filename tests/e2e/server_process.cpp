// ServerProcess: the server under test as a child process, its stderr captured.
#include "http_client.hpp"

#include "mcp_client.hpp"

#include <doctest/doctest.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace mcpread::test::http {

using clock_type = std::chrono::steady_clock;

// ---------------------------------------------------------------------------------------------
// ServerProcess

ServerProcess::ServerProcess(std::vector<std::string> args, std::vector<std::string> extra_env,
                             const std::filesystem::path& binary) {
  char templ[] = "/tmp/mcpread-http-stderr-XXXXXX";
  const int err_fd = ::mkstemp(templ);
  if (err_fd < 0) throw std::runtime_error("mkstemp failed");
  stderr_path_ = templ;

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, err_fd, STDERR_FILENO);

  std::vector<std::string> argv_store{binary_path().string(), "--transport", "http", "--port", "0"};
  if (!binary.empty()) argv_store = {binary.string(), "--port", "0"};
  argv_store.insert(argv_store.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_store) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::vector<std::string> env_store;
  for (char** e = environ; *e; ++e) env_store.emplace_back(*e);
  env_store.insert(env_store.end(), extra_env.begin(), extra_env.end());
  std::vector<char*> envp;
  for (auto& e : env_store) envp.push_back(e.data());
  envp.push_back(nullptr);

  const int rc = posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  ::close(err_fd);
  if (rc != 0) throw std::runtime_error(std::string("posix_spawn: ") + std::strerror(rc));

  // The port is known once the listening line is out (bounded: 10 s).
  constexpr std::string_view marker = "listening on http://";
  const auto deadline = clock_type::now() + 10s;
  for (;;) {
    const std::string text = stderr_text();
    if (const auto at = text.find(marker); at != std::string::npos) {
      const auto path = text.find("/mcp", at);
      const auto colon = text.rfind(':', path);
      if (path != std::string::npos && colon != std::string::npos && colon > at + marker.size()) {
        port_ = static_cast<unsigned short>(std::stoul(text.substr(colon + 1, path - colon - 1)));
        return;
      }
    }
    if (wait_exit(0ms) || clock_type::now() > deadline) {
      const std::string why = exit_status_ ? "exited with status " + std::to_string(*exit_status_)
                                           : std::string("did not log its address within 10 s");
      signal(SIGKILL);
      wait_exit(5s);
      throw std::runtime_error("mcp-read --transport http " + why + "; stderr:\n" + stderr_text());
    }
    std::this_thread::sleep_for(10ms);  // polling for the log line, bounded above
  }
}

ServerProcess::~ServerProcess() {
  if (!exit_status_ && pid_ > 0) {
    ::kill(pid_, SIGKILL);
    wait_exit(10s);
  }
  std::error_code ec;
  std::filesystem::remove(stderr_path_, ec);
}

std::string ServerProcess::stderr_text() const {
  std::ifstream in(stderr_path_);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void ServerProcess::signal(int sig) const {
  if (!exit_status_) ::kill(pid_, sig);
}

std::optional<int> ServerProcess::wait_exit(std::chrono::milliseconds timeout) {
  if (exit_status_) return exit_status_;
  const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid_, 0));
  if (pidfd >= 0) {
    pollfd p{pidfd, POLLIN, 0};
    int r;
    do {
      r = ::poll(&p, 1, static_cast<int>(timeout.count()));
    } while (r < 0 && errno == EINTR);
    ::close(pidfd);
    if (r == 0) return std::nullopt;
  }
  int status = 0;
  if (::waitpid(pid_, &status, 0) != pid_) return std::nullopt;
  exit_status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return exit_status_;
}

}  // namespace mcpread::test::http
