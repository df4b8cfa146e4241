#include "csv/row_marks.hpp"

#include "lru_cache.hpp"

namespace mcpread::readers::csv {
namespace {

// 4 MiB of marks: the starts of 2 billion records' worth of pages, over the 64 files read last.
LruCache<std::shared_ptr<const RowMarks>>& cache() {
  // Never destroyed, like the package part cache: the idle-memory thread may release it while
  // static destructors run at exit.
  static auto* const instance = new LruCache<std::shared_ptr<const RowMarks>>(4u << 20, 64);
  return *instance;
}

std::size_t cost(const RowMarks& m) { return 64 + m.starts.size() * sizeof(std::uint64_t); }

}  // namespace

RowMarks RowMarksCache::find(const std::string& key) {
  const auto found = cache().find(key);
  return found ? **found : RowMarks{};
}

void RowMarksCache::store(const std::string& key, RowMarks marks) {
  if (const auto known = cache().find(key)) {
    if ((*known)->starts.size() > marks.starts.size()) marks.starts = (*known)->starts;
    if (!marks.records) marks.records = (*known)->records;
  }
  const std::size_t c = cost(marks);
  cache().put(key, std::make_shared<const RowMarks>(std::move(marks)), c);
}

std::size_t RowMarksCache::release() { return cache().clear(); }

}  // namespace mcpread::readers::csv
