// read_doc: parse_doc in a child process. libwv crashes (SIGSEGV) on some damaged files, may loop
// on others, and keeps its state in globals; in a child a crash or a hang costs one read, not
// the server, and bounds hold (an address-space limit, a deadline, the read's cancellation). The
// child sends the Document back through a pipe as JSON.
#include "doc/doc_document.hpp"

#if !defined(_WIN32)
#include "doc/wv_api.hpp"

#include <nlohmann/json.hpp>

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

namespace mcpread::readers::doc {

namespace {

constexpr std::size_t kMaxMessageBytes = 4 * kMaxTextBytes;  // the JSON of the most text kept

nlohmann::json to_json(const DocDocument& d) {
  nlohmann::json blocks = nlohmann::json::array();
  for (const office::DocBlock& b : d.doc.blocks)
    blocks.push_back({{"type", static_cast<int>(b.type)}, {"level", b.level}, {"ordered", b.ordered},
                      {"number", b.number}, {"list", b.list}, {"text", b.text}, {"rows", b.rows},
                      {"notes", b.notes}});
  nlohmann::json notes = nlohmann::json::array();
  for (const office::Note& n : d.doc.notes) notes.push_back({n.label, n.text});
  return {{"blocks", std::move(blocks)}, {"notes", std::move(notes)}, {"comments", d.doc.comments},
          {"images", d.doc.images},       {"tables", d.doc.tables},   {"pictures", d.pictures},
          {"text_cut", d.text_cut},       {"version", d.version}};
}

void from_json(const nlohmann::json& j, DocDocument* d) {
  for (const auto& b : j.at("blocks")) {
    office::DocBlock block;
    block.type = static_cast<office::DocBlock::Type>(b.at("type").get<int>());
    block.level = b.at("level").get<int>();
    block.ordered = b.at("ordered").get<bool>();
    block.number = b.at("number").get<std::size_t>();
    block.list = b.at("list").get<std::string>();
    block.text = b.at("text").get<std::string>();
    block.rows = b.at("rows").get<std::vector<std::vector<std::string>>>();
    block.notes = b.at("notes").get<std::vector<std::size_t>>();
    d->doc.blocks.push_back(std::move(block));
  }
  for (const auto& n : j.at("notes")) d->doc.notes.push_back({n.at(0).get<std::string>(), n.at(1).get<std::string>()});
  d->doc.comments = j.at("comments").get<std::size_t>();
  d->doc.images = j.at("images").get<std::size_t>();
  d->doc.tables = j.at("tables").get<std::size_t>();
  d->pictures = j.at("pictures").get<std::size_t>();
  d->text_cut = j.at("text_cut").get<bool>();
  d->version = j.at("version").get<std::string>();
}

bool write_all(int fd, std::string_view data) {
  while (!data.empty()) {
    const ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

// The child: bounds, no stdout (the server's MCP channel), the parse, its answer, _exit (no
// atexit handlers, no stdio flush of the parent's buffers).
[[noreturn]] void child(std::string_view bytes, int pipe_end) {
  // A crash in libwv ends the child by its signal, which the parent reports: the handlers the
  // server's process has (a sanitizer's, in the test builds) are not the child's to run.
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  for (const int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) ::sigaction(sig, &default_action, nullptr);
  const int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (null >= 0) {
    ::dup2(null, STDOUT_FILENO);
    ::dup2(null, STDERR_FILENO);
  }
  // The server's other descriptors (its clients' sockets, open files) are not the child's to
  // keep open: the pipe moves to 3 and everything above it is closed.
  constexpr int out = 3;
  if (pipe_end != out && ::dup2(pipe_end, out) < 0) ::_exit(1);
#if defined(SYS_close_range)
  const bool closed = ::syscall(SYS_close_range, out + 1, ~0U, 0) == 0;
#else
  const bool closed = false;
#endif
  if (!closed) {  // before Linux 5.9 (or glibc 2.32's headers): one by one
    rlimit files{};
    const rlim_t top = ::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < 65536 ? files.rlim_cur : 65536;
    for (int fd = out + 1; fd < static_cast<int>(top); ++fd) ::close(fd);
  }
  // The parse's memory on top of what the server already maps (its threads' stacks, libraries).
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
  nlohmann::json answer;
  try {
    DocDocument parsed;
    std::string error;
    if (parse_doc(bytes, &parsed, &error, CancelToken{})) answer = {{"document", to_json(parsed)}};
    else answer = {{"error", error}};
  } catch (const std::exception& e) {  // std::bad_alloc under the address-space limit
    answer = {{"error", std::string("parsing it failed: ") + e.what()}};
  }
  const bool sent = write_all(out, answer.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  ::_exit(sent ? 0 : 1);
}

// Reads the child's answer until it closes the pipe; false on the deadline, a cancellation or an
// answer past kMaxMessageBytes.
bool read_answer(int in, std::string* answer, const CancelToken& cancel, std::string* why) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(kParseSeconds);
  char buffer[65536];
  for (;;) {
    if (cancel.cancelled()) return *why = "the read was cancelled", false;
    if (std::chrono::steady_clock::now() > deadline)
      return *why = "libwv took longer than " + std::to_string(kParseSeconds) + " s to parse it", false;
    pollfd p{in, POLLIN, 0};
    const int ready = ::poll(&p, 1, 100);
    if (ready < 0 && errno != EINTR) return *why = std::string("poll failed: ") + std::strerror(errno), false;
    if (ready <= 0) continue;
    const ssize_t n = ::read(in, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return true;
    answer->append(buffer, static_cast<std::size_t>(n));
    if (answer->size() > kMaxMessageBytes) return *why = "its text is too large", false;
  }
}

}  // namespace

bool read_doc(std::string_view bytes, DocDocument* out, std::string* error, const CancelToken& cancel) {
  if (!bytes.starts_with("\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1")) return parse_doc(bytes, out, error, cancel);
  if (wv_api(error) == nullptr) return false;  // loaded here, once, so that every child has it
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
  std::string answer;
  std::string why;
  const bool complete = read_answer(fds[0], &answer, cancel, &why);
  ::close(fds[0]);
  if (!complete) ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!complete) return *error = why, false;
  constexpr std::string_view kCrashAdvice =
      ": the document is damaged or uses what libwv cannot read; open it in Word or LibreOffice and save it as DOCX";
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    if (sig == SIGXCPU || sig == SIGKILL)
      return *error = "libwv took longer than " + std::to_string(kParseSeconds) + " s to parse it", false;
    return *error = "libwv crashed parsing it (signal " + std::to_string(sig) + ", " + strsignal(sig) + ")" +
                    std::string(kCrashAdvice),
           false;
  }
  const nlohmann::json parsed = nlohmann::json::parse(answer, nullptr, false);
  if (parsed.is_discarded() || !parsed.is_object()) {
    // A sanitizer's report of a crash ends the process with a status rather than the signal; so
    // does libwv on a failed allocation (exit(-1)).
    return *error = "libwv crashed parsing it (it exited with status " + std::to_string(WEXITSTATUS(status)) + ")" +
                    std::string(kCrashAdvice),
           false;
  }
  if (parsed.contains("error")) return *error = parsed["error"].get<std::string>(), false;
  try {
    from_json(parsed.at("document"), out);
  } catch (const nlohmann::json::exception&) {
    return *error = "libwv's parse ended with a malformed answer", false;
  }
  return true;
}

}  // namespace mcpread::readers::doc
#endif
