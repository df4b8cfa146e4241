#include "file_io.hpp"

#include "mcpread/common/prefault.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace mcpread::readers::file_io {

std::optional<std::size_t> pread_full(int fd, char* buf, std::size_t max, std::uint64_t offset) {
  std::size_t got = 0;
  while (got < max) {
    const ssize_t n = ::pread(fd, buf + got, max - got, static_cast<off_t>(offset + got));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return std::nullopt;
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  return got;
}

namespace {

template <class Buffer>
std::optional<Buffer> read_into(int fd, std::uint64_t size_hint, std::uint64_t limit) {
  Buffer out;
  // One byte more than expected, to see whether the file grew.
  std::size_t capacity = static_cast<std::size_t>(std::min<std::uint64_t>(size_hint, limit)) + 1;
  for (;;) {
    const std::size_t have = out.size();
    out.reserve(capacity);
    common::prefault_for_writing(out.data() + have, capacity - have);
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
  return read_into<std::string>(fd, size_hint, limit);
}

std::optional<std::vector<std::uint8_t>> read_whole_bytes(int fd, std::uint64_t size_hint, std::uint64_t limit) {
  return read_into<std::vector<std::uint8_t>>(fd, size_hint, limit);
}

}  // namespace mcpread::readers::file_io
