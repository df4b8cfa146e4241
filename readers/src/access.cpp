#include "mcpread/readers/access.hpp"

#include <fcntl.h>
#if __has_include(<linux/openat2.h>)
#include <linux/openat2.h>  // openat2 (Linux 5.6); elsewhere plain open() below
#endif
#include <pwd.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <system_error>

#include "mcpread/readers/utf8.hpp"
#include "similar.hpp"

namespace mcpread::readers {
namespace fs = std::filesystem;

namespace {

std::string errno_text(int err) { return std::generic_category().message(err); }

// On Linux close() releases the descriptor even when it reports EINTR; retrying could close a
// descriptor another thread has just been given. So: exactly one call, result ignored.
void close_fd(int fd) {
  if (fd >= 0) (void)::close(fd);
}

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

// "~" and "~/x" become $HOME and $HOME/x; "~user" is left alone.
std::string expand_home(std::string_view p) {
  if (p == "~" || p.starts_with("~/")) {
    std::string home = home_dir();
    if (!home.empty()) return home + std::string(p.substr(1));
  }
  return std::string(p);
}

bool is_dir_path(const fs::path& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// Keeps the order (the first root anchors relative paths) but drops duplicates and roots that
// lie inside another root.
std::vector<fs::path> normalise_roots(const std::vector<fs::path>& in) {
  std::vector<fs::path> out;
  for (std::size_t i = 0; i < in.size(); ++i) {
    bool drop = false;
    for (std::size_t j = 0; j < in.size() && !drop; ++j) {
      if (i == j) continue;
      drop = in[i] == in[j] ? j < i : is_within(in[j].native(), in[i].native());
    }
    if (!drop) out.push_back(in[i]);
  }
  return out;
}

AccessError outside_roots(const Roots& roots, const std::string& requested) {
  return {"Access denied: " + requested + " is outside the allowed roots (" + roots.describe() +
              "). Read a file inside them, or start the server with the directory as a root.",
          AccessError::Reason::outside_roots};
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

AccessError not_found(const std::string& requested, const std::string& lead,
                      const fs::path& dir, std::string_view name) {
  std::string msg = "File not found: " + requested + "." + lead;
  auto names = similar_names(dir, name);
  for (std::size_t i = 0; i < names.size(); ++i)
    msg += (i == 0 ? " Did you mean: " : ", ") + (dir / names[i]).string();
  if (!names.empty()) msg += "?";
  return {msg, AccessError::Reason::not_found};
}

AccessError permission_denied(const std::string& requested, int err) {
  return {"Permission denied: cannot read " + requested + " (" + errno_text(err) +
          "). Check the file's permissions."};
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
      return permission_denied(requested, err);
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

UniqueFd& UniqueFd::operator=(UniqueFd&& o) noexcept {
  if (this != &o) {
    close_fd(fd_);
    fd_ = o.release();
  }
  return *this;
}

UniqueFd::~UniqueFd() { close_fd(fd_); }

bool Roots::from_paths(const std::vector<std::string>& dirs, Roots* out, std::string* error) {
  std::vector<fs::path> resolved;
  for (const auto& d : dirs) {
    fs::path r;
    int err = 0;
    if (!resolve(expand_home(d), &r))
      err = errno;
    else if (!is_dir_path(r))
      err = ENOTDIR;
    if (err != 0) {
      if (error != nullptr)
        *error = utf8::sanitized("Cannot use " + (d.empty() ? std::string("an empty path") : d) +
                            " as an allowed root: " + errno_text(err) + ".");
      return false;
    }
    resolved.push_back(std::move(r));
  }
  out->dirs_ = normalise_roots(resolved);
  return true;
}

Roots Roots::narrowed_by(const std::vector<std::string>& client_dirs, bool replace) const {
  if (client_dirs.empty()) return *this;
  std::vector<fs::path> client;
  for (const auto& d : client_dirs) {
    fs::path r;
    if (resolve(d, &r) && is_dir_path(r)) client.push_back(std::move(r));
  }
  std::vector<fs::path> kept;
  if (replace) {
    if (client.empty()) return *this;  // nothing usable: keep the default root
    kept = client;
  } else {
    for (const auto& c : client)
      for (const auto& r : dirs_) {
        if (is_within(r.native(), c.native()))
          kept.push_back(c);
        else if (is_within(c.native(), r.native()))
          kept.push_back(r);
      }
  }
  Roots result;
  result.dirs_ = normalise_roots(kept);
  return result;
}

bool Roots::contains(const fs::path& resolved) const {
  return std::any_of(dirs_.begin(), dirs_.end(),
                     [&](const fs::path& d) { return is_within(d.native(), resolved.native()); });
}

std::string Roots::describe() const {
  if (dirs_.empty()) return "none";
  std::string s;
  for (const auto& d : dirs_) s += (s.empty() ? "" : ", ") + d.string();
  return s;
}

namespace {

// Paths in messages are the user's bytes and the file system's: open_in_roots makes them valid
// UTF-8 afterwards.
AccessResult open_checked(const Roots& roots, std::string_view requested) {
  const std::string req(requested);
  if (roots.empty())
    return AccessError{"Access denied: no directory is allowed (the list of allowed roots is "
                       "empty), so " + (req.empty() ? std::string("nothing") : req) +
                       " cannot be read.",
                       AccessError::Reason::outside_roots};
  if (requested.empty())
    return AccessError{"The file path is empty. Give an absolute path, or one relative to " +
                       roots.dirs().front().string() + "."};
  if (requested.find('\0') != std::string_view::npos)
    return AccessError{"The file path contains a NUL character, which no file name can hold."};

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
    if (err == EACCES || err == EPERM) return permission_denied(shown, err);
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

}  // namespace

AccessResult open_in_roots(const Roots& roots, std::string_view requested) {
  AccessResult result = open_checked(roots, requested);
  if (auto* e = std::get_if<AccessError>(&result)) e->message = utf8::sanitized(e->message);
  return result;
}

std::optional<PathInsideFile> split_at_file(const Roots& roots, std::string_view requested) {
  if (roots.empty() || requested.empty() || requested.find('\0') != std::string_view::npos) return std::nullopt;
  fs::path p = expand_home(requested);
  if (p.is_relative()) p = roots.dirs().front() / p;
  const fs::path normal = p.lexically_normal();
  fs::path prefix;
  auto part = normal.begin();
  for (; part != normal.end(); ++part) {
    if (part->empty()) continue;  // the trailing slash's empty name
    prefix /= *part;
    struct stat st {};
    if (::stat(prefix.c_str(), &st) != 0) return std::nullopt;
    if (S_ISREG(st.st_mode)) break;
    if (!S_ISDIR(st.st_mode)) return std::nullopt;
  }
  if (part == normal.end()) return std::nullopt;
  std::string inner;
  for (++part; part != normal.end(); ++part)
    if (!part->empty()) inner += (inner.empty() ? "" : "/") + part->string();
  return PathInsideFile{prefix.string(), std::move(inner)};
}

std::vector<std::string> similar_names(const fs::path& dir, std::string_view name,
                                       std::size_t max) {
  return detail::similar_names(dir, name, max);
}

}  // namespace mcpread::readers
