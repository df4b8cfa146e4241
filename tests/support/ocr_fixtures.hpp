#pragma once
// Pictures of text for the OCR tests: lines drawn with libvips' text operation (Pango, DejaVu
// Sans) as black ink on a white page, and PDFs whose pages are such pictures only (scans).
#include <string>
#include <vector>

namespace mcpread::test {

// The mean confidence Tesseract gives text_png's pictures of `letter`-like lines: on Windows the
// picture is drawn and decoded by sharp's libvips build instead of Debian's, and scores a point
// higher (measured; the text read is the same). A scanned page's picture reaches Tesseract
// through poppler on both, at 95.
#if defined(_WIN32)
inline constexpr int kPictureConfidence = 96;
#else
inline constexpr int kPictureConfidence = 95;
#endif

// What a reader says when no data for the Tesseract language `lang` (such as chi_sim) is
// installed, up to "Installed: ...": Debian's package to install, or on Windows the data file and
// the folder to put it in ($TESSDATA_PREFIX, which the Windows runs set).
std::string missing_language_note(const std::string& lang);
// Where a note on a script says to get `lang`'s data: "Debian's tesseract-ocr-rus", or on Windows
// "put rus.traineddata from Tesseract's tessdata in <$TESSDATA_PREFIX>".
std::string language_data_source(const std::string& lang);

struct TextPicture {
  std::vector<std::string> lines;
  int points = 12;        // font size
  int dpi = 150;
  int margin = 60;        // white pixels around the text
  int quarter_turns = 0;  // the picture turned clockwise by this many quarters (a sideways scan)
  bool noise = false;     // random grey pixels instead of text
  // Smooth tones over the whole range instead of text, as in a photograph: what Tesseract reads
  // as a few characters of garbage after seconds of work.
  bool photo = false;
  int width = 0, height = 0;  // noise, a photo, shading, or no lines (a white page): its size
  // Mostly one mid-dark tone with soft shadows and nothing sharp, as in a photograph of a
  // tabletop: 70-80 % of it near one tone, so only the absence of edges tells it from a page.
  bool shaded = false;
};

// 8-bit grey pixels, row by row; *width and *height receive the size.
std::string text_pixels(const TextPicture& picture, int* width, int* height);
// The picture as a PNG (8-bit grey).
std::string text_png(const TextPicture& picture);
// A PDF of one page per picture, each page showing only its picture (no text layer), sized at
// the picture's DPI.
std::string scanned_pdf(const std::vector<TextPicture>& pages);

}  // namespace mcpread::test
