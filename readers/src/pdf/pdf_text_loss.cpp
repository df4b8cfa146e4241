#include "pdf_text_loss.hpp"
#include "mcpread/readers/utf8.hpp"

namespace mcpread::readers::pdf {
namespace {

// Below this many glyphs a page is a heading or a page number: too little to judge by.
constexpr long min_glyphs = 20;

}  // namespace

TextLoss measure_text_loss(const std::optional<mcpread_pdf_marks>& counted, std::string_view text) {
  if (!counted) return {};
  const mcpread_pdf_marks& marks = *counted;
  TextLoss loss;
  loss.glyphs = marks.glyphs;
  loss.draws_nothing = marks.glyphs == 0 && marks.images == 0 && marks.paints == 0 && marks.annotations == 0;
  loss.chars = utf8::count_non_blank(text);
  // Half the glyphs without characters: a font's mapping failed, not a ligature here and there
  // (one "fi" glyph gives two characters, which only raises the count).
  loss.lost = loss.glyphs >= min_glyphs && static_cast<long>(loss.chars) * 2 < loss.glyphs;
  return loss;
}

std::string text_loss_note(int page, const TextLoss& loss, std::string_view then) {
  return "[Page " + std::to_string(page) + ": the text layer has characters for only " +
         std::to_string(loss.chars) + " of the " + std::to_string(loss.glyphs) +
         " glyphs drawn; its fonts do not map them to Unicode, so text is missing. " +
         std::string(then) + "]";
}

}  // namespace mcpread::readers::pdf
