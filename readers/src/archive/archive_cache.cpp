#include "archive/archive_cache.hpp"

namespace mcpread::readers::archive {

ArchiveCache& ArchiveCache::instance() {
  // Never destroyed, like the office part cache: the idle-memory thread may release it while
  // static destructors run at exit.
  static auto* const cache = new ArchiveCache;
  return *cache;
}

std::shared_ptr<const void> ArchiveCache::find(const std::string& key) {
  std::lock_guard lock(mutex_);
  for (auto it = entries_.begin(); it != entries_.end(); ++it)
    if (it->key == key) {
      entries_.splice(entries_.begin(), entries_, it);
      return it->value;
    }
  return nullptr;
}

void ArchiveCache::insert(std::string key, std::shared_ptr<const void> value, std::size_t bytes) {
  if (value == nullptr || bytes > kMaxValue) return;
  std::lock_guard lock(mutex_);
  for (auto it = entries_.begin(); it != entries_.end(); ++it)
    if (it->key == key) {
      total_ -= it->bytes;
      entries_.erase(it);
      break;
    }
  total_ += bytes;
  entries_.push_front({std::move(key), std::move(value), bytes});
  while (total_ > kMaxTotal && !entries_.empty()) {
    total_ -= entries_.back().bytes;
    entries_.pop_back();
  }
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

std::size_t ArchiveCache::release() {
  std::lock_guard lock(mutex_);
  const std::size_t dropped = total_;
  entries_.clear();
  total_ = 0;
  return dropped;
}

std::size_t ArchiveCache::bytes() const {
  std::lock_guard lock(mutex_);
  return total_;
}

}  // namespace mcpread::readers::archive
