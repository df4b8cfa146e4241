// read_mobi: parse_mobi in a child process. libmobi is C code reading hostile files (its
// decompressors and index parsers have had out-of-bounds reads); in a child a crash or a hang
// costs one read, not the server, and bounds hold (an address-space limit, CPU time, a deadline,
// the read's cancellation). The child sends the book back through a pipe (to_message).
#include "mobi/mobi_book.hpp"

#if defined(_WIN32)
namespace mcpread::readers::mobi {
bool read_mobi(std::string_view bytes, MobiBook* book, std::string* error, const CancelToken&) {
  return parse_mobi(bytes, book, error);
}
}  // namespace mcpread::readers::mobi
#else
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace mcpread::readers::mobi {
namespace {

constexpr unsigned kParseSeconds = 30;
constexpr std::uint64_t kParseMemoryBytes = 2ull << 30;  // on top of what the server maps
constexpr std::size_t kMaxMessageBytes = kMaxHtmlBytes + kMaxImageBytes + (1u << 20);

bool write_all(int fd, std::string_view data) {
  while (!data.empty()) {
    const ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

// The child: crash signals to their default action (a sanitizer's handler is not the child's to
// run), no stdout (the server's MCP channel), only the pipe open, bounds, the parse, _exit. The
// message starts with '+' for a book, '-' for a refusal's sentence.
[[noreturn]] void child(std::string_view bytes, int pipe_end) {
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  for (const int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) ::sigaction(sig, &default_action, nullptr);
  const int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (null >= 0) {
    ::dup2(null, STDOUT_FILENO);
    ::dup2(null, STDERR_FILENO);
  }
  constexpr int out = 3;
  if (pipe_end != out && ::dup2(pipe_end, out) < 0) ::_exit(1);
#if defined(SYS_close_range)
  const bool closed = ::syscall(SYS_close_range, out + 1, ~0U, 0) == 0;
#else
  const bool closed = false;
#endif
  if (!closed) {
    rlimit files{};
    const rlim_t top = ::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < 65536 ? files.rlim_cur : 65536;
    for (int fd = out + 1; fd < static_cast<int>(top); ++fd) ::close(fd);
  }
  std::uint64_t mapped_pages = 0;
  if (FILE* statm = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(statm, "%lu", &mapped_pages) != 1) mapped_pages = 0;
    std::fclose(statm);
  }
  const std::uint64_t limit = mapped_pages * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE)) + kParseMemoryBytes;
  const rlimit memory{limit, limit};
  ::setrlimit(RLIMIT_AS, &memory);
  const rlimit cpu{kParseSeconds, kParseSeconds};
  ::setrlimit(RLIMIT_CPU, &cpu);
  std::string message;
  try {
    MobiBook book;
    std::string error;
    message = parse_mobi(bytes, &book, &error) ? "+" + to_message(book) : "-" + error;
  } catch (const std::exception& e) {  // std::bad_alloc under the address-space limit
    message = std::string("-taking it apart failed: ") + e.what();
  }
  ::_exit(write_all(out, message) ? 0 : 1);
}

// The child's message until it closes the pipe; false on the deadline, a cancellation or a
// message past kMaxMessageBytes.
bool read_answer(int in, std::string* answer, const CancelToken& cancel, std::string* why) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(kParseSeconds);
  std::string buffer(65536, '\0');
  for (;;) {
    if (cancel.cancelled()) return *why = "the read was cancelled", false;
    if (std::chrono::steady_clock::now() > deadline)
      return *why = "libmobi took longer than " + std::to_string(kParseSeconds) + " s to take it apart", false;
    pollfd p{in, POLLIN, 0};
    const int ready = ::poll(&p, 1, 100);
    if (ready < 0 && errno != EINTR) return *why = std::string("poll failed: ") + std::strerror(errno), false;
    if (ready <= 0) continue;
    const ssize_t n = ::read(in, buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return true;
    answer->append(buffer.data(), static_cast<std::size_t>(n));
    if (answer->size() > kMaxMessageBytes) return *why = "its contents are too large", false;
  }
}

}  // namespace

bool read_mobi(std::string_view bytes, MobiBook* book, std::string* error, const CancelToken& cancel) {
  // libmobi is loaded here, once, so that every child has it; what is too short for a header
  // needs no child.
  if (!load_libmobi(error)) return false;
  if (bytes.size() < 78) return parse_mobi(bytes, book, error);
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return *error = std::string("pipe failed: ") + std::strerror(errno), false;
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return *error = std::string("fork failed: ") + std::strerror(errno), false;
  }
  if (pid == 0) {
    ::close(fds[0]);
    child(bytes, fds[1]);
  }
  ::close(fds[1]);
  std::string answer, why;
  const bool complete = read_answer(fds[0], &answer, cancel, &why);
  ::close(fds[0]);
  if (!complete) ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!complete) return *error = why, false;
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    if (sig == SIGXCPU || sig == SIGKILL)
      return *error = "libmobi took longer than " + std::to_string(kParseSeconds) + " s to take it apart", false;
    return *error = "libmobi crashed taking it apart (signal " + std::to_string(sig) + ", " + strsignal(sig) +
                    "): the book is damaged", false;
  }
  if (answer.starts_with('-')) return *error = answer.substr(1), false;
  if (!answer.starts_with('+') || !from_message(std::string_view(answer).substr(1), book))
    return *error = "libmobi crashed taking it apart (it exited with status " + std::to_string(WEXITSTATUS(status)) +
                    "): the book is damaged", false;
  return true;
}

}  // namespace mcpread::readers::mobi
#endif
