#include "line_index.hpp"

#include <algorithm>
#include <list>
#include <mutex>

namespace mcpread::readers::text_detail {
namespace {

using Identity = file_io::FileIdentity;

std::mutex mutex;
std::list<std::pair<Identity, LineIndex>> entries;  // most recently used first

}  // namespace

LineIndexCache& LineIndexCache::instance() {
  static LineIndexCache cache;
  return cache;
}

LineIndex LineIndexCache::find(const Identity& id) {
  std::lock_guard lock(mutex);
  for (auto it = entries.begin(); it != entries.end(); ++it) {
    if (it->first == id) {
      entries.splice(entries.begin(), entries, it);
      return it->second;
    }
  }
  return {};
}

void LineIndexCache::store(const Identity& id, LineIndex index) {
  std::lock_guard lock(mutex);
  for (auto it = entries.begin(); it != entries.end(); ++it) {
    if (it->first.device == id.device && it->first.inode == id.inode) {
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
