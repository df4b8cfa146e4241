#include "line_index.hpp"

#include <algorithm>
#include <list>
#include <mutex>

namespace mcpread::readers::text_detail {
namespace {

struct Identity {
  dev_t dev;
  ino_t ino;
  off_t size;
  long mtime_sec;
  long mtime_nsec;
  bool operator==(const Identity&) const = default;
};

Identity identity_of(const struct stat& st) {
  return {st.st_dev, st.st_ino, st.st_size, st.st_mtim.tv_sec, st.st_mtim.tv_nsec};
}

std::mutex mutex;
std::list<std::pair<Identity, LineIndex>> entries;  // most recently used first

}  // namespace

LineIndexCache& LineIndexCache::instance() {
  static LineIndexCache cache;
  return cache;
}

LineIndex LineIndexCache::find(const struct stat& st) {
  const Identity id = identity_of(st);
  std::lock_guard lock(mutex);
  for (auto it = entries.begin(); it != entries.end(); ++it) {
    if (it->first == id) {
      entries.splice(entries.begin(), entries, it);
      return it->second;
    }
  }
  return {};
}

void LineIndexCache::store(const struct stat& st, LineIndex index) {
  const Identity id = identity_of(st);
  std::lock_guard lock(mutex);
  for (auto it = entries.begin(); it != entries.end(); ++it) {
    if (it->first.dev == id.dev && it->first.ino == id.ino) {
      if (it->first == id) {  // same version: merge what each read learnt
        if (it->second.chunks.size() > index.chunks.size()) index.chunks = std::move(it->second.chunks);
        if (!index.total_lines) index.total_lines = it->second.total_lines;
      }
      entries.erase(it);  // an older version is dropped
      break;
    }
  }
  entries.emplace_front(id, std::move(index));
  if (entries.size() > max_files) entries.pop_back();
}

std::size_t start_chunk(const LineIndex& index, std::uint64_t first) {
  // Line `first` begins after the (first-1)-th '\n'. A chunk qualifies when fewer newlines lie
  // before it, or exactly that many and the chunk starts a line.
  const std::uint64_t before = first > 0 ? first - 1 : 0;
  std::size_t best = 0;
  for (std::size_t i = 1; i < index.chunks.size(); ++i) {
    const auto& c = index.chunks[i];
    if (c.newlines_before < before || (c.newlines_before == before && !c.mid_line)) best = i;
    else break;  // counts only grow
  }
  return best;
}

}  // namespace mcpread::readers::text_detail
