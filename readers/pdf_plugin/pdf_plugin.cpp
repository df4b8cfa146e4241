// The plugin's entry points built on poppler-cpp: open, page count, metadata, text, rendering.
// (The qpdf part, writing page subsets, is in pdf_subset.cpp.)
#include "pdf_text_session.hpp"
#include "plugin_internal.hpp"

#include <poppler-document.h>
#include <poppler-global.h>
#include <poppler-image.h>
#include <poppler-page-renderer.h>
#include <poppler-page.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <mutex>
#include <vector>

#if defined(_WIN32)
#ifndef NOMINMAX
#define NOMINMAX
#endif
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>

#include <filesystem>

// -static gives the DLL its own libstdc++ and emutls, with the same order of thread-exit work as
// an executable's: `collected` below is a thread_local destroyed when each reading thread ends.
#include "mcpread/common/windows_thread_exit.hpp"
#else
#include <dlfcn.h>
#include <sys/stat.h>
#endif

namespace mcpread_pdf {
namespace {

// Poppler reports parse errors through one process-wide callback (by default to stderr, which
// clients show as the server's log). They are collected per thread instead, so that a failed
// open can say why.
thread_local std::vector<std::string> collected;

void collect(const std::string& message, void*) {
  std::string_view m = message;
  if (m.starts_with("error")) {  // "error: ..." or "error (1234): ..."
    const auto colon = m.find(": ");
    if (colon != std::string_view::npos) m.remove_prefix(colon + 2);
  }
  while (!m.empty() && (m.back() == '\n' || m.back() == ' ' || m.back() == '.')) m.remove_suffix(1);
  if (m.empty() || collected.size() >= 50) return;
  for (const std::string& c : collected)
    if (c == m) return;
  collected.emplace_back(m);
}

// Noise next to the real reason: byte-level complaints and poppler's "continuing anyway".
bool is_noise(std::string_view m) {
  return m.starts_with("Illegal character") || m.starts_with("May not be a PDF file") ||
         m.starts_with("Unterminated string") || m.starts_with("Bad 'Length'") ||
         m.starts_with("Invalid XRef entry");
}

// poppler-data (CJK CMaps) shipped in the install tree beside the plugin (<prefix>/lib/mcp-read/
// -> <prefix>/share/poppler: the portable bundle; on Windows the plugin is in bin\ and the data
// would be in share\poppler); elsewhere poppler's configured directory.
#if defined(_WIN32)
void use_shipped_data_dir() {
  static const char in_this_dll = 0;  // an address inside the plugin, to find its file
  HMODULE self = nullptr;
  if (!::GetModuleHandleExW(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
                            reinterpret_cast<LPCWSTR>(&in_this_dll), &self))
    return;
  std::wstring file(MAX_PATH, L'\0');
  DWORD n = 0;
  while ((n = ::GetModuleFileNameW(self, file.data(), static_cast<DWORD>(file.size()))) == file.size())
    file.resize(file.size() * 2);
  if (n == 0) return;
  file.resize(n);
  std::error_code ec;
  const std::filesystem::path dir = std::filesystem::path(file).parent_path() / L".." / L"share" / L"poppler";
  if (std::filesystem::is_directory(dir, ec)) poppler::set_data_dir(dir.string());
}
#else
void use_shipped_data_dir() {
  Dl_info info{};
  if (::dladdr(reinterpret_cast<void*>(&use_shipped_data_dir), &info) == 0 || info.dli_fname == nullptr) return;
  std::string dir = info.dli_fname;
  dir.erase(dir.rfind('/') + 1);
  dir += "../../share/poppler";
  struct stat st {};
  if (::stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) poppler::set_data_dir(dir);
}
#endif

// A PDF of one empty page, its cross-reference table right.
std::string empty_page_pdf() {
  const std::vector<std::string> objects = {
      "<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 72 72] >>"};
  std::string pdf = "%PDF-1.4\n";
  std::vector<std::size_t> offsets;
  for (std::size_t i = 0; i < objects.size(); ++i) {
    offsets.push_back(pdf.size());
    pdf += std::to_string(i + 1) + " 0 obj\n" + objects[i] + "\nendobj\n";
  }
  const std::size_t xref = pdf.size();
  pdf += "xref\n0 " + std::to_string(objects.size() + 1) + "\n0000000000 65535 f \n";
  for (const std::size_t at : offsets) {
    const std::string number = std::to_string(at);
    pdf += std::string(10 - number.size(), '0') + number + " 00000 n \n";
  }
  return pdf + "trailer\n<< /Size " + std::to_string(objects.size() + 1) + " /Root 1 0 R >>\nstartxref\n" +
         std::to_string(xref) + "\n%%EOF\n";
}

// Poppler makes its colour profiles (GfxState's static sRGB one among them) when the first page
// of any document is drawn, without a lock: two documents drawn at once for the first time race
// on them, one thread freeing the profile the other just stored. Drawing one page here, before
// any document is opened, makes them once.
void make_colour_profiles() {
  const std::string pdf = empty_page_pdf();
  const std::unique_ptr<poppler::document> doc(
      poppler::document::load_from_raw_data(pdf.data(), static_cast<int>(pdf.size())));
  if (!doc) return;
  const std::unique_ptr<poppler::page> page(doc->create_page(0));
  if (page) (void)page->text(poppler::rectf(), poppler::page::physical_layout);
  collected.clear();
}

void init_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    poppler::set_debug_error_function(collect, nullptr);
    use_shipped_data_dir();
    make_colour_profiles();
  });
}

