#include "dir_scan.hpp"

#include "mcpread/common/platform.hpp"

#if !defined(_WIN32)
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <memory>
#endif

namespace mcpread::readers::dir_scan {

#if defined(_WIN32)

std::error_code scan(const std::filesystem::path& dir,
                     const std::function<bool(std::string_view name, bool directory)>& each) {
  std::error_code ec;
  std::filesystem::directory_iterator it(dir, ec);
  for (; !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
    std::error_code type_ec;
    // is_directory follows a symbolic link or junction, as stat() does on POSIX.
    const bool directory = it->is_directory(type_ec);
    if (!each(platform::path_to_utf8(it->path().filename()), directory)) return {};
  }
  return ec;
}

#else

namespace {

struct DirCloser {
  void operator()(DIR* d) const { ::closedir(d); }
};

// Directories, and symbolic links that lead to one.
bool is_directory_entry(int dir_fd, const dirent& e) {
  if (e.d_type == DT_DIR) return true;
  if (e.d_type != DT_LNK && e.d_type != DT_UNKNOWN) return false;
  struct stat st {};
  return ::fstatat(dir_fd, e.d_name, &st, 0) == 0 && S_ISDIR(st.st_mode);
}

}  // namespace

std::error_code scan(const std::filesystem::path& dir,
                     const std::function<bool(std::string_view name, bool directory)>& each) {
  int fd = -1;
  // O_NONBLOCK: a FIFO swapped in for the directory is not waited on.
  do fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK);
  while (fd < 0 && errno == EINTR);
  if (fd < 0) return {errno, std::generic_category()};
  std::unique_ptr<DIR, DirCloser> d(::fdopendir(fd));
  if (!d) {
    const int err = errno;
    ::close(fd);
    return {err, std::generic_category()};
  }
  for (;;) {
    errno = 0;
    const dirent* e = ::readdir(d.get());
    if (e == nullptr) return errno != 0 ? std::error_code(errno, std::generic_category()) : std::error_code();
    const std::string_view name(e->d_name);
    if (name == "." || name == "..") continue;
    if (!each(name, is_directory_entry(fd, *e))) return {};
  }
}

#endif

}  // namespace mcpread::readers::dir_scan
