#pragma once
// Whole reads through an already opened descriptor (pread: the descriptor's offset is shared
// with nobody and never moves).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mcpread::readers {
struct OpenedFile;
}  // namespace mcpread::readers

namespace mcpread::readers::file_io {

// Reads until `max` bytes or the end of the file, from `offset`; EINTR is retried. The count,
// or nullopt with errno set.
std::optional<std::size_t> pread_full(int fd, char* buf, std::size_t max, std::uint64_t offset);
// The same without waiting for the disk (preadv2 with RWF_NOWAIT): nullopt with errno EAGAIN
// when a page is not in the page cache, EOPNOTSUPP where the filesystem cannot tell.
std::optional<std::size_t> pread_full_cached(int fd, char* buf, std::size_t max, std::uint64_t offset);

// Reads consecutive chunks from a position, filling the buffer unless the file ends first; with
// `nowait`, only from the page cache.
class ChunkReader {
 public:
  ChunkReader(int fd, bool nowait) : fd_(fd), nowait_(nowait) {}
  // Bytes read into buf (0 at the end of the file), or nullopt with errno set (EAGAIN: not
  // cached, when reading without waiting).
  std::optional<std::size_t> read(char* buf, std::size_t cap) {
    const auto got = nowait_ ? pread_full_cached(fd_, buf, cap, pos_) : pread_full(fd_, buf, cap, pos_);
    if (!got) return std::nullopt;
    eof_ = *got < cap;
    pos_ += *got;
    return got;
  }
  void seek(std::uint64_t pos) {
    pos_ = pos;
    eof_ = false;
  }
  [[nodiscard]] bool eof() const { return eof_; }

 private:
  int fd_;
  bool nowait_;
  std::uint64_t pos_ = 0;
  bool eof_ = false;
};

// The whole file, reading until its end (it may have changed size since fstat) but never more
// than `limit` bytes; nullopt with errno set on a read error, EFBIG when it grew past `limit`.
std::optional<std::string> read_whole(int fd, std::uint64_t size_hint, std::uint64_t limit);
// The same into a byte vector, for files whose bytes may be sent as they are (images).
std::optional<std::vector<std::uint8_t>> read_whole_bytes(int fd, std::uint64_t size_hint, std::uint64_t limit);

// The identity of an opened file for the readers' caches: device, inode (on Windows the volume's
// serial number and the file's index), modification time and size. Equal identities mean the
// same bytes (a rewrite changes the modification time).
struct FileIdentity {
  std::uint64_t device = 0;
  std::uint64_t inode = 0;
  std::int64_t mtime_ns = 0;
  std::uint64_t size = 0;
  bool operator==(const FileIdentity&) const = default;
};
FileIdentity identity(const OpenedFile& file);
// The identity as a cache key: "device:inode:mtime_ns:size".
std::string identity_key(const OpenedFile& file);
std::string identity_key(const FileIdentity& id);

}  // namespace mcpread::readers::file_io
