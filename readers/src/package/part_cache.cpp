#include "package/part_cache.hpp"

#include "file_io.hpp"

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

std::shared_ptr<const void> PartCache::find(const std::string& key) { return entries_.find(key).value_or(nullptr); }

std::shared_ptr<const std::string> PartCache::get(std::string_view file, std::string_view part) {
  return std::static_pointer_cast<const std::string>(find(key("part", file, part)));
}

void PartCache::put(std::string_view file, std::string_view part, std::shared_ptr<const std::string> bytes) {
  if (file.empty() || bytes == nullptr || bytes->size() > kMaxPart) return;
  const std::size_t size = bytes->size();
  entries_.put(key("part", file, part), std::move(bytes), size);
}

void PartCache::put_value(std::string_view file, std::string_view name, std::shared_ptr<const void> value,
                          std::size_t bytes) {
  if (file.empty() || value == nullptr || bytes > kMaxValue) return;
  entries_.put(key("value", file, name), std::move(value), bytes);
}

std::size_t PartCache::release() { return entries_.clear(); }

std::size_t PartCache::bytes() const { return entries_.cost(); }

}  // namespace mcpread::readers::package
