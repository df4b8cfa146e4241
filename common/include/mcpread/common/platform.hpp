#pragma once
// Operating-system specific calls, each behind one function: the Linux call where it exists, a
// portable fallback elsewhere. (glibc's allocator calls stay at their call sites, under
// __GLIBC__.) The Linux and Windows branches are built and tested (Windows under Wine,
// scripts/windows/prove.sh); docs/portability.md says what the others need and what is unverified.
#include <fcntl.h>
#include <unistd.h>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>

#if defined(__linux__)
#include <sys/mman.h>    // memfd_create
#include <sys/random.h>  // getrandom
#endif
#if defined(_WIN32)
#include "mcpread/common/windows_text.hpp"  // windows.h, UTF-8 <-> UTF-16
#include <bcrypt.h>                         // BCryptGenRandom (link bcrypt)
#include <io.h>                             // _open_osfhandle
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
#elif defined(_WIN32)
  // The UTF-16 path, in a buffer grown until it fits: GetModuleFileNameW truncates silently and
  // says so only by filling the buffer (paths may exceed MAX_PATH with long-path support).
  std::wstring buf(MAX_PATH, L'\0');
  for (;;) {
    const DWORD n = ::GetModuleFileNameW(nullptr, buf.data(), static_cast<DWORD>(buf.size()));
    if (n == 0) return {};
    if (n < buf.size()) {
      buf.resize(n);
      return windows::narrow(buf);
    }
    if (buf.size() >= 32768) return {};  // the longest path Windows has
    buf.resize(buf.size() * 2);
  }
#else
  return {};
#endif
}

// An unnamed file for bytes a library wants to open by path: its descriptor (-1 on failure) and
// a path that opens it while the descriptor stays open. Linux: a memory file (memfd), named
// /proc/self/fd/N; Windows: a temporary file deleted on close, without a path; elsewhere an
// unlinked temporary file, named /dev/fd/N.
struct AnonymousFile {
  int fd = -1;
  std::string path;
};
inline AnonymousFile anonymous_file(const char* name) {
  AnonymousFile f;
#if defined(__linux__)
  f.fd = ::memfd_create(name, MFD_CLOEXEC);
  if (f.fd >= 0) f.path = "/proc/self/fd/" + std::to_string(f.fd);
#elif defined(_WIN32)
  // Windows has no memory files: a temporary file the system keeps in its cache while memory
  // allows (FILE_ATTRIBUTE_TEMPORARY) and deletes when its handle closes. No path is given: only
  // an open that shares its deletion could open it again, which libraries' opens do not.
  (void)name;
  std::wstring dir(MAX_PATH + 1, L'\0'), file(MAX_PATH + 1, L'\0');
  const DWORD n = ::GetTempPathW(static_cast<DWORD>(dir.size()), dir.data());
  if (n == 0 || n > dir.size() || ::GetTempFileNameW(dir.c_str(), L"mcr", 0, file.data()) == 0) return f;
  HANDLE h = ::CreateFileW(file.c_str(), GENERIC_READ | GENERIC_WRITE,
                           FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr, CREATE_ALWAYS,
                           FILE_ATTRIBUTE_TEMPORARY | FILE_FLAG_DELETE_ON_CLOSE, nullptr);
  if (h == INVALID_HANDLE_VALUE) {
    ::DeleteFileW(file.c_str());
    return f;
  }
  f.fd = ::_open_osfhandle(reinterpret_cast<std::intptr_t>(h), _O_RDWR | _O_BINARY | _O_NOINHERIT);
  if (f.fd < 0) ::CloseHandle(h);
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

// Fills `size` bytes at `buf` from the system's source of randomness: the bytes written (Linux's
// getrandom, which may write fewer or fail with -1 and errno, EINTR included), or -1.
inline std::ptrdiff_t random_bytes(void* buf, std::size_t size) {
#if defined(__linux__)
  return ::getrandom(buf, size, 0);
#elif defined(_WIN32)
  // The system-preferred generator needs no algorithm handle; it fills all or fails.
  if (size > 0xFFFFFFFFu) size = 0xFFFFFFFFu;
  const NTSTATUS status = ::BCryptGenRandom(nullptr, static_cast<PUCHAR>(buf),
                                            static_cast<ULONG>(size), BCRYPT_USE_SYSTEM_PREFERRED_RNG);
  return status >= 0 ? static_cast<std::ptrdiff_t>(size) : -1;
#else
  return ::getentropy(buf, size > 256 ? 256 : size) == 0 ? static_cast<std::ptrdiff_t>(size > 256 ? 256 : size) : -1;
#endif
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

// A path from UTF-8 and back. On Windows, std::filesystem::path holds UTF-16, and libstdc++
// converts narrow strings byte by byte (not as UTF-8) when a path is made from one, though
// string() gives UTF-8 back: names beyond ASCII must come in through here.
inline std::filesystem::path path_from_utf8(std::string_view utf8) {
#if defined(_WIN32)
  return std::filesystem::path(windows::widen(utf8));
#else
  return std::filesystem::path(utf8);
#endif
}

inline std::string path_to_utf8(const std::filesystem::path& p) {
#if defined(_WIN32)
  return windows::narrow(p.native());
#else
  return p.native();
#endif
}

}  // namespace mcpread::platform
