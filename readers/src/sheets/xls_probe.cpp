#include "sheets/xls_probe.hpp"

#if defined(_WIN32)

namespace mcpread::readers::sheets {
bool probe_freexl_open(FreexlOpen, FreexlClose, const std::string&, std::string*) { return true; }
}  // namespace mcpread::readers::sheets

#else

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

// The sanitizers' runtime, when the build has one (test builds): the child's findings are
// libfreexl's, which the parent reports as a refusal, not the test run's.
extern "C" {
__attribute__((weak)) void __sanitizer_set_report_path(const char* path);
__attribute__((weak)) void __sanitizer_set_death_callback(void (*callback)());
}

namespace mcpread::readers::sheets {

namespace {

constexpr rlim_t kProbeSeconds = 10;
constexpr int kWaitMilliseconds = 30000;  // a child stalled without using CPU (a lock held at the fork)

[[noreturn]] void child(FreexlOpen open, FreexlClose close, const std::string& path) {
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  for (const int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) ::sigaction(sig, &default_action, nullptr);
  if (__sanitizer_set_report_path != nullptr) __sanitizer_set_report_path("/dev/null");
  if (__sanitizer_set_death_callback != nullptr) __sanitizer_set_death_callback(nullptr);
  const int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (null >= 0) {
    ::dup2(null, STDOUT_FILENO);  // never the server's MCP channel
    ::dup2(null, STDERR_FILENO);
  }
  const rlimit cpu{kProbeSeconds, kProbeSeconds};
  ::setrlimit(RLIMIT_CPU, &cpu);
  const void* handle = nullptr;
  open(path.c_str(), &handle);
  if (handle != nullptr) close(handle);
  ::_exit(0);
}

}  // namespace

bool probe_freexl_open(FreexlOpen open, FreexlClose close, const std::string& path, std::string* error) {
  // The child holds the pipe's write end until it ends: its closing is what the parent waits for.
  int ends[2];
  if (::pipe2(ends, O_CLOEXEC) != 0) return true;  // no pipe to be had: the open is not probed
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(ends[0]);
    ::close(ends[1]);
    return true;  // no child to be had: the open is not probed
  }
  if (pid == 0) {
    ::close(ends[0]);
    child(open, close, path);
  }
  ::close(ends[1]);
  pollfd p{ends[0], POLLIN, 0};
  int ready = 0;
  while ((ready = ::poll(&p, 1, kWaitMilliseconds)) < 0 && errno == EINTR) {
  }
  ::close(ends[0]);
  if (ready == 0) ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (ready == 0) {
    *error = "libfreexl did not finish opening it within " + std::to_string(kWaitMilliseconds / 1000) + " s";
    return false;
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return true;
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGXCPU) {
    *error = "libfreexl took longer than " + std::to_string(kProbeSeconds) + " s to open it";
  } else if (WIFSIGNALED(status)) {
    *error = "libfreexl crashed opening it (signal " + std::to_string(WTERMSIG(status)) + ", " +
             strsignal(WTERMSIG(status)) + "): the workbook is damaged; open it in Excel or LibreOffice and save it as .xlsx";
  } else {
    *error = "libfreexl failed opening it (it ended with status " + std::to_string(WEXITSTATUS(status)) +
             "): the workbook is damaged; open it in Excel or LibreOffice and save it as .xlsx";
  }
  return false;
}

}  // namespace mcpread::readers::sheets

#endif
