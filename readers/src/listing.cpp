#include "mcpread/readers/listing.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

#include "mcpread/readers/utf8.hpp"

namespace mcpread::readers {
namespace {

// Counting stops here so that a pathological directory cannot hold the reader for long.
constexpr std::size_t kMaxScanned = 1'000'000;

struct Entry {
  std::string name;
  bool directory = false;
  bool operator<(const Entry& o) const { return name < o.name; }  // byte order
};

struct DirCloser {
  void operator()(DIR* d) const { ::closedir(d); }
};

std::string errno_text(int err) { return std::generic_category().message(err); }

// Directories, and symbolic links that lead to one, get the trailing '/'.
bool is_directory_entry(int dir_fd, const dirent& e) {
  if (e.d_type == DT_DIR) return true;
  if (e.d_type != DT_LNK && e.d_type != DT_UNKNOWN) return false;
  struct stat st {};
  return ::fstatat(dir_fd, e.d_name, &st, 0) == 0 && S_ISDIR(st.st_mode);
}

// One line per name, whatever bytes it holds: control characters are escaped and invalid
// UTF-8 becomes U+FFFD, so the listing stays valid UTF-8 with one entry per line.
void append_name(std::string_view name, std::string& out) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string escaped;
  escaped.reserve(name.size());
  for (char c : name) {
    const auto b = static_cast<unsigned char>(c);
    if (c == '\n') {
      escaped += "\\n";
    } else if (c == '\t') {
      escaped += "\\t";
    } else if (c == '\r') {
      escaped += "\\r";
    } else if (b < 0x20 || b == 0x7f) {
      escaped += "\\x";
      escaped += kHex[b >> 4];
      escaped += kHex[b & 0xF];
    } else {
      escaped += c;
    }
  }
  utf8::append_sanitized(escaped, out);
}

std::string counted(std::size_t n, std::string_view one, std::string_view many) {
  return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

// Keeps only the `keep` smallest names once the vector grows well past it.
void trim(std::vector<Entry>& entries, std::size_t keep) {
  if (entries.size() <= keep) return;
  std::nth_element(entries.begin(), entries.begin() + static_cast<std::ptrdiff_t>(keep),
                   entries.end());
  entries.resize(keep);
}

ReadOutcome list_error(const std::filesystem::path& dir, int err) {
  std::string path;
  append_name(dir.native(), path);
  if (err == EACCES || err == EPERM)
    return ReadOutcome::error("Permission denied: cannot list the directory " + path + " (" +
                              errno_text(err) + "). Check the directory's permissions.");
  return ReadOutcome::error("Cannot list the directory " + path + ": " + errno_text(err) + ".");
}

}  // namespace

ReadOutcome list_directory(const std::filesystem::path& dir, std::size_t max_entries) {
  int fd = -1;
  do fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK);
  while (fd < 0 && errno == EINTR);
  if (fd < 0) return list_error(dir, errno);
  std::unique_ptr<DIR, DirCloser> d(::fdopendir(fd));
  if (!d) {
    const int err = errno;
    ::close(fd);
    return list_error(dir, err);
  }

  std::vector<Entry> entries;
  const std::size_t trim_at = max_entries > kMaxScanned
                                  ? kMaxScanned + 1  // never: everything scanned fits
                                  : std::max<std::size_t>(2 * max_entries, 1024);
  std::size_t total = 0;
  std::size_t directories = 0;
  bool at_least = false;
  for (;;) {
    errno = 0;
    const dirent* e = ::readdir(d.get());
    if (e == nullptr) {
      if (errno != 0) return list_error(dir, errno);
      break;
    }
    const std::string_view name(e->d_name);
    if (name == "." || name == "..") continue;
    if (total == kMaxScanned) {
      at_least = true;
      break;
    }
    ++total;
    const bool is_dir = is_directory_entry(fd, *e);
    if (is_dir) ++directories;
    entries.push_back(Entry{std::string(name), is_dir});
    if (entries.size() >= trim_at) trim(entries, max_entries);
  }

  std::string path;
  append_name(dir.native(), path);
  ReadOutcome out;
  const std::size_t files = total - directories;
  const bool truncated = total > max_entries;
  const std::size_t shown = std::min(total, max_entries);
  std::string meta_path;
  utf8::append_sanitized(dir.native(), meta_path);
  out.meta = {{"path", meta_path}, {"entries", total},   {"directories", directories},
              {"files", files},     {"shown", shown},     {"truncated", truncated},
              {"entries_at_least", at_least}};  // true: counting stopped at kMaxScanned
  if (total == 0) {
    out.blocks.emplace_back(TextBlock{"Directory " + path + ": empty."});
    return out;
  }
  trim(entries, max_entries);
  std::sort(entries.begin(), entries.end());

  const std::string count = (at_least ? "at least " : "") + counted(total, "entry", "entries");
  std::string text = "Directory " + path + ": " + count + " (" +
                     counted(directories, "directory", "directories") + ", " +
                     counted(files, "file", "files") + ")";
  for (const auto& entry : entries) {
    text += '\n';
    append_name(entry.name, text);
    if (entry.directory) text += '/';
  }
  if (truncated)
    text += "\n[Showing " + std::to_string(shown) + " of " + count + ".]";
  else if (at_least)
    text += "\n[Stopped counting after " + counted(total, "entry", "entries") + ".]";
  out.blocks.emplace_back(TextBlock{std::move(text)});
  return out;
}

}  // namespace mcpread::readers
