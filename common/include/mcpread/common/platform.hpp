#pragma once
// Operating-system specific calls, each behind one function: the Linux call where it exists, a
// portable fallback elsewhere. (glibc's allocator calls stay at their call sites, under
// __GLIBC__.) Only the Linux branches are built and tested; docs/portability.md says what the
// others need and what is unverified.
#include <fcntl.h>
#include <unistd.h>

#include <climits>
#include <cstdint>
#include <cstdlib>
#include <string>

#if defined(__linux__)
#include <sys/mman.h>  // memfd_create
#endif
#if defined(__APPLE__)
#include <mach-o/dyld.h>  // _NSGetExecutablePath
#endif

namespace mcpread::platform {

// The running executable's absolute path, or "" when the system cannot say (then callers fall
// back to configured absolute paths).
inline std::string executable_path() {
#if defined(__linux__)
  std::string buf(4096, '\0');
  const ssize_t n = ::readlink("/proc/self/exe", buf.data(), buf.size() - 1);
  if (n <= 0) return {};
  buf.resize(static_cast<std::size_t>(n));
  return buf;
#elif defined(__APPLE__)
  char raw[4096];
  std::uint32_t size = sizeof raw;
  if (::_NSGetExecutablePath(raw, &size) != 0) return {};
  char resolved[PATH_MAX];
  return ::realpath(raw, resolved) != nullptr ? std::string(resolved) : std::string();
#else
  return {};
#endif
}

// An unnamed file for bytes a library wants to open by path: its descriptor (-1 on failure) and
// a path that opens it while the descriptor stays open. Linux: a memory file (memfd), named
// /proc/self/fd/N; elsewhere an unlinked temporary file, named /dev/fd/N.
struct AnonymousFile {
  int fd = -1;
  std::string path;
};
inline AnonymousFile anonymous_file(const char* name) {
  AnonymousFile f;
#if defined(__linux__)
  f.fd = ::memfd_create(name, MFD_CLOEXEC);
  if (f.fd >= 0) f.path = "/proc/self/fd/" + std::to_string(f.fd);
#else
  (void)name;
  const char* dir = std::getenv("TMPDIR");
  std::string templ = std::string(dir != nullptr && *dir != '\0' ? dir : "/tmp") + "/mcp-read-XXXXXX";
  f.fd = ::mkstemp(templ.data());
  if (f.fd >= 0) {
    ::unlink(templ.c_str());
    ::fcntl(f.fd, F_SETFD, FD_CLOEXEC);
    f.path = "/dev/fd/" + std::to_string(f.fd);
  }
#endif
  return f;
}

// A path that opens the file open as `fd` itself (Linux: /proc/self/fd/N, a new open of the same
// file even if it was renamed or replaced since), for a library that reads files by path; empty
// where there is none, or /proc is not mounted.
inline std::string descriptor_path(int fd) {
#if defined(__linux__)
  std::string path = "/proc/self/fd/" + std::to_string(fd);
  if (::access(path.c_str(), R_OK) == 0) return path;
#else
  (void)fd;
#endif
  return {};
}

// Asks for a pipe buffer of `bytes` on a pipe descriptor (Linux F_SETPIPE_SZ); elsewhere pipes
// keep their size.
inline void enlarge_pipe(int fd, int bytes) {
#if defined(F_SETPIPE_SZ)
  ::fcntl(fd, F_SETPIPE_SZ, bytes);
#else
  (void)fd;
  (void)bytes;
#endif
}

// The file name under which the system's loader knows a library given by its Linux soname
// ("libvips.so.42"): the same on Linux, "libvips.42.dylib" on macOS, "libvips-42.dll" on Windows
// (the MSYS2/MinGW naming). Names without ".so." are returned unchanged.
inline std::string library_file_name(const std::string& soname) {
#if defined(__APPLE__) || defined(_WIN32)
  const auto at = soname.find(".so.");
  if (at == std::string::npos) return soname;
  const std::string base = soname.substr(0, at), version = soname.substr(at + 4);
#if defined(__APPLE__)
  return base + "." + version + ".dylib";
#else
  return base + "-" + version + ".dll";
#endif
#else
  return soname;
#endif
}

}  // namespace mcpread::platform
