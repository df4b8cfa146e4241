#pragma once
// A page's text read through poppler's core, with the fonts shared by the pages read after it.
//
// poppler makes a page's fonts afresh every time it draws the page, reading each embedded font
// file again (memman.pdf: more than half of the time its text took). A TextSession keeps one
// Gfx, and so one set of fonts, for consecutive pages that have the same crop box and turn and
// whose font names name the same fonts; each page is drawn with its own other resources. The
// text is poppler-cpp's page::text(physical_layout), byte for byte (checked on every page of
// the corpus's PDFs), without its round trip through UTF-16.
#include <cstddef>
#include <memory>
#include <string>

namespace mcpread_pdf {

class TextSession;

struct TextSessionDeleter {
  void operator()(TextSession* session) const;
};
using TextSessionPtr = std::unique_ptr<TextSession, TextSessionDeleter>;

// Whether this build reads text through the session (poppler's core headers were found).
bool text_session_available();

// A session over the document's bytes (which must outlive it), opened with `password`; null
// when the core cannot open them (the caller reads through poppler-cpp). Needs poppler's
// global parameters, which a poppler::document holds while it lives.
TextSessionPtr open_text_session(const char* data, std::size_t size, const std::string& password);

// Page `page`'s text (1-based) in physical layout, ending in a form feed; false when the page
// cannot be loaded.
bool session_page_text(TextSession& session, int page, std::string* out);

}  // namespace mcpread_pdf
