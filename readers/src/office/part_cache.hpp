#pragma once
// The inflated parts of recently read zip packages, by file identity (device, inode, modification
// time, size) and part name: a model pages through a workbook in several calls, and each would
// otherwise inflate the same worksheet again up to its page. Small parts only, a few MiB in all,
// least recently used dropped first; release() (the server's idle-memory release) drops them all.
// Internal to the readers library.
#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

struct stat;

namespace mcpread::readers::office {

class PartCache {
 public:
  static constexpr std::size_t kMaxPart = 4u << 20;    // parts larger are never kept
  static constexpr std::size_t kMaxTotal = 16u << 20;  // all parts kept

  static PartCache& instance();
  // The identity of an opened file: equal keys mean the same bytes (a rewrite changes the mtime).
  static std::string key_of(const struct stat& st);

  std::shared_ptr<const std::string> get(std::string_view file, std::string_view part);
  void put(std::string_view file, std::string_view part, std::shared_ptr<const std::string> bytes);
  // Drops every part; returns the bytes they held.
  std::size_t release();
  std::size_t bytes() const;

 private:
  PartCache() = default;
  struct Entry {
    std::string key;  // file key, NUL, part name
    std::shared_ptr<const std::string> bytes;
  };
  mutable std::mutex mutex_;
  std::list<Entry> entries_;  // the most recently used first
  std::size_t total_ = 0;
};

}  // namespace mcpread::readers::office
