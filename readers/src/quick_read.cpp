#include "mcpread/readers/quick_read.hpp"

#include "mcpread/readers/classify.hpp"
#include "registry/classified_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <span>
#include <string_view>
#include <vector>

namespace mcpread::readers {
namespace {

// Reads what is cached at `offset`, never waiting for the disk: -1 (EAGAIN) when a page is not
// in the page cache, -1 (EOPNOTSUPP) where the filesystem cannot tell.
ssize_t read_cached(int fd, void* buf, std::size_t n, off_t offset) {
  iovec v{buf, n};
  ssize_t got;
  do {
    got = ::preadv2(fd, &v, 1, offset, RWF_NOWAIT);
  } while (got < 0 && errno == EINTR);
  return got;
}

}  // namespace

bool quick_text_read(const std::string& path, std::uint64_t max_bytes) {
  if (path.empty() || path.front() != '/') return false;  // relative paths need the roots
  struct stat st {};
  // stat first: a FIFO or a device must not be opened (opening a FIFO waits for a writer).
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
      static_cast<std::uint64_t>(st.st_size) > max_bytes)
    return false;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0) return false;
  struct stat opened {};
  std::vector<unsigned char> head(classify_head_bytes);
  bool quick = ::fstat(fd, &opened) == 0 && S_ISREG(opened.st_mode) && opened.st_ino == st.st_ino &&
               opened.st_dev == st.st_dev;  // still the file looked at
  ssize_t got = -1;
  if (quick) got = read_cached(fd, head.data(), head.size(), 0);
  unsigned char last = 0;
  quick = got > 0 && (opened.st_size <= got || read_cached(fd, &last, 1, opened.st_size - 1) == 1);
  ::close(fd);
  if (!quick) return false;
  const std::string_view name = std::string_view(path).substr(path.rfind('/') + 1);
  return classify(name, std::span(head.data(), static_cast<std::size_t>(got)),
                  static_cast<std::uint64_t>(opened.st_size))
             .kind == FileKind::text;
}

}  // namespace mcpread::readers
