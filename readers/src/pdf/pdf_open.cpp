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

std::shared_ptr<OpenPdf> OpenPdfCache::find(const std::string& key) { return entries_.find(key).value_or(nullptr); }

void OpenPdfCache::put(const std::string& key, std::shared_ptr<OpenPdf> pdf) {
  if (pdf == nullptr || pdf->bytes.size() > kMaxFile) return;
  const std::size_t bytes = pdf->bytes.size();
  entries_.put(key, std::move(pdf), bytes);
}

std::size_t OpenPdfCache::release() { return entries_.clear(); }

std::size_t OpenPdfCache::documents() const { return entries_.size(); }

}  // namespace mcpread::readers::pdf
