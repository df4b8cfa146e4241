#pragma once
// One pass over an archive through libarchive, from the first entry on. libarchive is loaded with
// dlopen on the first archive (like libzip and libxml2): linked, it and its compression libraries
// would load at every start of the server, and the portable bundle copies it with the other
// dlopened libraries (scripts/release/bundle-in-root.sh), so its checks see every library loaded.
#include "mcpread/readers/cancel.hpp"

#include <archive.h>
#include <archive_entry.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace mcpread::readers::archive {

class Pass {
 public:
  // An archive read from `fd` (pread: the descriptor's offset never moves) of `size` bytes; null
  // with *error (a clause without a final period) when libarchive cannot be loaded.
  static std::unique_ptr<Pass> open(int fd, std::uint64_t size, const CancelToken& cancel, std::string* error);
  ~Pass();
  Pass(const Pass&) = delete;
  Pass& operator=(const Pass&) = delete;

  enum class Next { entry, end, failed };
  // The next entry's header; failed: error() says why (a damaged archive, a cancelled call).
  Next next(archive_entry** entry);
  // Up to `cap` bytes of the current entry's data: the count, 0 at its end, -1 on an error.
  long long read(char* buf, std::size_t cap);

  [[nodiscard]] std::string error() const;  // libarchive's last error, as a clause
  [[nodiscard]] bool cancelled() const { return source_.stopped; }
  // Whether the call was cancelled, asked between chunks of unpacked data: a compression bomb
  // may unpack much between two reads of the file, where the read callback asks.
  bool stop_requested() {
    if (source_.cancel != nullptr && source_.cancel->cancelled()) source_.stopped = true;
    return source_.stopped;
  }
  [[nodiscard]] std::uint64_t compressed_bytes() const;  // the file's bytes read so far
  [[nodiscard]] std::uint64_t stream_bytes() const;      // the bytes after decompression so far
  [[nodiscard]] bool compressed() const;                 // a compression filter is at work
  [[nodiscard]] bool raw() const;  // no archive format matched: the file is one compressed stream
  // "tar archive, gzip-compressed", once the first header is read.
  [[nodiscard]] std::string format() const;

  // What an entry's header says, in the library's terms (the table is private to this file).
  struct EntryFacts {
    std::string name;
    std::string link;       // a symbolic or hard link's target
    bool hard_link = false;
    unsigned file_type = 0;  // AE_IFREG, AE_IFDIR...
    std::uint64_t size = 0;
    bool size_known = false;
    bool encrypted = false;
  };
  // Names stored in no Unicode form are decoded from zip's own charset (IBM437) in a zip, from
  // windows-1252 elsewhere (tar and cpio from legacy systems), so that a listing shows them as
  // they were meant and they can be asked for.
  [[nodiscard]] EntryFacts facts(archive_entry* entry) const;

 private:
  struct Source {
    int fd = -1;
    std::uint64_t size = 0;
    std::uint64_t pos = 0;
    const CancelToken* cancel = nullptr;
    bool stopped = false;
    std::vector<char> buffer;
  };
  Pass() = default;
  std::string decoded_name(const char* raw) const;
  static la_ssize_t read_callback(struct ::archive*, void* data, const void** out);
  static la_int64_t skip_callback(struct ::archive*, void* data, la_int64_t request);
  static la_int64_t seek_callback(struct ::archive*, void* data, la_int64_t offset, int whence);

  struct ::archive* handle_ = nullptr;
  Source source_;
};

}  // namespace mcpread::readers::archive
