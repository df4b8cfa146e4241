#include "file_io.hpp"

#include "mcpread/common/prefault.hpp"
#include "mcpread/common/spare_buffers.hpp"
#include "mcpread/readers/access.hpp"

#if defined(_WIN32)
#include "mcpread/common/windows_text.hpp"

#include <io.h>
#else
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <cerrno>

namespace mcpread::readers::file_io {

namespace {

#if defined(_WIN32)
// Windows has no pread: ReadFile at an offset (OVERLAPPED's Offset on a synchronous handle) reads
// there whatever the handle's position. Nothing can read only from the cache, so `nowait` fails
// with EOPNOTSUPP and the caller reads on a worker.
std::optional<std::size_t> read_full(int fd, char* buf, std::size_t max, std::uint64_t offset, bool nowait) {
  if (nowait) {
    errno = EOPNOTSUPP;
    return std::nullopt;
  }
  const auto handle = reinterpret_cast<HANDLE>(::_get_osfhandle(fd));
  if (handle == INVALID_HANDLE_VALUE) {
    errno = EBADF;
    return std::nullopt;
  }
  std::size_t got = 0;
  while (got < max) {
    OVERLAPPED at{};
    const std::uint64_t pos = offset + got;
    at.Offset = static_cast<DWORD>(pos & 0xFFFFFFFFu);
    at.OffsetHigh = static_cast<DWORD>(pos >> 32);
    const DWORD want = static_cast<DWORD>(std::min<std::size_t>(max - got, 1u << 30));
    DWORD n = 0;
    if (!::ReadFile(handle, buf + got, want, &n, &at)) {
      if (::GetLastError() == ERROR_HANDLE_EOF) break;
      errno = EIO;
      return std::nullopt;
    }
    if (n == 0) break;
    got += n;
  }
  return got;
}
#else
// Reads until `max` bytes or the end of the file; with `nowait`, preadv2's RWF_NOWAIT (from the
// page cache only), else a plain pread.
std::optional<std::size_t> read_full(int fd, char* buf, std::size_t max, std::uint64_t offset, bool nowait) {
  std::size_t got = 0;
  while (got < max) {
    iovec v{buf + got, max - got};
    const ssize_t n = !nowait ? ::pread(fd, v.iov_base, v.iov_len, static_cast<off_t>(offset + got))
                              : ::preadv2(fd, &v, 1, static_cast<off_t>(offset + got), RWF_NOWAIT);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return std::nullopt;
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  return got;
}
#endif

}  // namespace

std::optional<std::size_t> pread_full(int fd, char* buf, std::size_t max, std::uint64_t offset) {
  return read_full(fd, buf, max, offset, false);
}

std::optional<std::size_t> pread_full_cached(int fd, char* buf, std::size_t max, std::uint64_t offset) {
  return read_full(fd, buf, max, offset, true);
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

FileIdentity identity(const OpenedFile& file) {
  FileIdentity id;
  id.size = static_cast<std::uint64_t>(file.st.st_size);
#if defined(_WIN32)
  // The C library's stat has neither an inode nor nanoseconds there: the handle has both.
  BY_HANDLE_FILE_INFORMATION info{};
  const auto handle = reinterpret_cast<HANDLE>(::_get_osfhandle(file.fd.get()));
  if (handle != INVALID_HANDLE_VALUE && ::GetFileInformationByHandle(handle, &info)) {
    id.device = info.dwVolumeSerialNumber;
    id.inode = (std::uint64_t{info.nFileIndexHigh} << 32) | info.nFileIndexLow;
    // FILETIME counts 100 ns since 1601; only equality matters here.
    id.mtime_ns = static_cast<std::int64_t>((std::uint64_t{info.ftLastWriteTime.dwHighDateTime} << 32) |
                                            info.ftLastWriteTime.dwLowDateTime) * 100;
    id.size = (std::uint64_t{info.nFileSizeHigh} << 32) | info.nFileSizeLow;
  }
#else
  id.device = static_cast<std::uint64_t>(file.st.st_dev);
  id.inode = static_cast<std::uint64_t>(file.st.st_ino);
  id.mtime_ns = static_cast<std::int64_t>(file.st.st_mtim.tv_sec) * 1'000'000'000 + file.st.st_mtim.tv_nsec;
#endif
  return id;
}

std::string identity_key(const OpenedFile& file) { return identity_key(identity(file)); }

std::string identity_key(const FileIdentity& id) {
  return std::to_string(id.device) + ":" + std::to_string(id.inode) + ":" + std::to_string(id.mtime_ns) + ":" +
         std::to_string(id.size);
}

}  // namespace mcpread::readers::file_io
