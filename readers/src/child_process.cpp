#include "child_process.hpp"

#include "mcpread/readers/utf8.hpp"

#include <cstring>

#if defined(_WIN32)

namespace mcpread::readers::child_process {

Outcome run(const Work&, const Limits&, const CancelToken&) {
  Outcome o;
  o.why = "Windows has no fork";
  return o;
}

}  // namespace mcpread::readers::child_process

#else

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <limits>
#include <utility>
#include <poll.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

// The sanitizers' runtime, when the build has one (the test builds): what the child finds is the
// library's fault, reported by the parent as a refusal, not the test run's.
extern "C" {
__attribute__((weak)) void __sanitizer_set_report_path(const char* path);
__attribute__((weak)) void __sanitizer_set_death_callback(void (*callback)());
}

namespace mcpread::readers::child_process {

namespace {

bool write_all(int fd, std::string_view data) {
  while (!data.empty()) {
    const ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

void close_range_of(int first, int last) {  // [first, last]
  if (first > last) return;
#if defined(SYS_close_range)
  if (::syscall(SYS_close_range, static_cast<unsigned>(first), static_cast<unsigned>(last), 0) == 0) return;
#endif
  // Before Linux 5.9 (or glibc 2.32's headers): one by one, up to the descriptor limit.
  rlimit files{};
  const rlim_t top = ::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < 65536 ? files.rlim_cur : 65536;
  for (int fd = first; fd <= last && fd < static_cast<int>(top); ++fd) ::close(fd);
}

// Every descriptor above stderr but `a` and `b` (-1: none).
void close_the_servers_descriptors(int a, int b) {
  if (a > b) std::swap(a, b);
  int from = STDERR_FILENO + 1;
  for (const int keep : {a, b}) {
    if (keep < from) continue;
    close_range_of(from, keep - 1);
    from = keep + 1;
  }
  close_range_of(from, std::numeric_limits<int>::max());
}

void limit_memory(std::uint64_t extra) {
  if (extra == 0) return;
  std::uint64_t mapped_pages = 0;  // the server's threads' stacks, libraries and heap, inherited
  if (FILE* statm = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(statm, "%lu", &mapped_pages) != 1) mapped_pages = 0;
    std::fclose(statm);
  }
  const std::uint64_t limit = mapped_pages * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE)) + extra;
  const rlimit memory{limit, limit};
  ::setrlimit(RLIMIT_AS, &memory);
}

[[noreturn]] void child(const Work& work, const Limits& limits, int pipe_end) {
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  for (const int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGXCPU}) ::sigaction(sig, &default_action, nullptr);
  if (__sanitizer_set_report_path != nullptr) __sanitizer_set_report_path("/dev/null");
  if (__sanitizer_set_death_callback != nullptr) __sanitizer_set_death_callback(nullptr);
  const int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (null >= 0) {
    ::dup2(null, STDOUT_FILENO);
    ::dup2(null, STDERR_FILENO);
  }
  close_the_servers_descriptors(pipe_end, limits.keep_descriptor);
  limit_memory(limits.extra_memory);
  const rlimit cpu{limits.cpu_seconds, limits.cpu_seconds};
  ::setrlimit(RLIMIT_CPU, &cpu);
  std::string message;
  try {
    message = work();
  } catch (...) {  // std::bad_alloc under the address-space limit, among others
    ::_exit(2);
  }
  ::_exit(write_all(pipe_end, message) ? 0 : 1);
}

// Reads the child's message until it closes the pipe (its end); the Ending that stopped the
// reading otherwise.
Ending read_message(int in, const Limits& limits, const CancelToken& cancel, std::string* message) {
  const auto deadline = std::chrono::steady_clock::now() + limits.wall;
  char buffer[65536];
  for (;;) {
    if (cancel.cancelled()) return Ending::cancelled;
    if (std::chrono::steady_clock::now() > deadline) return Ending::out_of_time;
    pollfd p{in, POLLIN, 0};
    const int ready = ::poll(&p, 1, 100);
    if (ready <= 0) continue;  // EINTR, or nothing yet
    const ssize_t n = ::read(in, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Ending::sent;
    message->append(buffer, static_cast<std::size_t>(n));
    if (message->size() > limits.max_message) return Ending::too_large;
  }
}

}  // namespace

