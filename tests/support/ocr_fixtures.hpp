#pragma once
// Pictures of text for the OCR tests: lines drawn with libvips' text operation (Pango, DejaVu
// Sans) as black ink on a white page, and PDFs whose pages are such pictures only (scans).
#include <string>
#include <vector>

namespace mcpread::test {

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
