#include "archive/archive_cache.hpp"

namespace mcpread::readers::archive {

ArchiveCache& ArchiveCache::instance() {
  // Never destroyed, like the package part cache: the idle-memory thread may release it while
  // static destructors run at exit.
  static auto* const cache = new ArchiveCache;
  return *cache;
}

std::shared_ptr<const void> ArchiveCache::find(const std::string& key) { return entries_.find(key).value_or(nullptr); }

void ArchiveCache::insert(std::string key, std::shared_ptr<const void> value, std::size_t bytes) {
  if (value == nullptr || bytes > kMaxValue) return;
  entries_.put(std::move(key), std::move(value), bytes);
}

std::shared_ptr<const Index> ArchiveCache::index(const std::string& archive) {
  return std::static_pointer_cast<const Index>(find(std::string("i\0", 2) + archive));
}

void ArchiveCache::put_index(const std::string& archive, std::shared_ptr<const Index> index) {
  const std::size_t bytes = index != nullptr ? index->bytes() : 0;
  insert(std::string("i\0", 2) + archive, std::move(index), bytes);
}

std::shared_ptr<const std::string> ArchiveCache::member(const std::string& archive, const std::string& name) {
  return std::static_pointer_cast<const std::string>(find(std::string("m\0", 2) + archive + '\0' + name));
}

void ArchiveCache::put_member(const std::string& archive, const std::string& name,
                              std::shared_ptr<const std::string> bytes) {
  const std::size_t size = bytes != nullptr ? bytes->size() : 0;
  insert(std::string("m\0", 2) + archive + '\0' + name, std::move(bytes), size);
}

std::size_t ArchiveCache::release() { return entries_.clear(); }

std::size_t ArchiveCache::bytes() const { return entries_.cost(); }

}  // namespace mcpread::readers::archive
