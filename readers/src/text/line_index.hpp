#pragma once
// Where the lines of recently read files are, so that reading deep into a large file again (an
// agent paging through a log with offset=N) does not scan everything before N each time. For
// each 1 MiB chunk boundary it remembers how many lines ended before it; a read jumps to the last
// chunk that starts before its first line. Entries are tied to the file's identity and version
// (device, inode, size, mtime): any change makes them unusable; bounded (the readers' LruCache)
// and dropped by the idle release. The charset detected for the file is kept with them: detecting
// it looks at 64 KiB, a tenth of what reading a page of text costs.
#include "file_io.hpp"
#include "lru_cache.hpp"

#include "mcpread/readers/charset.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace mcpread::readers::text_detail {

struct ChunkCheckpoint {
  std::uint64_t newlines_before = 0;  // '\n' bytes before the chunk's first byte
  bool mid_line = false;              // the byte before the chunk is not '\n'
};

struct LineIndex {
  std::vector<ChunkCheckpoint> chunks;  // chunks[i] describes offset i * chunk size; [0] is {0, false}
  std::optional<std::uint64_t> total_lines;
  std::optional<DetectedCharset> charset;  // as detected (no encoding asked for)
};

class LineIndexCache {
 public:
  static LineIndexCache& instance();
  // The index known for this version of the file (empty when none).
  LineIndex find(const file_io::FileIdentity& id);
  // Keeps what is known: the longer list of checkpoints, and the total once counted.
  void store(const file_io::FileIdentity& id, LineIndex index);
  // Drops every index (the idle release); the bytes they held.
  std::size_t release();

  static constexpr std::size_t max_files = 64;
  static constexpr std::size_t max_bytes = 4u << 20;

 private:
  LineIndexCache();
  LruCache<LineIndex> entries_;  // by identity and version; older versions age out
};

// The last chunk from which line `first` can be reached by skipping forward: its line begins at
// or after the chunk's start. Returns 0 when no later chunk qualifies.
std::size_t start_chunk(const LineIndex& index, std::uint64_t first);

}  // namespace mcpread::readers::text_detail