// The messages collected since the last call, the informative ones first (at most 3).
std::string take_collected(std::string_view fallback) {
  std::vector<std::string> messages;
  messages.swap(collected);
  std::string out;
  int kept = 0;
  for (const bool noise : {false, true}) {
    for (const std::string& m : messages) {
      if (is_noise(m) != noise || kept == 3 || (noise && kept > 0)) continue;
      out += (kept++ ? "; " : "") + m;
    }
  }
  return out.empty() ? std::string(fallback) : out;
}

void send(mcpread_pdf_sink sink, void* ctx, const std::vector<char>& bytes) {
  if (!bytes.empty()) sink(ctx, bytes.data(), bytes.size());
}

bool has_pdf_header(const char* data, std::size_t size) {
  const std::string_view head(data, std::min<std::size_t>(size, 1024));
  return head.find("%PDF-") != std::string_view::npos;
}

}  // namespace

void set_error(char* error, std::size_t error_size, std::string_view text) {
  if (error == nullptr || error_size == 0) return;
  std::size_t n = std::min(text.size(), error_size - 1);
  if (n < text.size())
    while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;  // UTF-8 boundary
  std::memcpy(error, text.data(), n);
  error[n] = '\0';
  for (std::size_t i = 0; i < n; ++i)
    if (error[i] == '\n' || error[i] == '\r') error[i] = ' ';
}

bool valid_page(const mcpread_pdf_doc* doc, int page, char* error, std::size_t error_size) {
  if (doc != nullptr && page >= 1 && page <= doc->pages) return true;
  set_error(error, error_size,
            "page " + std::to_string(page) + " is outside 1-" +
                std::to_string(doc != nullptr ? doc->pages : 0));
  return false;
}

namespace {

// Page `page` (1-based) of the document, or nullptr with the error written and *status set.
std::unique_ptr<poppler::page> load_page(const mcpread_pdf_doc* doc, int page, char* error,
                                         std::size_t error_size, int* status) {
  if (!valid_page(doc, page, error, error_size)) {
    *status = MCPREAD_PDF_BAD_PAGE;
    return nullptr;
  }
  std::unique_ptr<poppler::page> p(doc->doc->create_page(page - 1));
  if (!p) {
    set_error(error, error_size, take_collected("poppler cannot load the page"));
    *status = MCPREAD_PDF_FAILED;
  }
  return p;
}

}  // namespace

}  // namespace mcpread_pdf

using namespace mcpread_pdf;

#define MCPREAD_PDF_EXPORT extern "C" __attribute__((visibility("default")))

MCPREAD_PDF_EXPORT int mcpread_pdf_api_version(void) { return MCPREAD_PDF_API_VERSION; }

