#pragma once
// PDFs page by page: the selected pages' text under page markers, a PDF holding only those pages
// (as an embedded resource), or the pages rendered as images. Poppler and qpdf live in a plugin
// (libmcpread_pdf.so) loaded on first use, so that start-up stays fast.
#include "mcpread/readers/access.hpp"
#include "mcpread/readers/cancel.hpp"
#include "mcpread/readers/hint.hpp"
#include "mcpread/readers/image.hpp"
#include "mcpread/readers/ocr.hpp"
#include "mcpread/readers/outcome.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <variant>
#include <vector>

namespace mcpread::readers {

enum class PdfMode {
  text_and_blob,  // default: text of each page + resource block with the subset PDF
  text,           // file_type=text
  images,         // file_type=image: each page rendered
  // Text of each page, and after the text of a page with no or little text (a scan, a figure)
  // that page rendered as an image: for hosts that cannot take a PDF blob.
  text_and_page_images,
};

struct PdfOptions {
  std::string pages;                         // "3", "1-5", "2,4,7-9", "10-"; empty: see below
  PdfMode mode = PdfMode::text_and_blob;
  std::size_t max_pages = 20;                // pages per call at most
  std::size_t whole_document_pages = 20;     // without `pages`, documents up to this are read whole
  std::size_t max_output_bytes = 100 * 1024; // cap on the text of one answer
  std::size_t max_blob_base64_bytes = 20u << 20;
  std::uint64_t max_file_bytes = 256ull << 20;
  double render_dpi = 120;
  // text_and_page_images: pages with fewer characters of text than this are rendered, at most
  // max_page_images of them per call (the others say how to see them).
  std::size_t sparse_text_chars = 200;
  std::size_t max_page_images = 4;
  ImageLimits image;
  // OCR of pages without usable text (no text layer, only blanks or U+FFFD, or glyphs without
  // characters), or of every page with OcrMode::always; at most ocr_max_pages uncached pages per
  // call, rendered at ocr_dpi.
  OcrMode ocr = OcrMode::off;
  std::string ocr_lang;         // the call's languages (see choose_ocr_languages)
  std::string ocr_lang_config;  // the configured ones
  std::size_t ocr_max_pages = 10;
  unsigned ocr_dpi = 150;
  std::uint64_t ocr_max_pixels = 40'000'000;
  // Called after each page: (pages done, pages in all, message). May be empty.
  std::function<void(double, double, const std::string&)> progress;
  Wording wording;  // how the notes say what to read next
};

ReadOutcome read_pdf(const OpenedFile& file, const PdfOptions& options, const CancelToken& cancel);

}  // namespace mcpread::readers
