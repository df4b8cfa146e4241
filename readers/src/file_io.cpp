#include "file_io.hpp"

#include "mcpread/common/prefault.hpp"
#include "mcpread/common/spare_buffers.hpp"

#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace mcpread::readers::file_io {

namespace {

// Reads until `max` bytes or the end of the file; preadv2's flags (RWF_NOWAIT: from the page cache
// only) or 0 for a plain pread.
std::optional<std::size_t> read_full(int fd, char* buf, std::size_t max, std::uint64_t offset, int flags) {
  std::size_t got = 0;
  while (got < max) {
    iovec v{buf + got, max - got};
    const ssize_t n = flags == 0 ? ::pread(fd, v.iov_base, v.iov_len, static_cast<off_t>(offset + got))
                                 : ::preadv2(fd, &v, 1, static_cast<off_t>(offset + got), flags);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return std::nullopt;
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  return got;
}

}  // namespace

std::optional<std::size_t> pread_full(int fd, char* buf, std::size_t max, std::uint64_t offset) {
  return read_full(fd, buf, max, offset, 0);
}

std::optional<std::size_t> pread_full_cached(int fd, char* buf, std::size_t max, std::uint64_t offset) {
  return read_full(fd, buf, max, offset, RWF_NOWAIT);
}

namespace {

template <class Buffer>
std::optional<Buffer> read_into(Buffer out, bool reused, int fd, std::uint64_t size_hint, std::uint64_t limit) {
  // One byte more than expected, to see whether the file grew.
  std::size_t capacity = static_cast<std::size_t>(std::min<std::uint64_t>(size_hint, limit)) + 1;
  for (;;) {
    const std::size_t have = out.size();
    if (!reused || out.capacity() < capacity) {
      out.reserve(capacity);
      common::prefault_for_writing(out.data() + have, capacity - have);
    }
    out.resize(capacity);
    const auto got = pread_full(fd, reinterpret_cast<char*>(out.data()) + have, capacity - have, have);
    if (!got) return std::nullopt;
    out.resize(have + *got);
    if (out.size() < capacity) return out;  // reached the end
    if (out.size() > limit) {
      errno = EFBIG;
      return std::nullopt;
    }
    capacity = static_cast<std::size_t>(std::min<std::uint64_t>(capacity * 2, limit + 1));
  }
}

}  // namespace

std::optional<std::string> read_whole(int fd, std::uint64_t size_hint, std::uint64_t limit) {
  return read_into(std::string(), false, fd, size_hint, limit);
}

std::optional<std::vector<std::uint8_t>> read_whole_bytes(int fd, std::uint64_t size_hint, std::uint64_t limit) {
  // The bytes of an image or a recording, sent as they are more often than not: the last large
  // answer's file buffer, when the server gave it back (common/spare_buffers.hpp).
  bool reused = false;
  auto out = common::spare::bytes().take(
      static_cast<std::size_t>(std::min<std::uint64_t>(size_hint, limit)) + 1, &reused);
  return read_into(std::move(out), reused, fd, size_hint, limit);
}

std::string identity_key(const struct stat& st) {
  return std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino) + ":" + std::to_string(st.st_mtim.tv_sec) + "." +
         std::to_string(st.st_mtim.tv_nsec) + ":" + std::to_string(st.st_size);
}

}  // namespace mcpread::readers::file_io
