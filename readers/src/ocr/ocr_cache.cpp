#include "ocr_cache.hpp"

#include "lru_cache.hpp"

namespace mcpread::readers::ocr {
namespace {

std::string key_text(const OcrKey& k) {
  return k.file + ':' + std::to_string(k.page) + ':' + k.langs + ':' + std::to_string(k.dpi);
}

// Never destroyed: the idle-memory thread may clear it, or a read store into it, while the
// process exits.
LruCache<OcrPage>& cache() {
  static auto* c = new LruCache<OcrPage>(cache_max_bytes);
  return *c;
}

std::size_t cost(const std::string& key, const OcrPage& p) { return key.size() + p.text.size() + p.note.size() + 128; }

}  // namespace

std::optional<OcrPage> cache_find(const OcrKey& key) {
  std::optional<OcrPage> page = cache().find(key_text(key));
  if (page) page->cached = true;
  return page;
}

void cache_store(const OcrKey& key, const OcrPage& page) {
  std::string k = key_text(key);
  const std::size_t size = cost(k, page);
  OcrPage kept = page;
  kept.cached = false;
  cache().put(std::move(k), std::move(kept), size);
}

void cache_clear() { cache().clear(); }

}  // namespace mcpread::readers::ocr
