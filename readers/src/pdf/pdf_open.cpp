#include "pdf_open.hpp"

#include "pdf/pdf_pages.hpp"

#include <algorithm>
#include <string_view>

namespace mcpread::readers::pdf {

std::variant<Opened, ReadOutcome> open_document(const std::string& path, const std::string& bytes) {
  std::string why;
  Opened d;
  d.api = api(&why);
  if (d.api == nullptr) return ReadOutcome::error("Cannot read the PDF " + path + ". " + why);
  mcpread_pdf_doc* handle = nullptr;
  ErrorBuffer e;
  const int status = d.api->open(bytes.data(), bytes.size(), "", &handle, e.text, sizeof e.text);
  switch (status) {
    case MCPREAD_PDF_OK:
      break;
    case MCPREAD_PDF_NEEDS_PASSWORD:
      return ReadOutcome::error(path + " is password-protected; mcp-read cannot read it.");
    case MCPREAD_PDF_NOT_PDF:
      return ReadOutcome::error(path + " is not a PDF document: " + e.str() + ".");
    case MCPREAD_PDF_DAMAGED: {
      // A download or copy cut short is the usual cause; the end of the file tells.
      const std::string_view tail =
          std::string_view(bytes).substr(bytes.size() - std::min<std::size_t>(bytes.size(), 1024));
      const bool cut = tail.find("%%EOF") == std::string_view::npos;
      return ReadOutcome::error(
          path + " is a damaged PDF that poppler cannot open: " + e.str() +
          (cut ? " (it does not end with %%EOF: it may be truncated)." : "."));
    }
    default:
      return ReadOutcome::error("Cannot read the PDF " + path + ": " + e.str() + ".");
  }
  d.doc = Document(d.api, handle);
  d.pages = d.api->page_count(handle);
  d.encrypted = d.api->is_encrypted(handle) != 0;
  std::string title;
  if (d.api->info(handle, "Title", append_to_string, &title) != 0)
    d.title = pdf_pages::clean_title(title);
  return d;
}


OpenPdfCache& OpenPdfCache::instance() {
  // Never destroyed: at exit the plugin that would close the documents may be gone already, and
  // the process's end frees their memory anyway.
  static auto* cache = new OpenPdfCache;
  return *cache;
}

std::shared_ptr<OpenPdf> OpenPdfCache::find(const std::string& key) {
  std::lock_guard lock(mutex_);
  const auto it = std::find_if(entries_.begin(), entries_.end(), [&](const auto& e) { return e.first == key; });
  if (it == entries_.end()) return nullptr;
  entries_.splice(entries_.begin(), entries_, it);
  return entries_.front().second;
}

void OpenPdfCache::put(const std::string& key, std::shared_ptr<OpenPdf> pdf) {
  if (pdf == nullptr || pdf->bytes.size() > kMaxFile) return;
  std::lock_guard lock(mutex_);
  const auto same = std::find_if(entries_.begin(), entries_.end(), [&](const auto& e) { return e.first == key; });
  if (same != entries_.end()) {
    bytes_ -= same->second->bytes.size();
    entries_.erase(same);
  }
  bytes_ += pdf->bytes.size();
  entries_.emplace_front(key, std::move(pdf));
  // A document still in use by a call stays alive through that call's reference.
  while (entries_.size() > kMaxDocuments || bytes_ > kMaxBytes) {
    bytes_ -= entries_.back().second->bytes.size();
    entries_.pop_back();
  }
}

std::size_t OpenPdfCache::release() {
  std::lock_guard lock(mutex_);
  const std::size_t dropped = bytes_;
  entries_.clear();
  bytes_ = 0;
  return dropped;
}

std::size_t OpenPdfCache::documents() const {
  std::lock_guard lock(mutex_);
  return entries_.size();
}

}  // namespace mcpread::readers::pdf
