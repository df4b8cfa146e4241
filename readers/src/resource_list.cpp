// resources/list: a bounded, deterministic walk of the roots.
#include "mcpread/readers/resources.hpp"

#include "file_io.hpp"
#include "mcpread/readers/classify.hpp"
#include "mcpread/readers/utf8.hpp"

#include "mcpread/common/platform.hpp"

#if !defined(_WIN32)
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <utility>

namespace mcpread::readers {
namespace fs = std::filesystem;

namespace {

// Directories that hold dependencies or caches rather than the user's files.
bool skipped_directory(std::string_view name) {
  return name == "node_modules" || name == "__pycache__";
}

#if !defined(_WIN32)
struct DirCloser {
  void operator()(DIR* d) const { ::closedir(d); }
};

int open_directory(int at, const char* name) {
  int fd = -1;
  do fd = ::openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  while (fd < 0 && errno == EINTR);
  return fd;
}
#endif

class Walker {
 public:
  Walker(const Roots& roots, std::size_t skip, std::size_t count, const ResourceListLimits& limits,
         const CancelToken& cancel)
      : roots_(roots), skip_(skip), count_(count), limits_(limits), cancel_(cancel) {}

  ResourcePage run() {
    for (const auto& root : roots_.dirs()) {
      if (stop_) break;
      root_ = root;
      label_.clear();
      if (roots_.dirs().size() > 1 && !root.filename().empty()) label_ = root.filename().string() + "/";
#if defined(_WIN32)
      walk(root, "", 0);
#else
      const int fd = open_directory(AT_FDCWD, root.c_str());
      if (fd >= 0) walk(fd, "", 0);
#endif
    }
    return std::move(page_);
  }

 private:
  struct Name {
    std::string name;
    bool operator<(const Name& o) const { return name < o.name; }  // byte order
  };

  // True when the walk ends: the page is complete, the listing cap was reached, or the call
  // was cancelled.
  bool should_stop() {
    if (!stop_ && cancel_.cancelled()) {
      page_.cancelled = true;
      stop_ = true;
    }
    return stop_;
  }

#if defined(_WIN32)
  // Walks the folder `dir`, whose path relative to the root is `rel` ("" or ending in '/').
  // Symbolic links and junctions (reparse points) are never entered; one is listed when it
  // leads to a file inside the roots, as on other systems.
  void walk(const fs::path& dir, const std::string& rel, std::size_t depth) {
    std::vector<Name> names;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
      if (walked_ == limits_.max_walked) {
        page_.capped = true;
        exhausted_ = true;
        break;
      }
      ++walked_;
      std::string name = platform::path_to_utf8(it->path().filename());
      if (name.empty() || name.front() == '.') continue;
      names.push_back(Name{std::move(name)});
    }
    std::sort(names.begin(), names.end());
    for (const auto& [name] : names) {
      if (should_stop()) return;
      const fs::path child = dir / platform::path_from_utf8(name);
      const auto status = fs::symlink_status(child, ec);
      if (ec) continue;
      if (fs::is_symlink(status) || fs::is_other(status) || (fs::is_directory(status) && is_reparse_point(child))) {
        add_link(rel + name);
      } else if (fs::is_regular_file(status)) {
        add(rel + name, fs::file_size(child, ec));
      } else if (fs::is_directory(status)) {
        if (skipped_directory(name) || exhausted_) continue;
        if (depth + 1 > limits_.max_depth) {
          page_.capped = true;
          continue;
        }
        walk(child, rel + name + "/", depth + 1);
      }
    }
  }

  static bool is_reparse_point(const fs::path& p) {
    const DWORD attributes = ::GetFileAttributesW(p.c_str());
    return attributes != INVALID_FILE_ATTRIBUTES && (attributes & FILE_ATTRIBUTE_REPARSE_POINT) != 0;
  }

