// ChildProcess on POSIX: posix_spawn with pipes, poll() for reads with a timeout, and a pidfd to
// wait for the exit with one (no polling loop).
#include "../child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

extern char** environ;

namespace mcpread::test {

struct ChildProcess::Impl {
  pid_t pid = -1;
  int in = -1;   // its stdin, our end
  int out = -1;  // its stdout, our end
};

namespace {

[[noreturn]] void fail(const std::string& what, int error) {
  throw std::runtime_error(what + ": " + std::strerror(error));
}

}  // namespace

ChildProcess::ChildProcess(const Spec& spec) : impl_(std::make_unique<Impl>()) {
  char templ[] = "/tmp/mcpread-stderr-XXXXXX";
  const int err_fd = ::mkostemp(templ, O_CLOEXEC);
  if (err_fd < 0) fail("mkstemp", errno);
  stderr_path_ = templ;
  int in_pipe[2] = {-1, -1}, out_pipe[2] = {-1, -1};
  if (spec.pipes && (::pipe2(in_pipe, O_CLOEXEC) != 0 || ::pipe2(out_pipe, O_CLOEXEC) != 0)) {
    const int e = errno;
    ::close(err_fd);
    fail("pipe", e);
  }

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (spec.pipes) {
    posix_spawn_file_actions_adddup2(&actions, in_pipe[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, out_pipe[1], STDOUT_FILENO);
  } else {
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  }
  posix_spawn_file_actions_adddup2(&actions, err_fd, STDERR_FILENO);
  if (!spec.cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, spec.cwd.c_str());

  std::vector<std::string> argv_store = spec.argv;
  std::vector<char*> argv;
  for (auto& a : argv_store) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::vector<std::string> env_store;
  for (char** e = environ; *e; ++e) env_store.emplace_back(*e);
  env_store.insert(env_store.end(), spec.extra_env.begin(), spec.extra_env.end());
  std::vector<char*> envp;
  for (auto& e : env_store) envp.push_back(e.data());
  envp.push_back(nullptr);

  const int rc = posix_spawn(&impl_->pid, argv[0], &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  ::close(err_fd);
  if (spec.pipes) {
    ::close(in_pipe[0]);
    ::close(out_pipe[1]);
    impl_->in = in_pipe[1];
    impl_->out = out_pipe[0];
  }
  if (rc != 0) {
    impl_->pid = -1;
    fail("posix_spawn " + spec.argv.front(), rc);
  }
}

ChildProcess::~ChildProcess() {
  close_stdin();
  if (!exit_status_ && impl_->pid > 0 && !wait_exit(std::chrono::seconds(5))) {
    kill();
    wait_exit(std::chrono::seconds(10));
  }
  if (impl_->out >= 0) ::close(impl_->out);
  std::error_code ec;
  std::filesystem::remove(stderr_path_, ec);
}

void ChildProcess::write(std::string_view data) {
  while (!data.empty()) {
    const ssize_t n = ::write(impl_->in, data.data(), data.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail("write to the server", errno);
    data.remove_prefix(static_cast<std::size_t>(n));
  }
}

void ChildProcess::close_stdin() {
  if (impl_->in >= 0) ::close(impl_->in);
  impl_->in = -1;
}

ChildProcess::Read ChildProcess::read(std::string& out, std::chrono::milliseconds timeout) {
  for (;;) {
    pollfd p{impl_->out, POLLIN, 0};
    const int r = ::poll(&p, 1, static_cast<int>(std::max<long long>(0, timeout.count())));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return Read::timeout;
    char chunk[65536];
    const ssize_t n = ::read(impl_->out, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Read::eof;
    out.append(chunk, static_cast<std::size_t>(n));
    return Read::data;
  }
}

std::optional<int> ChildProcess::wait_exit(std::chrono::milliseconds timeout) {
  if (exit_status_ || impl_->pid <= 0) return exit_status_;
  // A pidfd becomes readable when the process exits: a wait with a timeout and no polling loop.
  const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, impl_->pid, 0));
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
  if (::waitpid(impl_->pid, &status, 0) != impl_->pid) return std::nullopt;
  exit_status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return exit_status_;
}

void ChildProcess::kill() { signal(SIGKILL); }

void ChildProcess::signal(int sig) {
  if (!exit_status_ && impl_->pid > 0) ::kill(impl_->pid, sig);
}

pid_t ChildProcess::pid() const { return impl_->pid; }

}  // namespace mcpread::test
