#pragma once
// Helpers shared by the access tests: roots from paths, the error of a refusal, a check run
// without the privileges to bypass file permissions, a scoped environment variable.
#include "fixtures.hpp"
#include "mcpread/readers/access.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcpread::test::access_util {

using mcpread::readers::AccessError;
using mcpread::readers::AccessResult;
using mcpread::readers::Roots;

inline Roots roots_of(const std::vector<std::string>& dirs) {
  Roots roots;
  std::string error;
  REQUIRE_MESSAGE(Roots::from_paths(dirs, &roots, &error), error);
  return roots;
}

inline std::string error_of(const AccessResult& r) {
  REQUIRE(std::holds_alternative<AccessError>(r));
  return std::get<AccessError>(r).message;
}

inline std::string read_all(int fd) {
  std::string out;
  char buf[256];
  ssize_t n = 0;
  while ((n = ::read(fd, buf, sizeof buf)) > 0) out.append(buf, static_cast<std::size_t>(n));
  return out;
}

// Runs `f` without the privileges to bypass file permissions: directly for an ordinary user,
// as "nobody" in a child process for root. Empty (with a MESSAGE) when that is impossible.
inline constexpr std::string_view kCannotDrop = "(cannot drop privileges)";

inline std::optional<std::string> unprivileged(const std::function<std::string()>& f) {
  if (::geteuid() != 0) return f();
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::close(fds[0]);
    std::string msg(kCannotDrop);
    try {
      if (::setgid(65534) == 0 && ::setuid(65534) == 0) msg = f();
    } catch (...) {
      msg = "(the check threw in the child process)";
    }
    (void)!::write(fds[1], msg.data(), msg.size());
    ::_exit(0);
  }
  ::close(fds[1]);
  std::string got = read_all(fds[0]);
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (got == kCannotDrop) {
    MESSAGE("running as root and unable to become nobody: EACCES cannot be tested here");
    return std::nullopt;
  }
  return got;
}

inline bool fd_is_open(int fd) { return ::fcntl(fd, F_GETFD) != -1; }

inline std::string outside_message(const std::string& requested, const std::string& roots) {
  return "Access denied: " + requested + " is outside the allowed roots (" + roots +
         "). Read a file inside them, or start the server with the directory as a root.";
}

// Sets an environment variable for the scope of a test and restores it afterwards.
struct ScopedEnv {
  ScopedEnv(const char* n, const std::string& value) : name(n) {
    if (const char* v = std::getenv(n)) old = v;
    ::setenv(n, value.c_str(), 1);
  }
  ~ScopedEnv() { old ? (void)::setenv(name, old->c_str(), 1) : (void)::unsetenv(name); }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;
  const char* name;
  std::optional<std::string> old;
};

}  // namespace mcpread::test::access_util