  // A link is listed when the roots check lets it be read as a file.
  void add_link(const std::string& rel) {
    const auto opened = open_in_roots(roots_, platform::path_to_utf8(root_) + "/" + rel);
    if (const auto* file = std::get_if<OpenedFile>(&opened))
      add(rel, static_cast<std::uint64_t>(file->st.st_size));
  }
#else
  // Walks the directory open as `fd` (taken over), whose path relative to the root is `rel`
  // ("" or ending in '/').
  void walk(int fd, const std::string& rel, std::size_t depth) {
    std::unique_ptr<DIR, DirCloser> dir(::fdopendir(fd));
    if (!dir) {
      ::close(fd);
      return;
    }
    std::vector<Name> names;
    for (;;) {
      errno = 0;
      const dirent* e = ::readdir(dir.get());
      if (e == nullptr) break;  // the end, or an error: list what was read
      if (walked_ == limits_.max_walked) {  // list what was read, enter nothing more
        page_.capped = true;
        exhausted_ = true;
        break;
      }
      ++walked_;
      const std::string_view name(e->d_name);
      if (name.empty() || name.front() == '.') continue;  // ".", "..", and hidden entries
      names.push_back(Name{std::string(name)});
    }
    std::sort(names.begin(), names.end());
    const int at = ::dirfd(dir.get());
    for (const auto& [name] : names) {
      if (should_stop()) return;
      struct stat st {};
      if (::fstatat(at, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
      if (S_ISREG(st.st_mode)) {
        add(rel + name, static_cast<std::uint64_t>(st.st_size));
      } else if (S_ISDIR(st.st_mode)) {
        if (skipped_directory(name) || exhausted_) continue;
        if (depth + 1 > limits_.max_depth) {
          page_.capped = true;
          continue;
        }
        const int child = open_directory(at, name.c_str());
        if (child < 0) continue;
        struct stat now {};
        // Replaced since it was looked at: leave it out rather than walk something else.
        if (::fstat(child, &now) != 0 || now.st_dev != st.st_dev || now.st_ino != st.st_ino) {
          ::close(child);
          continue;
        }
        walk(child, rel + name + "/", depth + 1);
      } else if (S_ISLNK(st.st_mode)) {
        add_link(rel + name);
      }
      // FIFOs, sockets and devices are left out without being opened.
    }
  }

  // A symbolic link is listed when it leads to a regular file inside the roots.
  void add_link(const std::string& rel) {
    const fs::path link = root_ / rel;
    char* resolved = ::realpath(link.c_str(), nullptr);
    if (resolved == nullptr) return;
    const fs::path target(resolved);
    std::free(resolved);
    struct stat st {};
    if (!roots_.contains(target) || ::stat(target.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return;
    add(rel, static_cast<std::uint64_t>(st.st_size));
  }

#endif

  void add(const std::string& rel, std::uint64_t size) {
    if (listed_ == limits_.max_listed) {  // one file more than may be listed
      page_.capped = true;
      stop_ = true;
      return;
    }
    const std::size_t index = listed_++;
    if (index < skip_) return;
    if (index - skip_ >= count_) {  // the first entry of the next page
      page_.more = true;
      stop_ = true;
      return;
    }
    page_.entries.push_back(ResourceEntry{file_uri(platform::path_to_utf8(root_ / platform::path_from_utf8(rel))), utf8::sanitized(label_ + rel),
                                          std::string(mime_for_name(rel)), size});
  }

  const Roots& roots_;
  std::size_t skip_;
  std::size_t count_;
  const ResourceListLimits& limits_;
  const CancelToken& cancel_;
  fs::path root_;
  std::string label_;
  std::size_t walked_ = 0;
  std::size_t listed_ = 0;
  bool stop_ = false;       // the page is complete, the listing cap was reached, or cancelled
  bool exhausted_ = false;  // max_walked entries were read: no directory is read any more
  ResourcePage page_;
};

}  // namespace

ResourcePage list_resources(const Roots& roots, std::size_t skip, std::size_t count,
                            const ResourceListLimits& limits, const CancelToken& cancel) {
  return Walker(roots, skip, count, limits, cancel).run();
}

}  // namespace mcpread::readers