MCPREAD_PDF_EXPORT int mcpread_pdf_open(const char* data, std::size_t size, const char* password,
                                        mcpread_pdf_doc** out, char* error,
                                        std::size_t error_size) {
  if (out != nullptr) *out = nullptr;
  return guarded(error, error_size, [&]() -> int {
    init_once();
    if (out == nullptr || (data == nullptr && size > 0)) {
      set_error(error, error_size, "invalid arguments");
      return MCPREAD_PDF_FAILED;
    }
    const bool header = has_pdf_header(data, size);
    if (size == 0 || (!header && size < 64)) {
      set_error(error, error_size, size == 0 ? "the file is empty" : "it has no %PDF- header");
      return MCPREAD_PDF_NOT_PDF;
    }
    if (size > static_cast<std::size_t>(INT_MAX)) {
      set_error(error, error_size, "over 2 GB, more than poppler reads from memory");
      return MCPREAD_PDF_FAILED;
    }
    auto handle = std::make_unique<mcpread_pdf_doc>();
    handle->data = data;
    handle->size = size;
    handle->password = password != nullptr ? password : "";
    collected.clear();
    handle->doc.reset(poppler::document::load_from_raw_data(data, static_cast<int>(size),
                                                            handle->password, handle->password));
    if (!handle->doc) {
      const std::string why =
          take_collected("poppler finds no document in its " + std::to_string(size) + " bytes");
      if (!header) {
        set_error(error, error_size,
                  "it has no %PDF- header in its first 1024 bytes; poppler: " + why);
        return MCPREAD_PDF_NOT_PDF;
      }
      set_error(error, error_size, why);
      return MCPREAD_PDF_DAMAGED;
    }
    if (handle->doc->is_locked()) {
      collected.clear();
      set_error(error, error_size,
                handle->password.empty() ? "a password is needed to open it"
                                         : "the password does not open it");
      return MCPREAD_PDF_NEEDS_PASSWORD;
    }
    handle->pages = std::max(0, handle->doc->pages());
    handle->encrypted = handle->doc->is_encrypted();
    collected.clear();
    *out = handle.release();
    return MCPREAD_PDF_OK;
  });
}

MCPREAD_PDF_EXPORT void mcpread_pdf_close(mcpread_pdf_doc* doc) {
  try {
    delete doc;
  } catch (...) {  // destructors should not throw; never let one cross the boundary
  }
}

MCPREAD_PDF_EXPORT int mcpread_pdf_page_count(const mcpread_pdf_doc* doc) {
  return doc != nullptr ? doc->pages : 0;
}

MCPREAD_PDF_EXPORT int mcpread_pdf_is_encrypted(const mcpread_pdf_doc* doc) {
  return doc != nullptr && doc->encrypted ? 1 : 0;
}

MCPREAD_PDF_EXPORT int mcpread_pdf_info(const mcpread_pdf_doc* doc, const char* key,
                                        mcpread_pdf_sink sink, void* ctx) {
  if (doc == nullptr || key == nullptr || sink == nullptr) return 0;
  try {
    const std::vector<char> utf8 = doc->doc->info_key(key).to_utf8();
    collected.clear();
    if (utf8.empty()) return 0;
    send(sink, ctx, utf8);
    return 1;
  } catch (...) {
    return 0;
  }
}

MCPREAD_PDF_EXPORT int mcpread_pdf_page_size(const mcpread_pdf_doc* doc, int page, double* width_pt,
                                             double* height_pt, char* error,
                                             std::size_t error_size) {
  return guarded(error, error_size, [&]() -> int {
    int status = MCPREAD_PDF_OK;
    const std::unique_ptr<poppler::page> p = load_page(doc, page, error, error_size, &status);
    if (!p) return status;
    const poppler::rectf r = p->page_rect(poppler::crop_box);
    const auto o = p->orientation();
    const bool turned = o == poppler::page::landscape || o == poppler::page::seascape;
    if (width_pt) *width_pt = turned ? r.height() : r.width();
    if (height_pt) *height_pt = turned ? r.width() : r.height();
    collected.clear();
    return MCPREAD_PDF_OK;
  });
}

