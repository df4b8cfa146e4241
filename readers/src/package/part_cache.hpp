#pragma once
// What the zip-based readers made of recently read files, by file identity (device, inode,
// modification time, size) and a name: the inflated parts (a model pages through a workbook in
// several calls, and each would otherwise inflate the same worksheet again up to its page) and
// parsed documents (each page of a DOCX would otherwise parse its whole document.xml again).
// Bounded in bytes, least recently used dropped first; release() (the server's idle-memory
// release) drops everything. Internal to the readers library.
#include "lru_cache.hpp"

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace mcpread::readers {
struct OpenedFile;
}  // namespace mcpread::readers

namespace mcpread::readers::package {

class PartCache {
 public:
  static constexpr std::size_t kMaxPart = 4u << 20;    // parts larger are never kept
  static constexpr std::size_t kMaxTotal = 24u << 20;  // all entries kept

  static PartCache& instance();
  // The identity of an opened file: equal keys mean the same bytes (a rewrite changes the mtime).
  static std::string key_of(const OpenedFile& file);

  static constexpr std::size_t kMaxValue = 12u << 20;  // a parsed document counted larger is never kept

  std::shared_ptr<const std::string> get(std::string_view file, std::string_view part);
  void put(std::string_view file, std::string_view part, std::shared_ptr<const std::string> bytes);
  // Any other value made from a file, counted as `bytes`; `name` says what it is ("docx").
  template <class T>
  std::shared_ptr<const T> get_value(std::string_view file, std::string_view name) {
    return std::static_pointer_cast<const T>(find(key("value", file, name)));
  }
  void put_value(std::string_view file, std::string_view name, std::shared_ptr<const void> value, std::size_t bytes);
  // Drops every part; returns the bytes they held.
  std::size_t release();
  std::size_t bytes() const;

 private:
  PartCache() = default;
  // kind, NUL, file key, NUL, name
  static std::string key(std::string_view kind, std::string_view file, std::string_view name);
  std::shared_ptr<const void> find(const std::string& key);
  LruCache<std::shared_ptr<const void>> entries_{kMaxTotal};
};

}  // namespace mcpread::readers::package
