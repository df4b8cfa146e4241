#include "line_index.hpp"

#include <string>

namespace mcpread::readers::text_detail {
namespace {

// 16 bytes a checkpoint: a 1 GiB file's index is 16 KiB.
std::size_t cost(const LineIndex& index) {
  return 128 + index.chunks.size() * sizeof(ChunkCheckpoint) +
         (index.charset ? index.charset->name.size() + index.charset->label.size() : 0);
}

}  // namespace

LineIndexCache& LineIndexCache::instance() {
  // Never destroyed: the idle-memory thread may release it while static destructors run at exit.
  static auto* const cache = new LineIndexCache;
  return *cache;
}

LineIndexCache::LineIndexCache() : entries_(max_bytes, max_files) {}

LineIndex LineIndexCache::find(const file_io::FileIdentity& id) { return entries_.find(file_io::identity_key(id)).value_or(LineIndex{}); }

void LineIndexCache::store(const file_io::FileIdentity& id, LineIndex index) {
  const std::string key = file_io::identity_key(id);
  if (const auto known = entries_.find(key)) {  // merge what each read of this version learnt
    if (known->chunks.size() > index.chunks.size()) index.chunks = known->chunks;
    if (!index.total_lines) index.total_lines = known->total_lines;
    if (!index.charset) index.charset = known->charset;
  }
  const std::size_t c = cost(index);
  entries_.put(key, std::move(index), c);
}

std::size_t LineIndexCache::release() { return entries_.clear(); }

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
