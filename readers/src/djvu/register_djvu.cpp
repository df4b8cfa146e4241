// The DjVu reader: each page's hidden text (pages without it OCR'd), or with file_type="image"
// the pages rendered, chosen with `pages` as for PDFs and bounded by the PDF reader's limits.
#include "djvu/djvu_open.hpp"
#include "djvu/djvu_reader.hpp"
#include "byte_signatures.hpp"
#include "resource_contents.hpp"
#include "mcpread/readers/registry.hpp"

namespace mcpread::readers {

inline constexpr FileKind kDjvuKind{"djvu"};

namespace {

PdfOptions djvu_options(const ReadLimits& limits) {
  PdfOptions o;
  o.max_pages = limits.pdf_max_pages;
  o.whole_document_pages = limits.pdf_max_pages;
  o.image = limits.image;
  o.ocr = limits.ocr_mode;
  o.ocr_lang_config = limits.ocr_langs;
  o.ocr_max_pages = limits.ocr_max_pages;
  o.ocr_dpi = static_cast<unsigned>(limits.ocr_dpi);
  o.ocr_max_pixels = limits.ocr_max_pixels;
  o.render_dpi = static_cast<double>(limits.pdf_render_dpi);
  return o;
}

ReadOutcome read_as_djvu(const ReaderCall& call) {
  PdfOptions o = djvu_options(call.limits);
  o.pages = call.request.pages;
  o.mode = call.kind == FileKind::image ? PdfMode::images : PdfMode::text;
  o.max_output_bytes = media_text_cap(call.limits);
  o.progress = call.request.progress;
  o.ocr_lang = call.request.ocr_lang;
  o.wording = call.request.wording;
  return djvu::read_djvu(call.file, o, call.cancel);
}

ResourceReadResult djvu_resource(const ResourceCall& call) {
  PdfOptions o = djvu_options(call.limits);
  o.mode = PdfMode::text;
  o.max_output_bytes = call.limits.text.max_output_bytes;
  o.wording = call.wording;
  return resource_from_outcome(djvu::read_djvu(call.file, o, call.cancel), true);
}

// The PDF reader's words, so that the tool description gives both one line ("- pdf, djvu: ..."):
// the same arguments page them, with the same limits.
std::string describe_djvu(const ReadLimits& limits) {
  const Reader* pdf = reader_registry().find(FileKind::pdf);
  return pdf != nullptr && pdf->describe != nullptr ? pdf->describe(limits) : std::string();
}

// "AT&TFORM", a length, then DJVU (one page) or DJVM (several: bundled, or an indirect
// document's index). DJVI, a shared part of a document, is no document by itself.
std::optional<Sniffed> sniff_djvu(const SniffInput& in) {
  if (!sig::has_at(in.head, 0, "AT&TFORM") || !(sig::has_at(in.head, 12, "DJVU") || sig::has_at(in.head, 12, "DJVM")))
    return std::nullopt;
  return Sniffed{"image/vnd.djvu", "DjVu document"};
}

}  // namespace

bool register_djvu_reader(ReaderRegistry& registry) {
  return registry.add(Reader{
      .kind = kDjvuKind,
      .article = "a DjVu document",
      .noun = "DjVu documents",
      .describe = describe_djvu,
      .extensions = {{"djvu", "image/vnd.djvu"}, {"djv", "image/vnd.djvu"}},
      .sniff = sniff_djvu,
      .also_serves = {FileKind::text, FileKind::image},
      .read = read_as_djvu,
      .resource = djvu_resource,
      .release = [] { return djvu::OpenDjvuCache::instance().release(); },
  });
}

}  // namespace mcpread::readers
