// The PDF reader: each page's text plus the pages as a PDF, or pages rendered as images. It keeps
// PDFs asked for as text (their text only) or as images (rendered pages).
#include "mcpread/readers/pdf.hpp"
#include "mcpread/readers/registry.hpp"
#include "byte_signatures.hpp"
#include "pdf/pdf_open.hpp"
#include "resource_contents.hpp"

namespace mcpread::readers {
namespace {

PdfOptions pdf_options(const ReadLimits& limits) {
  PdfOptions options;
  options.max_pages = limits.pdf_max_pages;
  options.whole_document_pages = limits.pdf_max_pages;
  options.max_blob_base64_bytes = limits.pdf_max_blob_bytes;
  options.image = limits.image;
  options.ocr = limits.ocr_mode;
  options.ocr_lang_config = limits.ocr_langs;
  options.ocr_max_pages = limits.ocr_max_pages;
  options.ocr_dpi = static_cast<unsigned>(limits.ocr_dpi);
  options.ocr_max_pixels = limits.ocr_max_pixels;
  return options;
}

ReadOutcome read_as_pdf(const ReaderCall& call) {
  PdfOptions options = pdf_options(call.limits);
  options.pages = call.request.pages;
  options.mode = call.kind == FileKind::text    ? PdfMode::text
                 : call.kind == FileKind::image ? PdfMode::images
                                                : call.limits.pdf_default_mode;
  options.max_output_bytes = media_text_cap(call.limits);
  options.max_page_images = call.limits.pdf_max_page_images;
  options.render_dpi = static_cast<double>(call.limits.pdf_render_dpi);
  options.progress = call.request.progress;
  options.ocr_lang = call.request.ocr_lang;
  options.wording = call.request.wording;
  return read_pdf(call.file, options, call.cancel);
}

ResourceReadResult pdf_resource(const ResourceCall& call) {
  PdfOptions options = pdf_options(call.limits);
  options.max_output_bytes = call.limits.text.max_output_bytes;
  options.wording = call.wording;
  return resource_from_outcome(read_pdf(call.file, options, call.cancel), true);
}

std::string describe_pdf(const ReadLimits& limits) {
  return "each page's text (scans OCR'd) plus the pages as PDF or images; `pages` picks them (\"1-5\", "
         "\"2,4\", \"10-\"), at most " +
         std::to_string(limits.pdf_max_pages) + " per call.";
}

// "%PDF-" within the first KiB (readers accept junk before it). Found past the start it counts for
// binary data or a file named .pdf only: a text may quote "%PDF-".
std::optional<Sniffed> sniff_pdf(const SniffInput& in) {
  const auto at = sig::find(in.head, "%PDF-", 1024);
  if (!at || (*at != 0 && in.clean_text && in.extension != "pdf")) return std::nullopt;
  return Sniffed{"application/pdf", "PDF document", *at == 0};
}

}  // namespace

bool register_pdf_reader(ReaderRegistry& registry) {
  return registry.add(Reader{
      .kind = FileKind::pdf,
      .article = "a PDF document",
      .noun = "PDFs",
      .describe = describe_pdf,
      .extensions = {{"pdf", "application/pdf"}},
      .sniff = sniff_pdf,
      .also_serves = {FileKind::text, FileKind::image},
      .options = {limit_option<&ReadLimits::pdf_max_pages>("--pdf-max-pages", "PDF pages per call", 1, 100),
                  limit_option<&ReadLimits::pdf_render_dpi>(
                      "--pdf-dpi", "resolution of PDF pages rendered as images", 36, 600),
                  limit_option<&ReadLimits::ocr_max_pages>(
                      "--ocr-max-pages", "pages OCR'd per call at most (cached pages are free)", 1, 1000),
                  limit_option<&ReadLimits::ocr_dpi>("--ocr-dpi", "resolution of PDF pages rendered for OCR", 50, 600),
                  limit_option<&ReadLimits::pdf_max_blob_bytes>(
                      "--pdf-max-blob-bytes", "largest PDF attached, measured on its base64 text", 0, UINT64_MAX)},
      .read = read_as_pdf,
      .resource = pdf_resource,
      .release = [] { return pdf::OpenPdfCache::instance().release(); },
  });
}

}  // namespace mcpread::readers
