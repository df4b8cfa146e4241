// The roots check on Linux and other POSIX systems (access_platform.hpp): realpath() resolves,
// openat2 (or O_NOFOLLOW) opens what was resolved, fstat confirms it is what was checked.
#include "access_platform.hpp"

#include <fcntl.h>
#if __has_include(<linux/openat2.h>)
#include <linux/openat2.h>  // openat2 (Linux 5.6); elsewhere plain open() below
#endif
#include <pwd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <system_error>
#include <vector>

namespace mcpread::readers::access_detail {
namespace fs = std::filesystem;

namespace {

std::string errno_text(int err) { return std::generic_category().message(err); }

// realpath() into *out; false (errno set) on failure.
bool resolve(const fs::path& p, fs::path* out) {
  char* r = ::realpath(p.c_str(), nullptr);
  if (r == nullptr) return false;
  *out = r;
  std::free(r);
  return true;
}

std::string strip_trailing_slashes(std::string s) {
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

// Path-component prefix test on normalised absolute paths: "/a/b" holds "/a/b/c", not "/a/bc".
bool is_within(const std::string& dir, const std::string& p) {
  if (dir == "/") return !p.empty() && p.front() == '/';
  return p.size() >= dir.size() && p.compare(0, dir.size(), dir) == 0 &&
         (p.size() == dir.size() || p[dir.size()] == '/');
}

std::string home_dir() {
  if (const char* h = std::getenv("HOME"); h != nullptr && *h != '\0') return h;
  long n = ::sysconf(_SC_GETPW_R_SIZE_MAX);
  std::vector<char> buf(n > 0 ? static_cast<std::size_t>(n) : 16384);
  passwd pw{};
  passwd* found = nullptr;
  if (::getpwuid_r(::geteuid(), &pw, buf.data(), buf.size(), &found) == 0 && found != nullptr &&
      found->pw_dir != nullptr)
    return found->pw_dir;
  return {};
}

bool is_dir_path(const fs::path& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// `lexical` resolved to `resolved`, outside the roots. When the path as written lies inside a
// root, a symbolic link took it out: name the link.
AccessError denied(const Roots& roots, const std::string& requested, const std::string& lexical,
                   const fs::path& resolved) {
  if (!roots.contains(lexical)) return outside_roots(roots, requested);
  fs::path link;  // the first link on the way whose target lies outside
  fs::path prefix;
  for (const auto& part : fs::path(lexical)) {
    prefix /= part;
    struct stat st {};
    fs::path target;
    if (roots.contains(prefix) && ::lstat(prefix.c_str(), &st) == 0 && S_ISLNK(st.st_mode) &&
        (!resolve(prefix, &target) || !roots.contains(target))) {
      link = prefix;
      break;
    }
  }
  const std::string tail = " the allowed roots (" + roots.describe() + ") to " +
                           resolved.string() + ".";
  if (!link.empty() && link != fs::path(lexical))
    return {"Access denied: " + requested + " goes through the symbolic link " + link.string() +
                ", which leads outside" + tail,
            AccessError::Reason::outside_roots};
  return {"Access denied: " + requested + " is a symbolic link that leads outside" + tail,
          AccessError::Reason::outside_roots};
}

// realpath() of `lexical` failed with `err`. Judges the failure by the deepest ancestor that
// resolves, so that nothing about places outside the roots is revealed.
AccessError explain_failure(const Roots& roots, const std::string& requested,
                            const std::string& lexical, int err) {
  fs::path child(lexical);
  fs::path dir = child.parent_path();
  fs::path ancestor;
  while (!resolve(dir, &ancestor)) {
    if (dir == dir.parent_path()) return {"Cannot read " + requested + ": " + errno_text(err) + "."};
    child = dir;
    dir = dir.parent_path();
  }
  if (!roots.contains(ancestor))
    return denied(roots, requested, lexical, ancestor / fs::path(lexical).lexically_relative(dir));
  switch (err) {
    case ENOENT: {
      struct stat st {};
      if (::lstat(lexical.c_str(), &st) == 0 && S_ISLNK(st.st_mode))
        return {"File not found: " + requested +
                    " is a symbolic link whose target does not exist.",
                AccessError::Reason::not_found};
      if (child == fs::path(lexical)) return not_found(requested, "", ancestor, child.filename().native());
      return not_found(requested, " The directory " + child.string() + " does not exist.", ancestor,
                       child.filename().native());
    }
    case ENOTDIR:
      return {"Cannot read " + requested + ": " +
                  (is_dir_path(ancestor) ? lexical : dir.string()) + " is not a directory (" +
                  errno_text(err) + ").",
              AccessError::Reason::not_found};
    case ELOOP:
      return {"Cannot read " + requested + ": symbolic link loop (" + errno_text(err) + ")."};
    case EACCES:
      if (is_dir_path(ancestor) && ::access(ancestor.c_str(), X_OK) != 0)
        return {"Permission denied: cannot read " + requested + ": the directory " + dir.string() +
                " cannot be searched (" + errno_text(err) + "). Check the directory's permissions."};
      return permission_denied(requested, errno_text(err));
    default:
      return {"Cannot read " + requested + ": " + errno_text(err) + "."};
  }
}

std::string_view type_name(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  return "not a regular file";
}

// Opens a path that realpath() produced. openat2 with RESOLVE_NO_SYMLINKS refuses a symbolic
// link swapped into any component since; plain open() (kernels before 5.6) guards only the last.
int open_resolved(const fs::path& p) {
  constexpr int kFlags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY;
  static std::atomic<bool> openat2_missing{false};
  int fd = -1;
#if defined(SYS_openat2) && defined(RESOLVE_NO_SYMLINKS)
  if (!openat2_missing.load(std::memory_order_relaxed)) {
    open_how how{};
    how.flags = static_cast<std::uint64_t>(kFlags);
    how.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
    long r = -1;
    do r = ::syscall(SYS_openat2, AT_FDCWD, p.c_str(), &how, sizeof how);
    while (r < 0 && errno == EINTR);
    if (r >= 0) return static_cast<int>(r);
    // ENOSYS: old kernel. EPERM: a seccomp filter that does not know the call.
    if (errno != ENOSYS && errno != EPERM) return -1;
    if (errno == ENOSYS) openat2_missing.store(true, std::memory_order_relaxed);
  }
#endif
  do fd = ::open(p.c_str(), kFlags);
  while (fd < 0 && errno == EINTR);
  return fd;
}

}  // namespace

// "~" and "~/x" become $HOME and $HOME/x; "~user" is left alone.
std::string expand_home(std::string_view p) {
  if (p == "~" || p.starts_with("~/")) {
    std::string home = home_dir();
    if (!home.empty()) return home + std::string(p.substr(1));
  }
  return std::string(p);
}

std::optional<fs::path> resolve_directory(std::string_view dir, std::string* why) {
  fs::path r;
  int err = 0;
  if (!resolve(expand_home(dir), &r))
    err = errno;
  else if (!is_dir_path(r))
    err = ENOTDIR;
  if (err == 0) return r;
  if (why != nullptr) *why = errno_text(err);
  return std::nullopt;
}

bool within(const fs::path& dir, const fs::path& p) { return is_within(dir.native(), p.native()); }

AccessResult open_checked(const Roots& roots, std::string_view requested) {
  fs::path p = expand_home(requested);
  if (p.is_relative()) p = roots.dirs().front() / p;
  const fs::path normal = p.lexically_normal();  // a trailing '/' stays: it demands a directory
  const std::string lexical = strip_trailing_slashes(normal.string());
  // Messages name the absolute path the request stands for, so a relative request shows where
  // it was looked for.
  const std::string& shown = lexical;

  fs::path resolved;
  if (!resolve(normal, &resolved)) return explain_failure(roots, shown, lexical, errno);
  if (!roots.contains(resolved)) return denied(roots, shown, lexical, resolved);

  struct stat st {};
  if (::lstat(resolved.c_str(), &st) != 0) return explain_failure(roots, shown, lexical, errno);
  if (S_ISDIR(st.st_mode)) return DirectoryTarget{resolved};
  if (S_ISLNK(st.st_mode))
    return AccessError{"Cannot read " + shown + ": the path changed while it was being opened (a "
                       "symbolic link appeared in it). Try again."};
  if (!S_ISREG(st.st_mode))
    return AccessError{shown + " is " + std::string(type_name(st.st_mode)) +
                           "; only regular files and directories can be read.",
                       AccessError::Reason::special_file};

  UniqueFd fd(open_resolved(resolved));
  if (!fd.valid()) {
    const int err = errno;
    if (err == EACCES || err == EPERM) return permission_denied(shown, errno_text(err));
    if (err == ELOOP)
      return AccessError{"Cannot read " + shown + ": the path changed while it was being opened (a "
                         "symbolic link appeared in it). Try again."};
    if (err == ENOENT) return AccessError{"File not found: " + shown + ".", AccessError::Reason::not_found};
    return AccessError{"Cannot read " + shown + ": " + errno_text(err) + "."};
  }
  struct stat now {};
  if (::fstat(fd.get(), &now) != 0)
    return AccessError{"Cannot read " + shown + ": " + errno_text(errno) + "."};
  if (!S_ISREG(now.st_mode) || now.st_dev != st.st_dev || now.st_ino != st.st_ino)
    return AccessError{"Cannot read " + shown +
                       ": the file changed while it was being opened. Try again."};
  return OpenedFile{std::move(fd), now, resolved};
}
}  // namespace mcpread::readers::access_detail
