#pragma once
// Confinement of reads to allowed roots. Every path is resolved with realpath and must lie inside
// a root; the resolved path is opened with O_NOFOLLOW|O_NONBLOCK and fstat'ed so that FIFOs,
// sockets and devices are refused without ever blocking.
#include <sys/stat.h>

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace mcpread::readers {

// Owns a file descriptor; closes it on destruction.
class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : fd_(fd) {}
  UniqueFd(UniqueFd&& o) noexcept : fd_(o.release()) {}
  UniqueFd& operator=(UniqueFd&& o) noexcept;
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  ~UniqueFd();
  [[nodiscard]] int get() const { return fd_; }
  [[nodiscard]] bool valid() const { return fd_ >= 0; }
  int release() {
    int f = fd_;
    fd_ = -1;
    return f;
  }

 private:
  int fd_ = -1;
};

class Roots {
 public:
  Roots() = default;
  // Resolves each directory with realpath. Fails (returns false, fills *error) when one does not
  // exist or is not a directory.
  [[nodiscard]] static bool from_paths(const std::vector<std::string>& dirs, Roots* out, std::string* error);

  // Client roots (paths, already stripped of file://) narrow these roots: the result holds, for
  // each pair, the deeper of the two when one contains the other, the client's order first (its
  // first root anchors relative paths). Client roots that do not exist or lie outside every root
  // are dropped; when nothing overlaps the result is empty. When `replace` is true (the server
  // was started with the default root), client roots that exist replace the roots instead (and
  // when none exists the roots stay). An empty client list leaves the roots unchanged.
  [[nodiscard]] Roots narrowed_by(const std::vector<std::string>& client_dirs, bool replace) const;

  [[nodiscard]] const std::vector<std::filesystem::path>& dirs() const { return dirs_; }
  [[nodiscard]] bool empty() const { return dirs_.empty(); }
  [[nodiscard]] bool contains(const std::filesystem::path& resolved) const;
  // "/a, /b" for error messages; "none" when empty.
  [[nodiscard]] std::string describe() const;

 private:
  std::vector<std::filesystem::path> dirs_;
};

// A regular file opened for reading.
struct OpenedFile {
  UniqueFd fd;
  struct stat st {};
  std::filesystem::path path;  // resolved (realpath) path
};

// A directory inside the roots; the caller lists it.
struct DirectoryTarget {
  std::filesystem::path path;  // resolved
};

struct AccessError {
  // What kind of refusal, for callers that answer differently (resources/read: not found).
  enum class Reason {
    other,          // permission denied, I/O errors, a path that changed while being opened
    not_found,      // nothing there (also a dangling symbolic link, a file used as a directory)
    outside_roots,  // outside every allowed root, or led out by a symbolic link
    special_file,   // a FIFO, socket or device: refused without being opened
  };
  std::string message;  // complete, user-facing: what, which path, what to do
  Reason reason = Reason::other;
};

using AccessResult = std::variant<OpenedFile, DirectoryTarget, AccessError>;

// Resolves `requested` (absolute, or relative to the first root; "~" and "~/x" are expanded
// with $HOME) against the roots and opens it. Messages name the normalised absolute path the
// request stands for. Missing files get "did you mean" suggestions of up to 3 similar names from
// the same directory (never from outside the roots).
AccessResult open_in_roots(const Roots& roots, std::string_view requested);

// A path that goes on past a regular file, split there: the file's path (absolute, as written,
// "~" expanded) and what follows it ("/data/a.zip" and "docs/x.txt" for
// "/data/a.zip/docs/x.txt"; an empty rest for "/data/a.zip/"), for the readers that look inside
// files (archives). nullopt when no component of the path is a regular file with more after it.
// Nothing is checked against the roots here: the caller opens the file with open_in_roots.
struct PathInsideFile {
  std::string file;
  std::string inner;
};
std::optional<PathInsideFile> split_at_file(const Roots& roots, std::string_view requested);

// Up to `max` names in `dir` similar to `name` (case-insensitive edit distance / prefix), best
// first. Exposed for tests.
std::vector<std::string> similar_names(const std::filesystem::path& dir, std::string_view name,
                                       std::size_t max = 3);

}  // namespace mcpread::readers
