#include "office/part_cache.hpp"

#include "mcpread/readers/caches.hpp"

#include <sys/stat.h>

namespace mcpread::readers::office {

PartCache& PartCache::instance() {
  static PartCache cache;
  return cache;
}

std::string PartCache::key_of(const struct stat& st) {
  return std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino) + ":" + std::to_string(st.st_mtim.tv_sec) + "." +
         std::to_string(st.st_mtim.tv_nsec) + ":" + std::to_string(st.st_size);
}

namespace {
std::string entry_key(std::string_view file, std::string_view part) {
  std::string key(file);
  key += '\0';
  key += part;
  return key;
}
}  // namespace

std::shared_ptr<const std::string> PartCache::get(std::string_view file, std::string_view part) {
  const std::string key = entry_key(file, part);
  std::lock_guard lock(mutex_);
  for (auto it = entries_.begin(); it != entries_.end(); ++it)
    if (it->key == key) {
      entries_.splice(entries_.begin(), entries_, it);
      return it->bytes;
    }
  return nullptr;
}

void PartCache::put(std::string_view file, std::string_view part, std::shared_ptr<const std::string> bytes) {
  if (file.empty() || bytes == nullptr || bytes->size() > kMaxPart) return;
  std::string key = entry_key(file, part);
  std::lock_guard lock(mutex_);
  for (auto it = entries_.begin(); it != entries_.end(); ++it)
    if (it->key == key) {
      total_ -= it->bytes->size();
      entries_.erase(it);
      break;
    }
  total_ += bytes->size();
  entries_.push_front({std::move(key), std::move(bytes)});
  while (total_ > kMaxTotal && !entries_.empty()) {
    total_ -= entries_.back().bytes->size();
    entries_.pop_back();
  }
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

}  // namespace mcpread::readers::office

namespace mcpread::readers {

std::size_t release_caches() { return office::PartCache::instance().release(); }

}  // namespace mcpread::readers
