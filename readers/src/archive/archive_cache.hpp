#pragma once
// What was read of recently read archives, by archive identity (file_io::identity_key of the
// outer file, then the names of the members an archive inside it is reached through): their
// listings, so that each call on a member of a big tar.gz does not list it again, and the bytes
// of the members read last, so that paging through one member does not unpack it again. Bounded
// in bytes, least recently used dropped first; release() (readers::release_caches, the server's
// idle-memory release) drops everything.
#include "archive/archive_index.hpp"
#include "lru_cache.hpp"

#include <cstddef>
#include <memory>
#include <string>

namespace mcpread::readers::archive {

class ArchiveCache {
 public:
  static constexpr std::size_t kMaxTotal = 64u << 20;  // all entries kept
  static constexpr std::size_t kMaxValue = 32u << 20;  // a member larger is never kept

  static ArchiveCache& instance();

  std::shared_ptr<const Index> index(const std::string& archive);
  void put_index(const std::string& archive, std::shared_ptr<const Index> index);
  std::shared_ptr<const std::string> member(const std::string& archive, const std::string& name);
  void put_member(const std::string& archive, const std::string& name, std::shared_ptr<const std::string> bytes);

  std::size_t release();  // drops everything; returns the bytes it held
  std::size_t bytes() const;

 private:
  ArchiveCache() = default;
  // Keys: "i" or "m", NUL, archive key (NUL, member name).
  std::shared_ptr<const void> find(const std::string& key);
  void insert(std::string key, std::shared_ptr<const void> value, std::size_t bytes);

  LruCache<std::shared_ptr<const void>> entries_{kMaxTotal};
};

}  // namespace mcpread::readers::archive
