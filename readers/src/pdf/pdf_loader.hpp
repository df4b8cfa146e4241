#pragma once
// libmcpread_pdf.so (poppler-cpp + qpdf behind a C interface), loaded with dlopen on the first PDF
// read so that start-up does not pay for loading poppler and qpdf (about 30 ms).
#include "../../pdf_plugin/pdf_plugin_api.h"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mcpread::readers::pdf {

struct Api {
  mcpread_pdf_open_fn open;
  mcpread_pdf_close_fn close;
  mcpread_pdf_page_count_fn page_count;
  mcpread_pdf_is_encrypted_fn is_encrypted;
  mcpread_pdf_info_fn info;
  mcpread_pdf_page_size_fn page_size;
  mcpread_pdf_page_text_fn page_text;
  mcpread_pdf_page_marks_fn page_marks;
  mcpread_pdf_render_png_fn render_png;
  mcpread_pdf_write_subset_fn write_subset;
};

// The plugin, loaded once (from $MCP_READ_PDF_PLUGIN_DIR when set, then the running executable's
// directory, then <exe dir>/../lib/mcp-read/ (an installed tree, wherever it was moved), then the
// configured <libdir>/mcp-read/); nullptr when it cannot be loaded, *error then saying why and
// what to install. The plugin stays loaded for the life of the process.
const Api* api(std::string* error);

// The directories searched, in order (for messages and tests).
std::vector<std::string> plugin_directories();

// A sink that appends to a std::string (its ctx).
void append_to_string(void* ctx, const char* data, std::size_t size);

// An open document; closes it on destruction.
class Document {
 public:
  Document() = default;
  Document(const Api* api, mcpread_pdf_doc* doc) : api_(api), doc_(doc) {}
  Document(Document&& o) noexcept : api_(o.api_), doc_(o.doc_) { o.doc_ = nullptr; }
  Document& operator=(Document&& o) noexcept {
    std::swap(api_, o.api_);
    std::swap(doc_, o.doc_);
    return *this;
  }
  Document(const Document&) = delete;
  Document& operator=(const Document&) = delete;
  ~Document() {
    if (doc_ != nullptr) api_->close(doc_);
  }
  [[nodiscard]] mcpread_pdf_doc* get() const { return doc_; }

 private:
  const Api* api_ = nullptr;
  mcpread_pdf_doc* doc_ = nullptr;
};

// Room for the plugin's error texts.
struct ErrorBuffer {
  char text[512] = {};
  [[nodiscard]] std::string str() const { return text[0] != '\0' ? text : "no reason given"; }
};

}  // namespace mcpread::readers::pdf
