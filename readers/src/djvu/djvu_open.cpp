#include "djvu/djvu_open.hpp"

namespace mcpread::readers::djvu {

std::size_t OpenDjvu::cost() const {
  std::size_t bytes_held = bytes.size() + sizeof *this;
  for (const auto& [key, value] : metadata) bytes_held += key.size() + value.size();
  for (const auto& [page, t] : texts) bytes_held += sizeof t + t.text.size() + t.why.size();
  return bytes_held;
}

OpenDjvuCache& OpenDjvuCache::instance() {
  static auto* cache = new OpenDjvuCache;  // never destroyed: readers may run during exit
  return *cache;
}

}  // namespace mcpread::readers::djvu
