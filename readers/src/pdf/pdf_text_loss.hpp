#pragma once
// Pages whose text layer lost characters: glyphs drawn with fonts that map them to no Unicode
// (no /ToUnicode and a CMap poppler lacks, as CJK books without poppler-data). Poppler drops
// such glyphs without a word; comparing the extracted text with the glyphs the page's content
// shows tells the model that text is missing and how to see it.
#include "pdf_loader.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace mcpread::readers::pdf {

struct TextLoss {
  bool lost = false;
  std::size_t chars = 0;  // non-blank characters extracted
  long glyphs = 0;        // glyphs shown (see mcpread_pdf_marks)
  // The content shows no glyph, image, painted path or annotation: the page is blank, known
  // without rendering it (false when the count failed).
  bool draws_nothing = false;
};

// Measures a page's extracted `text` against what its content draws (`marks`: page_marks). A
// count that failed (nullopt: a damaged content stream) reports no loss: the text shown is then
// all there is to say.
TextLoss measure_text_loss(const std::optional<mcpread_pdf_marks>& marks, std::string_view text);

// "[Page 8: the text layer has characters for only 78 of the 740 glyphs drawn: its fonts do not
// map them to Unicode, so text is missing. <then>]"
std::string text_loss_note(int page, const TextLoss& loss, std::string_view then);

}  // namespace mcpread::readers::pdf
