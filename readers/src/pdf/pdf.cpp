// PDFs for models: the selected pages' text under page markers plus a PDF of just those pages
// (Claude Code saves PDF blobs to disk instead of showing them, so the text must come along), the
// text alone, or the pages rendered as images. Poppler and qpdf work inside the plugin
// (pdf_loader.hpp); everything here is plain C++ on top of its C interface.
#include "mcpread/readers/hint.hpp"
#include "mcpread/readers/pdf.hpp"

#include "file_io.hpp"
#include "human_size.hpp"
#include "mcpread/readers/base64.hpp"
#include "mcpread/readers/resources.hpp"
#include "mcpread/readers/utf8.hpp"
#include "paging/page_ranges.hpp"
#include "pdf_loader.hpp"
#include "pdf_marks_ahead.hpp"
#include "pdf_ocr.hpp"
#include "pdf_open.hpp"
#include "pdf_text_loss.hpp"
#include "pdf/pdf_pages.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <memory>
#include <mutex>

namespace mcpread::readers {
namespace {

using namespace pdf_pages;
using pdf::Opened;

constexpr std::size_t note_reserve = 512;  // room kept under max_output_bytes for the notes

std::string header(const std::string& path, const Opened& d, std::uint64_t size,
                   const std::vector<int>& pages, PdfMode mode) {
  std::string h = "PDF " + path + ": ";
  if (!d.title.empty()) h += "\"" + d.title + "\", ";
  h += count_pages(static_cast<std::size_t>(d.pages)) + ", " + human_size(size) + ". ";
  if (pages.empty()) return h + "It has no pages.";
  const bool one = pages.size() == 1;
  h +=
      (one ? "Page " : "Pages ") + format_page_ranges(pages, ", ") + (one ? " follows" : " follow");
  if (mode == PdfMode::images) h += one ? " as an image" : " as images";
  return h + ".";
}

void report(const PdfOptions& o, std::size_t done, std::size_t total, int page, int count) {
  if (o.progress)
    o.progress(static_cast<double>(done), static_cast<double>(total),
               "page " + std::to_string(page) + " of " + std::to_string(count));
}

// A page of text_and_page_images mode to render after its text, and where its text ends.
struct PageImage {
  int page = 0;
  std::size_t text_end = 0;
};

// The OCR budget of the call is spent and page sel.pages[i] needs OCR: the answer ends before
// it, saying where to go on (the rest of the selection, or of a default one, the next
// max_pages pages).
void stop_for_ocr_budget(const Selection& sel, std::size_t i, int count, const PdfOptions& o,
                         std::size_t budget, std::string* text, nlohmann::json* meta) {
  std::vector<int> rest(sel.pages.begin() + static_cast<std::ptrdiff_t>(i), sel.pages.end());
  if (!sel.next.empty()) {
    rest.clear();
    const int last = std::min(count, sel.pages[i] + static_cast<int>(std::max<std::size_t>(o.max_pages, 1)) - 1);
    for (int p = sel.pages[i]; p <= last; ++p) rest.push_back(p);
  }
  const std::string next = format_page_ranges(rest);
  *text += "\n\n[Page " + std::to_string(sel.pages[i]) + " and later need OCR, and " +
           std::to_string(budget) + (budget == 1 ? " page is" : " pages are") +
           " OCR'd per call at most; " + o.wording.say({.pages = next}) + " to continue.]";
  (*meta)["truncated"] = true;
  (*meta)["next_pages"] = next;
}

// Header and page texts (text modes); in text_and_page_images mode also which pages to render.
// Returns false when cancelled.
bool append_texts(const Opened& d, const Selection& sel, const PdfOptions& o, pdf::PageOcr& ocr,
                  const CancelToken& cancel, std::string* text, nlohmann::json* meta,
                  std::vector<PageImage>* page_images) {
  const std::size_t budget =
      o.max_output_bytes > note_reserve ? o.max_output_bytes - note_reserve : 0;
  const auto as_image = [&](int k) { return o.wording.say({.as = FileKind::image, .pages = std::to_string(k)}); };
  // Each page's marks are counted (qpdf) on a worker while this thread reads the text (poppler).
  pdf::MarksAhead ahead(*d.api, d.doc.get(), sel.pages);
  for (std::size_t i = 0; i < sel.pages.size(); ++i) {
    if (cancel.cancelled()) return false;
    const int k = sel.pages[i];
    const std::optional<mcpread_pdf_marks> marks = ahead.get(i);
    // A count that failed reads the page as drawing no turned text, as the plugin itself would.
    const mcpread_pdf_marks known = marks.value_or(mcpread_pdf_marks{});
    std::string raw;
    pdf::ErrorBuffer e;
    std::string body;
    std::size_t image_note_at = std::string::npos;  // where "an image of the page follows" starts
    std::string label;  // beside the page marker: "[OCR, eng, mean confidence 91%]"
    if (d.api->page_text(d.doc.get(), k, &known, pdf::append_to_string, &raw, e.text, sizeof e.text) !=
        MCPREAD_PDF_OK) {
      body = "[Page " + std::to_string(k) + " could not be read: " + e.str() + ".]";
    } else {
      body = clean_page_text(raw);
      pdf::TextLoss loss = pdf::measure_text_loss(marks, body);
      if (loss.lost) (*meta)["pages_text_lost"].push_back(k);
      // Nothing drawn: blank, known from the content alone (no rendering, no OCR, no image).
      const bool blank = loss.draws_nothing && pdf::text_unusable(body);
      bool photograph = false;
      if (blank) {
        body = "[Page " + std::to_string(k) + " is blank.]";
        (*meta)["blank_pages"].push_back(k);
      } else if (ocr.wanted(body, loss.lost)) {
        if (!ocr.affordable(k)) {
          stop_for_ocr_budget(sel, i, d.pages, o, ocr.budget(), text, meta);
          return true;
        }
        if (!ocr.read(*d.api, d.doc.get(), k, cancel, &body, &label, &photograph, meta)) return false;
        if (!label.empty()) loss.lost = false;  // the OCR text stands in for the lost text
      }
      const bool sparse = !blank && (loss.lost || photograph || utf8::count_chars(body) < o.sparse_text_chars);
      const bool render = o.mode == PdfMode::text_and_page_images && sparse &&
                          page_images->size() < o.max_page_images;
      const std::string separator = body.empty() ? "" : "\n";
      const std::string what = photograph     ? " looks like a photograph or shading, not text, so it was not OCR'd"
                               : body.empty() ? " has no text layer"
                                              : " has little text";
      if (render) {
        image_note_at = body.size();
        body += separator + (loss.lost ? pdf::text_loss_note(k, loss, "An image of the page follows.")
                                       : "[Page " + std::to_string(k) + what + "; an image of the page follows.]");
        page_images->push_back({k, 0});
      } else if (loss.lost) {
        body += separator + pdf::text_loss_note(k, loss, "To see the page, " + as_image(k) + ".");
      } else if (body.empty() || photograph) {
        body += separator + "[Page " + std::to_string(k) + what + "; " + as_image(k) + " to see it.]";
      }
    }
    const std::string head = "\n\n" + marker(k, d.pages) + (label.empty() ? "" : " " + label) + "\n";
    if (text->size() + head.size() + body.size() > budget) {
      // The page's text is cut here, and its image is not sent: no note promises one.
      if (image_note_at != std::string::npos) {
        body.resize(image_note_at);
        page_images->pop_back();
      }
      const std::size_t used = text->size() + head.size();
      *text += head;
      *text += body.substr(0, cut_point(body, used < budget ? budget - used : 0));
      const std::string rest = format_page_ranges(
          std::vector<int>(sel.pages.begin() + static_cast<std::ptrdiff_t>(i), sel.pages.end()));
      *text += "\n\n[Text capped at " + std::to_string(o.max_output_bytes) + " bytes within page " +
               std::to_string(k) + "; " + o.wording.say({.pages = rest}) + " to continue.]";
      (*meta)["truncated"] = true;
      (*meta)["next_pages"] = rest;
      report(o, i + 1, sel.pages.size(), k, d.pages);
      return true;
    }
    *text += head;
    *text += body;
    if (!page_images->empty() && page_images->back().page == k) page_images->back().text_end = text->size();
    report(o, i + 1, sel.pages.size(), k, d.pages);
  }
  if (!sel.next.empty()) {
    *text += "\n\n" + more_pages_note(sel, d.pages, o, false);
    (*meta)["next_pages"] = sel.next;
  }
  return true;
}

// The PDF of the selected pages as a resource block, or a note saying why there is none.
void attach_subset(const Opened& d, const std::string& path, const std::string& bytes,
                   const Selection& sel, const PdfOptions& o, ReadOutcome* out, std::string* text) {
  bool whole = !d.encrypted && static_cast<int>(sel.pages.size()) == d.pages;
  for (std::size_t i = 0; whole && i < sel.pages.size(); ++i)
    whole = sel.pages[i] == static_cast<int>(i) + 1;
  std::string subset;
  if (!whole) {
    pdf::ErrorBuffer e;
    if (d.api->write_subset(d.doc.get(), sel.pages.data(), sel.pages.size(), pdf::append_to_string,
                            &subset, e.text, sizeof e.text) != MCPREAD_PDF_OK) {
      *text += "\n\n[The PDF of these pages could not be attached: " + e.str() + ".]";
      return;
    }
  }
  const std::string_view pdf = whole ? std::string_view(bytes) : std::string_view(subset);
  const std::size_t b64 = base64_size(pdf.size());
  if (b64 > o.max_blob_base64_bytes) {
    *text += "\n\n[The PDF of these pages is not attached: as base64 it would be " +
             human_size(b64) + ", over the limit of " + human_size(o.max_blob_base64_bytes) +
             " per answer; ask for fewer pages to get it.]";
    return;
  }
  out->meta["blob_bytes"] = b64;
  out->blocks.emplace_back(
      BlobResourceBlock{file_uri(path), "application/pdf", bytes_of(pdf)});
}

// Page k rendered and sized for the model, appended to `out` with its entry in `rendered`; or why
// not ("" when cancelled).
std::string render_page(const Opened& d, int k, const PdfOptions& o, const CancelToken& cancel,
                        ReadOutcome* out, nlohmann::json* rendered) {
  pdf::ErrorBuffer e;
  double w = 0, h = 0;
  std::string png;
  int pw = 0, ph = 0;
  if (d.api->page_size(d.doc.get(), k, &w, &h, e.text, sizeof e.text) != MCPREAD_PDF_OK) return e.str();
  // Never more pixels than the model gets: the long edge fits max_edge.
  const double long_pt = std::max({w, h, 1.0});
  const double dpi = std::clamp(std::min(o.render_dpi, o.image.max_edge * 72.0 / long_pt), 1.0, 2400.0);
  if (d.api->render_png(d.doc.get(), k, dpi, &pw, &ph, pdf::append_to_string, &png, e.text,
                        sizeof e.text) != MCPREAD_PDF_OK)
    return e.str();
  auto encoded = encode_for_model(png, "image/png", o.image, cancel);
  if (auto* img = std::get_if<EncodedImage>(&encoded)) {
    rendered->push_back({{"page", k},
                         {"width", img->width},
                         {"height", img->height},
                         {"mime", img->mime},
                         {"sent_bytes", base64_size(img->data.size())}});
    out->blocks.emplace_back(ImageBlock{img->mime, std::move(img->data)});
    return {};
  }
  if (cancel.cancelled()) return {};
  std::string failure = std::get<std::string>(encoded);
  while (!failure.empty() && failure.back() == '.') failure.pop_back();
  return failure;
}

std::string render_failure(int k, const std::string& why) {
  return "\n[Page " + std::to_string(k) + " could not be rendered: " + why + ".]";
}

// Each page rendered, sized for the model, after its marker. Returns false when cancelled.
bool append_images(const Opened& d, const Selection& sel, const PdfOptions& o,
                   const CancelToken& cancel, ReadOutcome* out) {
  nlohmann::json rendered = nlohmann::json::array();
  for (std::size_t i = 0; i < sel.pages.size(); ++i) {
    if (cancel.cancelled()) return false;
    const int k = sel.pages[i];
    out->blocks.emplace_back(TextBlock{marker(k, d.pages)});
    const std::size_t marker_at = out->blocks.size() - 1;
    const std::string failure = render_page(d, k, o, cancel, out, &rendered);
    if (cancel.cancelled()) return false;
    if (!failure.empty()) std::get<TextBlock>(out->blocks[marker_at]).text += render_failure(k, failure);
    report(o, i + 1, sel.pages.size(), k, d.pages);
  }
  out->meta["rendered"] = std::move(rendered);
  return true;
}

// text_and_page_images: the text cut after each page to render, that page's image after it.
// Returns false when cancelled.
bool interleave_page_images(const Opened& d, const std::vector<PageImage>& pages, const PdfOptions& o,
                            const CancelToken& cancel, std::string text, ReadOutcome* out) {
  nlohmann::json rendered = nlohmann::json::array();
  std::size_t from = 0;
  for (const PageImage& p : pages) {
    if (cancel.cancelled()) return false;
    out->blocks.emplace_back(TextBlock{text.substr(from, p.text_end - from)});
    const std::size_t text_at = out->blocks.size() - 1;
    from = p.text_end;
    const std::string failure = render_page(d, p.page, o, cancel, out, &rendered);
    if (cancel.cancelled()) return false;
    if (!failure.empty()) std::get<TextBlock>(out->blocks[text_at]).text += render_failure(p.page, failure);
  }
  if (from < text.size()) out->blocks.emplace_back(TextBlock{text.substr(from)});
  out->meta["rendered"] = std::move(rendered);
  return true;
}

}  // namespace

ReadOutcome read_pdf(const OpenedFile& file, const PdfOptions& options, const CancelToken& cancel) {
  const std::string path = file.path.string();
  const auto size = static_cast<std::uint64_t>(file.st.st_size);
  if (size == 0) return ReadOutcome::error(path + " is empty (0 bytes), not a PDF document.");
  if (size > options.max_file_bytes) {
    return ReadOutcome::error(path + " is a PDF of " + human_size(size) + ", over the limit of " +
                              human_size(options.max_file_bytes) + " for PDFs.");
  }
  // The document an earlier call opened from the same file, unless a call is using it now.
  const std::string key = file_io::identity_key(file);
  std::shared_ptr<pdf::OpenPdf> open = pdf::OpenPdfCache::instance().find(key);
  std::unique_lock<std::mutex> in_use;  // released before `open` may drop the last reference
  if (open) {
    in_use = std::unique_lock(open->in_use, std::try_to_lock);
    if (!in_use.owns_lock()) open.reset();
  }
  if (!open) {
    auto read = file_io::read_whole(file.fd.get(), size, options.max_file_bytes);
    if (!read) {
      return ReadOutcome::error("Cannot read " + path + ": " +
                                (errno == EFBIG
                                     ? std::string("it grew past the PDF size limit while being read")
                                     : std::string(std::strerror(errno))) +
                                ".");
    }
    if (cancel.cancelled()) return ReadOutcome::stopped();
    auto fresh = std::make_shared<pdf::OpenPdf>();
    fresh->bytes = std::move(*read);
    auto opened = pdf::open_document(path, fresh->bytes);
    if (auto* failed = std::get_if<ReadOutcome>(&opened)) return std::move(*failed);
    fresh->d = std::move(std::get<Opened>(opened));
    in_use = std::unique_lock(fresh->in_use);
    pdf::OpenPdfCache::instance().put(key, fresh);
    open = std::move(fresh);
  }
  const std::string* bytes = &open->bytes;
  const Opened& d = open->d;
  auto selected = select_pages(options, d.pages);
  if (auto* error = std::get_if<std::string>(&selected)) return ReadOutcome::error(*error);
  const Selection& sel = std::get<Selection>(selected);

  ReadOutcome out;
  out.meta = {{"path", path},          {"size", bytes->size()},    {"pages", d.pages},
              {"selected", sel.pages}, {"encrypted", d.encrypted}, {"truncated", false}};
  if (!d.title.empty()) out.meta["title"] = d.title;
  std::string text = header(path, d, bytes->size(), sel.pages, options.mode);
  if (options.mode == PdfMode::images) {
    out.blocks.emplace_back(TextBlock{std::move(text)});
    if (!append_images(d, sel, options, cancel, &out)) return ReadOutcome::stopped();
    if (!sel.next.empty()) {
      out.meta["next_pages"] = sel.next;
      out.blocks.emplace_back(TextBlock{more_pages_note(sel, d.pages, options, true)});
    }
    return out;
  }
  std::vector<PageImage> page_images;
  pdf::PageOcr ocr(file, options);
  if (!append_texts(d, sel, options, ocr, cancel, &text, &out.meta, &page_images)) return ReadOutcome::stopped();
  if (out.meta.contains("ocr_pages")) {
    out.meta["ocr_languages"] = ocr.languages().used;
    if (!ocr.languages().note.empty() && !ocr.languages().used.empty()) text += "\n\n[" + ocr.languages().note + "]";
  }
  if (options.mode == PdfMode::text_and_page_images) {
    if (!interleave_page_images(d, page_images, options, cancel, std::move(text), &out))
      return ReadOutcome::stopped();
    return out;
  }
  if (options.mode == PdfMode::text_and_blob && !sel.pages.empty()) {
    if (cancel.cancelled()) return ReadOutcome::stopped();
    attach_subset(d, path, *bytes, sel, options, &out, &text);
    out.blocks.insert(out.blocks.begin(), TextBlock{std::move(text)});
    return out;
  }
  out.blocks.emplace_back(TextBlock{std::move(text)});
  return out;
}

}  // namespace mcpread::readers
