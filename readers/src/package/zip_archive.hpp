#pragma once
// Read-only access to a zip package (DOCX, ODT, XLSX, ODS, PPTX, ODP, EPUB) through libzip
// (loaded with dlopen on the first such package: linked, it and the OpenSSL it needs would load
// at every start). Every entry is read under limits, so that a zip bomb is refused before it is
// inflated: a cap on each entry, on all bytes inflated for one document, and on the compression
// ratio of large entries.
// Internal to the readers library.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcpread::readers::package {

struct ZipLimits {
  std::uint64_t max_entry_bytes = 64ull << 20;      // one entry, inflated
  std::uint64_t max_total_bytes = 256ull << 20;     // all entries read for one document
  std::uint64_t max_ratio = 200;                    // inflated / compressed, for entries over 1 MiB
  std::size_t max_entries = 20000;                  // entries in the archive
  std::uint64_t max_streamed_bytes = 4ull << 30;    // one entry read by stream() (never held whole)
};

struct ZipEntry {
  std::string name;
  std::uint64_t size = 0;             // as the archive declares it
  std::uint64_t compressed_size = 0;
  bool encrypted = false;
  std::uint64_t index = 0;            // libzip's
  bool deflated = false;              // compressed with deflate
  std::optional<std::uint32_t> crc;   // the CRC-32 it declares
};

class ZipArchive {
 public:
  // Opens a zip held by `fd` (duplicated: the caller keeps its own) or in memory (`bytes` must
  // outlive the archive). nullptr with a sentence in *error (what is wrong, libzip's words).
  static std::unique_ptr<ZipArchive> open_fd(int fd, const ZipLimits& limits, std::string* error);
  static std::unique_ptr<ZipArchive> open_memory(std::string_view bytes, const ZipLimits& limits,
                                                 std::string* error);
  ~ZipArchive();
  ZipArchive(const ZipArchive&) = delete;
  ZipArchive& operator=(const ZipArchive&) = delete;

  const std::vector<ZipEntry>& entries() const { return entries_; }
  const ZipEntry* find(std::string_view name) const;
  // The inflated bytes of `name`, or nullopt with a sentence in *error (missing, encrypted, over
  // a limit, corrupt). `cap` lowers max_entry_bytes for this entry when not 0.
  std::optional<std::string> read(std::string_view name, std::string* error, std::uint64_t cap = 0);
  std::uint64_t bytes_read() const { return total_; }
  // Inflates `name` piece by piece into `sink` (64 KiB at a time), never holding it whole: for
  // parts too large to read at once (a spreadsheet's rows). `sink` returns false to stop early,
  // which is no error. The ratio limit applies as in read(), to what is actually inflated, and
  // max_streamed_bytes in place of max_entry_bytes. False with a sentence in *error otherwise.
  bool stream(std::string_view name, const std::function<bool(std::string_view)>& sink, std::string* error);
  // The inflated bytes of `name` as kept in the PartCache, inflated now if they are not there:
  // for a reader that indexes a part it streams (a worksheet's rows). nullptr with *error empty
  // when the part is not one kept (no cache_parts(), larger than PartCache::kMaxPart, missing,
  // encrypted, over a limit: stream() says why), with a sentence when inflating it failed.
  std::shared_ptr<const std::string> held(std::string_view name, std::string* error);
  // Keeps the small parts read and streamed in the PartCache under `file_key` (PartCache::key_of
  // the opened file), and takes them from there when another call reads the same file.
  void cache_parts(std::string file_key) { cache_key_ = std::move(file_key); }

 private:
  struct Handle;
  ZipArchive(Handle* handle, const ZipLimits& limits) : handle_(handle), limits_(limits) {}
  static std::unique_ptr<ZipArchive> finish(Handle* handle, const ZipLimits& limits, std::string* error);
  // The whole entry, at most `limit` bytes and `room` of them; nullopt with a sentence otherwise.
  std::optional<std::string> inflate(const ZipEntry& entry, std::uint64_t limit, std::uint64_t room, std::string* error);
  std::optional<std::string> inflate_whole(const ZipEntry& entry, std::uint64_t most);
  // The same through the PartCache (an entry of at most PartCache::kMaxPart bytes).
  std::shared_ptr<const std::string> inflate_cached(const ZipEntry& entry, std::uint64_t limit, std::uint64_t room,
                                                    std::string* error);
  Handle* handle_;
  ZipLimits limits_;
  std::vector<ZipEntry> entries_;
  std::uint64_t total_ = 0;
  std::string cache_key_;
};

// A package path resolved against the folder of the part that names it ("word/" + "media/a.png",
// "../media/a.png" from "word/" -> "media/a.png", "/word/x" -> "word/x"); empty when it leaves the
// package (more ".." than folders) or is a URL.
std::string resolve_part(std::string_view base_folder, std::string_view target);

}  // namespace mcpread::readers::package
