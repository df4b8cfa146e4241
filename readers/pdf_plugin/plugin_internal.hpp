#pragma once
// Shared by the plugin's translation units: the document handle and the error plumbing.
#include "pdf_plugin_api.h"
#include "pdf_text_session.hpp"

#include <cstddef>
#include <exception>
#include <memory>
#include <new>
#include <string>
#include <string_view>
#include <vector>

namespace poppler {
class document;
class page;
}
class QPDF;
class QPDFObjectHandle;

struct mcpread_pdf_doc {
  const char* data = nullptr;  // the caller's bytes (not owned)
  std::size_t size = 0;
  std::string password;
  std::unique_ptr<poppler::document> doc;
  // Page texts through poppler's core with fonts shared (pdf_text_session.hpp), opened on the
  // first page's text; after `doc`, so destroyed first (poppler's global parameters live as long
  // as a poppler::document does).
  mcpread_pdf::TextSessionPtr text_session;
  bool text_session_tried = false;
  std::unique_ptr<QPDF> qpdf;  // opened on first use: see qpdf_of
  int qpdf_counts = 0;         // pages counted (count_marks) since it was opened
  int pages = 0;
  bool encrypted = false;
  // What page `marks_page` draws, as count_marks last counted it: page_text counts a page itself
  // when not given its marks, and the caller asks for them right after the text, so that the
  // content need not be parsed twice.
  int marks_page = 0;
  mcpread_pdf_marks marks{};
  mcpread_pdf_doc();  // out of line: QPDF and poppler::document are incomplete here
  ~mcpread_pdf_doc();
};

namespace mcpread_pdf {

// Copies `text` (one line) into the caller's buffer, truncated on a UTF-8 boundary.
void set_error(char* error, std::size_t error_size, std::string_view text);

// Runs `fn` (returning a status), turning every exception into MCPREAD_PDF_FAILED + message.
template <typename Fn>
int guarded(char* error, std::size_t error_size, Fn&& fn) noexcept {
  try {
    return fn();
  } catch (const std::bad_alloc&) {
    set_error(error, error_size, "out of memory");
  } catch (const std::exception& e) {
    set_error(error, error_size, e.what());
  } catch (...) {
    set_error(error, error_size, "unknown failure");
  }
  return MCPREAD_PDF_FAILED;
}

// Checks a 1-based page number against the document.
bool valid_page(const mcpread_pdf_doc* doc, int page, char* error, std::size_t error_size);

// The document as qpdf sees it, opened on first use (page subsets, glyph counts). Throws as qpdf
// does; callers run inside guarded().
QPDF& qpdf_of(mcpread_pdf_doc* doc);

// Page `k` (1-based), found by descending the page tree by /Count (pdf_glyphs.cpp); a null
// handle when the tree does not lead to it. Throws as qpdf does.
QPDFObjectHandle find_page(QPDF& q, int k);

// Copies `pages` (the source's) into `out`, with what they use and what they inherit, without
// walking the source's page tree (pdf_page_copy.cpp); returns the copies, to be added to
// `out`'s page tree. Throws as qpdf does.
std::vector<QPDFObjectHandle> copy_pages(QPDF& out, const std::vector<QPDFObjectHandle>& pages);

// How a page's content turns some of its text (mcpread_pdf_marks::turned_text bits): drawn at an
// angle other than a quarter turn; mirrored.
constexpr int turned_slanted = 1;
constexpr int turned_mirrored = 2;

// Counts what page `page` draws and how it turns text (mcpread_pdf_page_marks), remembering the
// counts in `doc`. Throws as qpdf does; callers run inside guarded().
int count_marks(mcpread_pdf_doc* doc, int page, mcpread_pdf_marks* marks, char* error, std::size_t error_size);

// The text of a page whose content turns text as `turned` says (pdf_turned.cpp): the turned
// runs whole, each on a line of its own. Empty, and *found false, when poppler's words show no
// such run.
std::string turned_page_text(const poppler::page& page, int turned, bool* found);

// 8-bit RGB pixels (rows `stride` bytes apart) as a PNG file.
bool encode_png(const unsigned char* rgb, int width, int height, int stride, std::string* out,
                std::string* why);

}  // namespace mcpread_pdf
