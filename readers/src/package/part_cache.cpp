#include "package/part_cache.hpp"

#include "file_io.hpp"

#include <sys/stat.h>

namespace mcpread::readers::package {

PartCache& PartCache::instance() {
  // Never destroyed: the server's idle-memory thread may release it while static destructors run
  // at exit (it is joined by a static destroyed after this one), and the process's end frees it.
  static auto* const cache = new PartCache;
  return *cache;
}

std::string PartCache::key_of(const OpenedFile& file) { return file_io::identity_key(file); }

std::string PartCache::key(std::string_view kind, std::string_view file, std::string_view name) {
  std::string key(kind);
  key += '\0';
  key += file;
  key += '\0';
  key += name;
  return key;
}

std::shared_ptr<const void> PartCache::find(const std::string& key) {
  std::lock_guard lock(mutex_);
  for (auto it = entries_.begin(); it != entries_.end(); ++it)
    if (it->key == key) {
      entries_.splice(entries_.begin(), entries_, it);
      return it->value;
    }
  return nullptr;
}

void PartCache::insert(std::string key, std::shared_ptr<const void> value, std::size_t bytes) {
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

std::shared_ptr<const std::string> PartCache::get(std::string_view file, std::string_view part) {
  return std::static_pointer_cast<const std::string>(find(key("part", file, part)));
}

void PartCache::put(std::string_view file, std::string_view part, std::shared_ptr<const std::string> bytes) {
  if (file.empty() || bytes == nullptr || bytes->size() > kMaxPart) return;
  const std::size_t size = bytes->size();
  insert(key("part", file, part), std::move(bytes), size);
}

void PartCache::put_value(std::string_view file, std::string_view name, std::shared_ptr<const void> value,
                          std::size_t bytes) {
  if (file.empty() || value == nullptr || bytes > kMaxValue) return;
  insert(key("value", file, name), std::move(value), bytes);
}

std::size_t PartCache::release() {
  std::lock_guard lock(mutex_);
  const std::size_t dropped = total_;
  entries_.clear();
  total_ = 0;
  return dropped;
}

std::size_t PartCache::bytes() const {
  std::lock_guard lock(mutex_);
  return total_;
}

}  // namespace mcpread::readers::package
