#pragma once
// OLE2 compound files (Microsoft's Compound File Binary: .ppt, .msg, .xls, .hwp), read from memory
// through libolecf (Debian package libolecf1), which is opened with dlopen on first use: a file's
// streams by name, each read whole up to a cap. libolecf depends on libbfio alone; libgsf, which
// read them before, brings GLib, GIO and ICU, whose loading was most of a first read's time.
// The Windows build has no libolecf: opening fails there with a sentence saying so. Internal to
// the readers library.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcpread::readers::ole2 {

// A stream or storage by the names of the storages that lead to it, then its own.
using Path = std::vector<std::string>;

// The OLE2 signature: the first 8 bytes of every compound file.
inline constexpr std::string_view kSignature{"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1", 8};

// The clause saying a compound file's header declares what the file cannot hold (a sector size
// other than 512 or 4096 bytes, more FAT, mini FAT or DIFAT sectors than the file has); empty
// when it is sound or `head` is no compound file's. Libraries size their tables by the header
// before reading them: a few bytes declaring millions of sectors would make them allocate
// gigabytes. `size` is the whole file's.
std::string header_error(std::string_view head, std::uint64_t size);

class CompoundFile {
 public:
  // Opens `bytes` (which must outlive the file); nullptr with *error saying why (libolecf
  // missing, not a compound file, damaged).
  static std::unique_ptr<CompoundFile> open(std::string_view bytes, std::string* error);
  ~CompoundFile();
  CompoundFile(const CompoundFile&) = delete;
  CompoundFile& operator=(const CompoundFile&) = delete;

  // The names of the streams and storages at the top level.
  std::vector<std::string> names() const;
  // The top-level stream `name`, whole; nullopt when there is none, with *error saying why when
  // it is over `cap` bytes or cannot be read (*error is left empty when the stream is missing).
  std::optional<std::string> stream(const std::string& name, std::uint64_t cap, std::string* error) const;

  // The same inside storages (an Outlook message's recipients, attachments, attached messages):
  // the names in the storage at `storage` (none when it is a stream or missing), the stream at
  // `path`, and its size without reading it (nullopt when missing or a storage).
  std::vector<std::string> names(const Path& storage) const;
  std::optional<std::string> stream(const Path& path, std::uint64_t cap, std::string* error) const;
  std::optional<std::uint64_t> stream_size(const Path& path) const;

 private:
  CompoundFile(void* io, void* file, void* root, void* range) : io_(io), file_(file), root_(root), range_(range) {}
  void* io_;    // libbfio handle reading the bytes through range_
  void* file_;  // libolecf file
  void* root_;  // its root storage item
  void* range_;  // the bytes and the read offset (ole2_file.cpp's MemoryRange)
};

}  // namespace mcpread::readers::ole2
