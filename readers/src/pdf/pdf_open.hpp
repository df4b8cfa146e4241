#pragma once
// Opening a PDF, and keeping the last few open between calls. A model reads a long PDF 20 pages a
// call, or one page at a time: opening it again on each call (reading the file, poppler's parse
// of the cross-reference table and catalogue, qpdf's for the content measures and the subset)
// cost 170-230 ms a call on a 615-page manual, whatever the page. Kept open, a call costs its
// own pages' work.
#include "mcpread/readers/access.hpp"
#include "mcpread/readers/outcome.hpp"
#include "lru_cache.hpp"
#include "pdf_loader.hpp"

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <variant>

namespace mcpread::readers::pdf {

struct Opened {
  const Api* api = nullptr;
  Document doc;
  int pages = 0;
  bool encrypted = false;
  std::string title;
};

// The document and the bytes it was opened from (poppler and qpdf read from them in place).
struct OpenPdf {
  std::string bytes;  // declared first: destroyed after the document that points into it
  Opened d;
  // Poppler's and qpdf's documents are not safe to use from two threads at once: a call holds
  // this while it uses the document.
  std::mutex in_use;
};

// Opens `bytes`; a refusal saying why (password, not a PDF, damaged, truncated) otherwise.
std::variant<Opened, ReadOutcome> open_document(const std::string& path, const std::string& bytes);

// The documents opened last, by file identity (file_io::identity_key: a rewrite changes the key,
// so a changed file is opened afresh). Bounded by count and by bytes, least
// recently used dropped first; release() (the server's idle-memory release) drops them all.
class OpenPdfCache {
 public:
  static constexpr std::size_t kMaxDocuments = 4;
  static constexpr std::size_t kMaxBytes = 256u << 20;  // the files' bytes, all documents together
  static constexpr std::size_t kMaxFile = 128u << 20;   // a larger file is never kept

  static OpenPdfCache& instance();

  std::shared_ptr<OpenPdf> find(const std::string& key);
  void put(const std::string& key, std::shared_ptr<OpenPdf> pdf);
  // Drops every document; returns the bytes of the files they were opened from.
  std::size_t release();
  std::size_t documents() const;

 private:
  OpenPdfCache() = default;
  // A document still in use by a call stays alive through that call's reference when dropped.
  LruCache<std::shared_ptr<OpenPdf>> entries_{kMaxBytes, kMaxDocuments};
};

}  // namespace mcpread::readers::pdf