MCPREAD_PDF_EXPORT int mcpread_pdf_page_text(mcpread_pdf_doc* doc, int page,
                                             const mcpread_pdf_marks* marks, mcpread_pdf_sink sink,
                                             void* ctx, char* error, std::size_t error_size) {
  return guarded(error, error_size, [&]() -> int {
    int status = MCPREAD_PDF_OK;
    if (!valid_page(doc, page, error, error_size)) return MCPREAD_PDF_BAD_PAGE;
    // A page drawing turned text has its turned runs read whole (pdf_turned.cpp). Whether it
    // does is known from its content: the caller's count, or one made here (and kept for
    // page_marks); should qpdf fail where poppler reads, the page is read as any other.
    int turned_text = 0;
    if (marks != nullptr) {
      turned_text = marks->turned_text;
    } else {
      mcpread_pdf_marks counted{};
      char ignored[8];
      try {
        if (count_marks(doc, page, &counted, ignored, sizeof ignored) == MCPREAD_PDF_OK)
          turned_text = counted.turned_text;
      } catch (const std::exception&) {
        turned_text = 0;
      }
    }
    if (turned_text != 0) {
      const std::unique_ptr<poppler::page> p = load_page(doc, page, error, error_size, &status);
      if (!p) return status;
      bool found = false;
      const std::string text = turned_page_text(*p, turned_text, &found);
      if (found) {
        collected.clear();
        if (!text.empty()) sink(ctx, text.data(), text.size());
        return MCPREAD_PDF_OK;
      }
    }
    // Physical layout (as pdftotext -layout): lines as they stand on the page, so that tables,
    // tables of contents and indented code keep their shape. Read through the text session,
    // which shares fonts between pages (pdf_text_session.hpp), where this build has it.
    if (!doc->text_session_tried && text_session_available()) {
      doc->text_session_tried = true;
      doc->text_session = open_text_session(doc->data, doc->size, doc->password);
    }
    if (doc->text_session) {
      std::string text;
      if (session_page_text(*doc->text_session, page, &text)) {
        collected.clear();
        if (!text.empty()) sink(ctx, text.data(), text.size());
        return MCPREAD_PDF_OK;
      }
    }
    const std::unique_ptr<poppler::page> p = load_page(doc, page, error, error_size, &status);
    if (!p) return status;
    send(sink, ctx, p->text(poppler::rectf(), poppler::page::physical_layout).to_utf8());
    collected.clear();
    return MCPREAD_PDF_OK;
  });
}

MCPREAD_PDF_EXPORT int mcpread_pdf_render_png(mcpread_pdf_doc* doc, int page, double dpi,
                                              int* width, int* height, mcpread_pdf_sink sink,
                                              void* ctx, char* error, std::size_t error_size) {
  return guarded(error, error_size, [&]() -> int {
    int status = MCPREAD_PDF_OK;
    const std::unique_ptr<poppler::page> p = load_page(doc, page, error, error_size, &status);
    if (!p) return status;
    if (!(dpi >= 1 && dpi <= 2400)) {
      set_error(error, error_size, "the resolution must lie between 1 and 2400 DPI");
      return MCPREAD_PDF_FAILED;
    }
    if (!poppler::page_renderer::can_render()) {
      set_error(error, error_size, "this poppler was built without a renderer (Splash)");
      return MCPREAD_PDF_FAILED;
    }
    poppler::page_renderer renderer;
    renderer.set_render_hints(poppler::page_renderer::antialiasing |
                              poppler::page_renderer::text_antialiasing);
    renderer.set_paper_color(0xffffffff);
    renderer.set_image_format(poppler::image::format_rgb24);
    const poppler::image img = renderer.render_page(p.get(), dpi, dpi);
    if (!img.is_valid() || img.width() <= 0 || img.height() <= 0) {
      set_error(error, error_size, take_collected("poppler could not render the page"));
      return MCPREAD_PDF_FAILED;
    }
    std::string png, why;
    if (!encode_png(reinterpret_cast<const unsigned char*>(img.const_data()), img.width(),
                    img.height(), img.bytes_per_row(), &png, &why)) {
      set_error(error, error_size, "PNG encoding failed: " + why);
      return MCPREAD_PDF_FAILED;
    }
    if (width) *width = img.width();
    if (height) *height = img.height();
    collected.clear();
    sink(ctx, png.data(), png.size());
    return MCPREAD_PDF_OK;
  });
}
