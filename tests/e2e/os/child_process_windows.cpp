// ChildProcess on Windows: CreateProcessW with inherited pipe and file handles. An anonymous
// pipe cannot be waited on with a timeout, so a reader thread drains the child's stdout into a
// buffer that read() waits on; the process handle is waited on for the exit.
#include "../child_process.hpp"

#include <doctest/doctest.h>
#include <windows.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace mcpread::test {

namespace {

std::wstring widen(const std::string& text) {
  if (text.empty()) return {};
  const int n = ::MultiByteToWideChar(CP_UTF8, 0, text.data(), static_cast<int>(text.size()), nullptr, 0);
  std::wstring wide(static_cast<std::size_t>(n), L'\0');
  ::MultiByteToWideChar(CP_UTF8, 0, text.data(), static_cast<int>(text.size()), wide.data(), n);
  return wide;
}

std::string system_message(DWORD error) {
  char* text = nullptr;
  ::FormatMessageA(FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS,
                   nullptr, error, 0, reinterpret_cast<char*>(&text), 0, nullptr);
  std::string message = text ? text : "error " + std::to_string(error);
  if (text) ::LocalFree(text);
  while (!message.empty() && (message.back() == '\n' || message.back() == '\r')) message.pop_back();
  return message;
}

[[noreturn]] void fail(const std::string& what) { throw std::runtime_error(what + ": " + system_message(::GetLastError())); }

// One argument as the C runtime's command-line parser reads it back (CommandLineToArgvW's rules):
// quoted when it holds a space, a tab or a quote, with backslashes doubled before a quote.
void append_argument(std::wstring& line, const std::wstring& argument) {
  if (!line.empty()) line += L' ';
  if (!argument.empty() && argument.find_first_of(L" \t\"") == std::wstring::npos) {
    line += argument;
    return;
  }
  line += L'"';
  std::size_t backslashes = 0;
  for (const wchar_t c : argument) {
    if (c == L'\\') {
      ++backslashes;
      continue;
    }
    line.append(c == L'"' ? 2 * backslashes + 1 : backslashes, L'\\');
    backslashes = 0;
    line += c;
  }
  line.append(2 * backslashes, L'\\');
  line += L'"';
}

// The test's environment with `extra` added; a variable named again (in any case, as Windows
// compares names) takes its new value.
std::wstring environment_block(const std::vector<std::string>& extra) {
  std::vector<std::wstring> entries;
  if (wchar_t* block = ::GetEnvironmentStringsW()) {
    for (const wchar_t* e = block; *e; e += wcslen(e) + 1) entries.emplace_back(e);
    ::FreeEnvironmentStringsW(block);
  }
  auto name_of = [](const std::wstring& entry) { return entry.substr(0, entry.find(L'=', 1)); };
  for (const auto& added : extra) {
    const std::wstring entry = widen(added);
    const std::wstring name = name_of(entry);
    std::erase_if(entries, [&](const std::wstring& e) {
      return ::CompareStringOrdinal(name_of(e).c_str(), -1, name.c_str(), -1, TRUE) == CSTR_EQUAL;
    });
    entries.push_back(entry);
  }
  std::wstring block;
  for (const auto& e : entries) block += e + L'\0';
  return block + L'\0';
}

HANDLE inheritable_file(const std::filesystem::path& path, DWORD access, DWORD disposition) {
  SECURITY_ATTRIBUTES inherit{sizeof inherit, nullptr, TRUE};
  const HANDLE h = ::CreateFileW(path.c_str(), access, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                                 &inherit, disposition, FILE_ATTRIBUTE_NORMAL, nullptr);
  if (h == INVALID_HANDLE_VALUE) fail("open " + path.string());
  return h;
}

}  // namespace

struct ChildProcess::Impl {
  HANDLE process = nullptr;
  DWORD id = 0;
  HANDLE in = nullptr;   // its stdin, our end
  HANDLE out = nullptr;  // its stdout, our end (the reader thread's)
  std::thread reader;
  std::mutex mutex;
  std::condition_variable arrived;
  std::string buffer;  // read from stdout, not yet taken by read()
  bool eof = false;

  void drain() {
    char chunk[65536];
    for (;;) {
      DWORD n = 0;
      const bool ok = ::ReadFile(out, chunk, sizeof chunk, &n, nullptr) != 0;
      std::lock_guard lock(mutex);
      if (!ok || n == 0) {
        eof = true;
        arrived.notify_all();
        return;
      }
      buffer.append(chunk, n);
      arrived.notify_all();
    }
  }
};

