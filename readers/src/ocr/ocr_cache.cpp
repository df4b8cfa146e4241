#include "ocr_cache.hpp"

#include <list>
#include <mutex>
#include <unordered_map>

namespace mcpread::readers::ocr {
namespace {

std::string key_text(const OcrKey& k) {
  return k.file + ':' + std::to_string(k.page) + ':' + k.langs + ':' + std::to_string(k.dpi);
}

struct Cache {
  std::mutex mutex;
  std::list<std::pair<std::string, OcrPage>> entries;  // most recently used first
  std::unordered_map<std::string, decltype(entries)::iterator> index;
  std::size_t bytes = 0;
};

Cache& cache() {
  static Cache c;
  return c;
}

std::size_t cost(const std::string& key, const OcrPage& p) { return key.size() + p.text.size() + p.note.size() + 128; }

}  // namespace

std::optional<OcrPage> cache_find(const OcrKey& key) {
  Cache& c = cache();
  const std::string k = key_text(key);
  std::lock_guard lock(c.mutex);
  const auto it = c.index.find(k);
  if (it == c.index.end()) return std::nullopt;
  c.entries.splice(c.entries.begin(), c.entries, it->second);
  OcrPage page = it->second->second;
  page.cached = true;
  return page;
}

void cache_store(const OcrKey& key, const OcrPage& page) {
  Cache& c = cache();
  std::string k = key_text(key);
  const std::size_t size = cost(k, page);
  if (size > cache_max_bytes) return;
  std::lock_guard lock(c.mutex);
  if (const auto it = c.index.find(k); it != c.index.end()) {
    c.bytes -= cost(it->first, it->second->second);
    c.entries.erase(it->second);
    c.index.erase(it);
  }
  c.entries.emplace_front(k, page);
  c.entries.front().second.cached = false;
  c.index.emplace(std::move(k), c.entries.begin());
  c.bytes += size;
  while (c.bytes > cache_max_bytes && !c.entries.empty()) {
    auto& last = c.entries.back();
    c.bytes -= cost(last.first, last.second);
    c.index.erase(last.first);
    c.entries.pop_back();
  }
}

void cache_clear() {
  Cache& c = cache();
  std::lock_guard lock(c.mutex);
  c.entries.clear();
  c.index.clear();
  c.bytes = 0;
}

}  // namespace mcpread::readers::ocr
