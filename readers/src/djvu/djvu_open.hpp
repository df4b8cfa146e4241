#pragma once
// What the DjVu reader knows of the documents read last, kept between calls: a model reads a
// long document a few pages per call. djvulibre runs in a child process for each call
// (djvu_worker.hpp), so its decoded document cannot outlive the call; what it found does: the
// page count, the metadata, and the text and size of each page read so far, so that a page read
// again (or its neighbours' header) costs no child. Internal to the DjVu reader.
#include "djvu/djvu_worker.hpp"
#include "lru_cache.hpp"

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace mcpread::readers::djvu {

struct OpenDjvu {
  int pages = 0;  // 0 until a survey
  std::map<std::string, std::string> metadata;
  std::map<int, SurveyedPage> texts;  // the pages read so far
  // The document's bytes, read once: djvulibre is given these, never the file's name.
  std::string bytes;
  // A call holds this while it reads or adds to the entry.
  std::mutex in_use;

  [[nodiscard]] std::size_t cost() const;
};

// The documents read last, by file identity (file_io::identity_key: a changed file is a new
// key). Bounded by count and by bytes, least recently used dropped first; release() (the
// server's idle-memory release) drops them all.
class OpenDjvuCache {
 public:
  static constexpr std::size_t kMaxDocuments = 8;
  static constexpr std::size_t kMaxBytes = 64u << 20;

  static OpenDjvuCache& instance();
  std::shared_ptr<OpenDjvu> find(const std::string& key) { return entries_.find(key).value_or(nullptr); }
  // Keeps `doc` (again, after pages were added: its cost is counted anew).
  void put(const std::string& key, const std::shared_ptr<OpenDjvu>& doc) { entries_.put(key, doc, doc->cost()); }
  std::size_t release() { return entries_.clear(); }
  std::size_t documents() const { return entries_.size(); }

 private:
  OpenDjvuCache() = default;
  LruCache<std::shared_ptr<OpenDjvu>> entries_{kMaxBytes, kMaxDocuments};
};

}  // namespace mcpread::readers::djvu