ChildProcess::ChildProcess(const Spec& spec) : impl_(std::make_unique<Impl>()) {
  static std::atomic<unsigned> counter{0};
  stderr_path_ = std::filesystem::temp_directory_path() /
                 ("mcpread-stderr-" + std::to_string(::GetCurrentProcessId()) + "-" + std::to_string(++counter));
  const HANDLE err = inheritable_file(stderr_path_, GENERIC_WRITE, CREATE_ALWAYS);
  HANDLE child_in = nullptr, child_out = nullptr;
  SECURITY_ATTRIBUTES inherit{sizeof inherit, nullptr, TRUE};
  if (spec.pipes) {
    // Only the child's ends are inherited.
    if (!::CreatePipe(&child_in, &impl_->in, &inherit, 0) || !::CreatePipe(&impl_->out, &child_out, &inherit, 0))
      fail("CreatePipe");
    ::SetHandleInformation(impl_->in, HANDLE_FLAG_INHERIT, 0);
    ::SetHandleInformation(impl_->out, HANDLE_FLAG_INHERIT, 0);
  } else {
    child_in = inheritable_file("NUL", GENERIC_READ, OPEN_EXISTING);
    child_out = inheritable_file("NUL", GENERIC_WRITE, OPEN_EXISTING);
  }

  // The program by its full Windows path: a POSIX-looking absolute path ("/work/...", as CMake
  // spells the build tree) is on the current drive, which is where Wine maps the build machine.
  const std::filesystem::path program = std::filesystem::absolute(spec.argv.front()).make_preferred();
  std::wstring line;
  append_argument(line, program.wstring());
  for (std::size_t i = 1; i < spec.argv.size(); ++i) append_argument(line, widen(spec.argv[i]));
  std::wstring environment = environment_block(spec.extra_env);
  STARTUPINFOW startup{};
  startup.cb = sizeof startup;
  startup.dwFlags = STARTF_USESTDHANDLES;
  startup.hStdInput = child_in;
  startup.hStdOutput = child_out;
  startup.hStdError = err;
  PROCESS_INFORMATION info{};
  const std::wstring cwd = spec.cwd.empty() ? std::wstring() : spec.cwd.wstring();
  // Wine 8 has been seen to fail a start with ERROR_INTERNAL_ERROR once in a few hundred: that
  // one error is tried again (twice at most), and said.
  bool started = false;
  DWORD error = 0;
  for (int attempt = 1; attempt <= 3 && !started; ++attempt) {
    started = ::CreateProcessW(program.c_str(), line.data(), nullptr, nullptr, TRUE,
                               CREATE_UNICODE_ENVIRONMENT | CREATE_NO_WINDOW, environment.data(),
                               cwd.empty() ? nullptr : cwd.c_str(), &startup, &info) != 0;
    error = ::GetLastError();
    if (started || error != ERROR_INTERNAL_ERROR) break;
    MESSAGE("CreateProcess " << program.string() << " failed with ERROR_INTERNAL_ERROR; trying again");
  }
  ::CloseHandle(child_in);
  ::CloseHandle(child_out);
  ::CloseHandle(err);
  if (!started) {
    ::SetLastError(error);
    fail("CreateProcess " + program.string());
  }
  ::CloseHandle(info.hThread);
  impl_->process = info.hProcess;
  impl_->id = info.dwProcessId;
  if (spec.pipes) impl_->reader = std::thread([impl = impl_.get()] { impl->drain(); });
}

ChildProcess::~ChildProcess() {
  close_stdin();
  if (!exit_status_ && impl_->process && !wait_exit(std::chrono::seconds(5))) {
    kill();
    wait_exit(std::chrono::seconds(10));
  }
  // The child is gone, so its end of the stdout pipe is closed and the reader has seen the end.
  if (impl_->reader.joinable()) impl_->reader.join();
  if (impl_->out) ::CloseHandle(impl_->out);
  if (impl_->process) ::CloseHandle(impl_->process);
  std::error_code ec;
  std::filesystem::remove(stderr_path_, ec);
}

void ChildProcess::write(std::string_view data) {
  while (!data.empty()) {
    DWORD n = 0;
    if (!impl_->in || !::WriteFile(impl_->in, data.data(), static_cast<DWORD>(data.size()), &n, nullptr) || n == 0)
      fail("write to the server");
    data.remove_prefix(n);
  }
}

void ChildProcess::close_stdin() {
  if (impl_->in) ::CloseHandle(impl_->in);
  impl_->in = nullptr;
}

ChildProcess::Read ChildProcess::read(std::string& out, std::chrono::milliseconds timeout) {
  std::unique_lock lock(impl_->mutex);
  impl_->arrived.wait_for(lock, timeout, [&] { return !impl_->buffer.empty() || impl_->eof; });
  if (!impl_->buffer.empty()) {
    out += impl_->buffer;
    impl_->buffer.clear();
    return Read::data;
  }
  return impl_->eof ? Read::eof : Read::timeout;
}

std::optional<int> ChildProcess::wait_exit(std::chrono::milliseconds timeout) {
  if (exit_status_ || !impl_->process) return exit_status_;
  if (::WaitForSingleObject(impl_->process, static_cast<DWORD>(std::max<long long>(0, timeout.count()))) !=
      WAIT_OBJECT_0)
    return std::nullopt;
  DWORD code = 0;
  ::GetExitCodeProcess(impl_->process, &code);
  exit_status_ = static_cast<int>(code);
  return exit_status_;
}

void ChildProcess::kill() {
  if (!exit_status_ && impl_->process) ::TerminateProcess(impl_->process, 128 + 9);
}

void ChildProcess::signal(int sig) {
  FAIL("signal " << sig << " cannot be sent on Windows: this test belongs to the POSIX suite");
}

pid_t ChildProcess::pid() const { return static_cast<pid_t>(impl_->id); }

}  // namespace mcpread::test