Outcome run(const Work& work, const Limits& limits, const CancelToken& cancel) {
  Outcome o;
  int ends[2];
  if (::pipe2(ends, O_CLOEXEC) != 0) {
    o.why = std::string("pipe failed: ") + std::strerror(errno);
    return o;
  }
  const pid_t pid = ::fork();
  if (pid < 0) {
    o.why = std::string("fork failed: ") + std::strerror(errno);
    ::close(ends[0]);
    ::close(ends[1]);
    return o;
  }
  if (pid == 0) {
    ::close(ends[0]);
    child(work, limits, ends[1]);
  }
  ::close(ends[1]);
  o.ending = read_message(ends[0], limits, cancel, &o.message);
  ::close(ends[0]);
  if (o.ending != Ending::sent) ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (o.ending != Ending::sent) {
    o.message.clear();
    o.seconds = std::chrono::duration_cast<std::chrono::seconds>(limits.wall).count();
    return o;
  }
  if (WIFSIGNALED(status)) {
    o.signal = WTERMSIG(status);
    // SIGXCPU at the CPU limit; SIGKILL from the kernel past it (or for memory).
    o.ending = o.signal == SIGXCPU || o.signal == SIGKILL ? Ending::out_of_time : Ending::crashed;
    o.seconds = limits.cpu_seconds;
  } else if (WEXITSTATUS(status) != 0) {
    o.status = WEXITSTATUS(status);
    o.ending = Ending::crashed;
  }
  if (o.ending != Ending::sent) o.message.clear();
  return o;
}

}  // namespace mcpread::readers::child_process

#endif

namespace mcpread::readers::child_process {

namespace {

std::string signal_name(int signal) {
#if defined(_WIN32)
  return "signal " + std::to_string(signal);
#else
  return "signal " + std::to_string(signal) + ", " + ::strsignal(signal);
#endif
}

}  // namespace

std::string Outcome::refusal(std::string_view who, std::string_view doing, const Limits& limits,
                             std::string_view if_crashed) const {
  const std::string subject(who);
  const std::string object(doing);
  switch (ending) {
    case Ending::sent:
      return {};
    case Ending::crashed:
      if (signal != 0) return subject + " crashed " + object + " (" + signal_name(signal) + ")" + std::string(if_crashed);
      return subject + " crashed " + object + " (it exited with status " + std::to_string(status) + ")" +
             std::string(if_crashed);
    case Ending::out_of_time:
      return subject + " took longer than " + std::to_string(seconds) + " s " + object;
    case Ending::cancelled:
      return "the read was cancelled";
    case Ending::too_large:
      return "what " + subject + " made of it is larger than " + std::to_string(limits.max_message >> 20) + " MiB";
    case Ending::not_started:
      return "no process could be started for " + subject + ": " + why;
  }
  return {};
}

std::optional<std::string_view> Outcome::contents(std::string_view who, const Limits& limits,
                                                  std::string_view if_crashed, std::string_view cannot_open,
                                                  std::string_view garbled, std::string* error) const {
  if (ending != Ending::sent) {
    *error = refusal(who, "reading it", limits, if_crashed);
    return std::nullopt;
  }
  if (message == "E") {
    *error = cannot_open;
    return std::nullopt;
  }
  if (!message.starts_with('M')) {
    *error = garbled;
    return std::nullopt;
  }
  return std::string_view(message).substr(1);
}

std::string quotable_reason(std::string_view said, std::size_t max_bytes) {
  const std::string text = utf8::sanitized(said);
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    const bool c1 = c == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) <= 0x9F;
    if (c < 0x20 || c == 0x7F || c1 || c == ' ') {
      if (!out.empty() && out.back() != ' ') out += ' ';
      if (c1) ++i;
      continue;
    }
    out += static_cast<char>(c);
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  constexpr std::string_view kEllipsis = "\u2026";
  if (out.size() > max_bytes) {
    const std::size_t room = max_bytes > kEllipsis.size() ? max_bytes - kEllipsis.size() : 0;
    out.resize(utf8::fit_bytes(out, room));
    while (!out.empty() && out.back() == ' ') out.pop_back();
    out += kEllipsis;
  }
  return out;
}

}  // namespace mcpread::readers::child_process
