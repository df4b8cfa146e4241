// DjVu documents for models, shaped as the PDF reader's answers: a header (title, page count,
// size), then each selected page's hidden text under its marker, a page without text OCR'd; or
// with file_type="image" the pages rendered. What djvulibre found is kept between calls
// (djvu_open.hpp); djvulibre itself runs in a child process per call (djvu_worker.hpp).
#include "djvu/djvu_reader.hpp"

#include "djvu/djvu_open.hpp"
#include "file_io.hpp"
#include "human_size.hpp"
#include "mcpread/readers/base64.hpp"
#include "mcpread/readers/image.hpp"
#include "mcpread/readers/ocr.hpp"
#include "ocr/page_ocr_text.hpp"
#include "paging/page_ranges.hpp"
#include "pdf/pdf_ocr.hpp"
#include "pdf/pdf_pages.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>

namespace mcpread::readers::djvu {
namespace {

using namespace pdf_pages;

constexpr std::size_t note_reserve = 512;  // room kept under max_output_bytes for the notes

std::string title_of(const OpenDjvu& d) {
  const auto it = d.metadata.find("title");
  return it == d.metadata.end() ? std::string() : clean_title(it->second);
}

std::string header(const std::string& path, const OpenDjvu& d, std::uint64_t size, const std::vector<int>& pages,
                   bool images) {
  std::string h = "DjVu document " + path + ": ";
  if (const std::string title = title_of(d); !title.empty()) h += "\"" + title + "\", ";
  h += count_pages(static_cast<std::size_t>(d.pages)) + ", " + human_size(size) + ". ";
  const bool one = pages.size() == 1;
  h += (one ? "Page " : "Pages ") + format_page_ranges(pages, ", ") + (one ? " follows" : " follow");
  if (images) h += one ? " as an image" : " as images";
  return h + ".";
}

// The pixels page `p` is drawn with at `dpi`: never more than the scan has, then within
// `max_edge` on the long side and `max_pixels` in all.
struct Drawn {
  int width = 1;
  int height = 1;
  double dpi = 0;
};
Drawn drawn_size(const SurveyedPage& p, double dpi, double max_edge, double max_pixels) {
  const double native = p.dpi > 0 ? p.dpi : 300;
  const double w = std::max(p.width, 1), h = std::max(p.height, 1);
  double scale = std::min(1.0, dpi / native);
  scale = std::min(scale, max_edge / (std::max(w, h)));
  if (w * h * scale * scale > max_pixels) scale = std::sqrt(max_pixels / (w * h));
  return {std::max(1, static_cast<int>(std::lround(w * scale))), std::max(1, static_cast<int>(std::lround(h * scale))),
          native * scale};
}

// OCR of pages without a text layer: the languages (chosen on the first page that needs them)
// and how many pages were OCR'd (cache hits do not count against the budget).
class PageOcr {
 public:
  PageOcr(const OpenedFile& file, const PdfOptions& o) : file_(file), o_(o) {}
  [[nodiscard]] bool wanted(std::string_view text) const {
    return o_.ocr == OcrMode::always || (o_.ocr == OcrMode::automatic && pdf::text_unusable(text));
  }
  [[nodiscard]] bool affordable(int page) {
    return ran_ < o_.ocr_max_pages || languages().used.empty() || ocr_cached(key(page)).has_value();
  }
  const OcrLanguages& languages() {
    if (!chosen_) langs_ = choose_ocr_languages(o_.ocr_lang, o_.ocr_lang_config);
    chosen_ = true;
    return langs_;
  }
  // The page's text read with OCR in *body (or a note why not), the marker's label in *label.
  // Returns false when cancelled.
  bool read(const Source& source, const SurveyedPage& p, const CancelToken& cancel, std::string* body,
            std::string* label, nlohmann::json* meta) {
    const std::string k = std::to_string(p.page);
    if (languages().used.empty()) {
      *body = "[Page " + k + " was not OCR'd: " + langs_.note + "]";
      return true;
    }
    const OcrKey cache_key = key(p.page);
    std::variant<OcrPage, std::string> result = std::string();
    if (auto hit = ocr_cached(cache_key)) {
      result = std::move(*hit);
    } else {
      ++ran_;
      const Drawn size = drawn_size(p, o_.ocr_dpi, std::numeric_limits<double>::infinity(),
                                    static_cast<double>(o_.ocr_max_pixels));
      auto drawn = render(source, {{p.page, size.width, size.height}}, cancel);
      if (cancel.cancelled()) return false;
      std::string why = std::holds_alternative<std::string>(drawn) ? std::get<std::string>(drawn)
                                                                   : std::get<std::vector<Rendering>>(drawn)[0].why;
      if (!why.empty()) {
        *body = "[Page " + k + " could not be rendered for OCR: " + why + ".]";
        return true;
      }
      const std::string& ppm = std::get<std::vector<Rendering>>(drawn)[0].ppm;
      result = ocr_image({ppm, static_cast<unsigned>(std::lround(size.dpi)), o_.ocr_max_pixels, "Page " + k}, langs_,
                         cancel, &cache_key);
    }
    if (cancel.cancelled()) return false;
    if (std::holds_alternative<std::string>(result)) body->clear();  // the note why stands for the page
    put_page_ocr(p.page, result, langs_, body, label, meta);
    return true;
  }
  [[nodiscard]] std::size_t budget() const { return o_.ocr_max_pages; }

 private:
  OcrKey key(int page) { return {file_io::identity_key(file_), page, languages().spec(), o_.ocr_dpi}; }

  const OpenedFile& file_;
  const PdfOptions& o_;
  bool chosen_ = false;
  OcrLanguages langs_;
  std::size_t ran_ = 0;
};

// The text of the selected pages after the header, capped, with where to go on.
// Returns false when cancelled.
bool append_texts(const OpenDjvu& d, const Source& source, const Selection& sel, const PdfOptions& o, PageOcr& ocr,
                  const CancelToken& cancel, std::string* text, nlohmann::json* meta) {
  const std::size_t budget = o.max_output_bytes > note_reserve ? o.max_output_bytes - note_reserve : 0;
  for (std::size_t i = 0; i < sel.pages.size(); ++i) {
    if (cancel.cancelled()) return false;
    const int k = sel.pages[i];
    const SurveyedPage& p = d.texts.at(k);
    std::string body;
    std::string label;  // beside the marker: "[OCR, eng, mean confidence 91%]"
    if (!p.why.empty()) {
      body = "[Page " + std::to_string(k) + " could not be read: " + p.why + ".]";
    } else {
      body = clean_page_text(p.text);
      if (ocr.wanted(body)) {
        if (!ocr.affordable(k)) {
          const std::string next = format_page_ranges(
              std::vector<int>(sel.pages.begin() + static_cast<std::ptrdiff_t>(i), sel.pages.end()));
          *text += "\n\n[Page " + std::to_string(k) + " and later need OCR, and " + std::to_string(ocr.budget()) +
                   (ocr.budget() == 1 ? " page is" : " pages are") + " OCR'd per call at most; " +
                   o.wording.say({.pages = next}) + " to continue.]";
          (*meta)["truncated"] = true;
          (*meta)["next_pages"] = next;
          return true;
        }
        const std::string layer = body;
        if (!ocr.read(source, p, cancel, &body, &label, meta)) return false;
        if (body.empty()) body = layer;
      }
      if (pdf::text_unusable(body))
        body = "[Page " + std::to_string(k) + " has no text layer; " +
               o.wording.say({.as = FileKind::image, .pages = std::to_string(k)}) + " to see it.]";
    }
    const std::string head = "\n\n" + marker(k, d.pages) + (label.empty() ? "" : " " + label) + "\n";
    if (text->size() + head.size() + body.size() > budget) {
      const std::size_t used = text->size() + head.size();
      *text += head + body.substr(0, cut_point(body, used < budget ? budget - used : 0));
      const std::string rest =
          format_page_ranges(std::vector<int>(sel.pages.begin() + static_cast<std::ptrdiff_t>(i), sel.pages.end()));
      *text += "\n\n[Text capped at " + std::to_string(o.max_output_bytes) + " bytes within page " +
               std::to_string(k) + "; " + o.wording.say({.pages = rest}) + " to continue.]";
      (*meta)["truncated"] = true;
      (*meta)["next_pages"] = rest;
      return true;
    }
    *text += head + body;
    if (o.progress) o.progress(static_cast<double>(i + 1), static_cast<double>(sel.pages.size()), "page " + std::to_string(k));
  }
  if (!sel.next.empty()) {
    *text += "\n\n" + more_pages_note(sel, d.pages, o, false);
    (*meta)["next_pages"] = sel.next;
  }
  return true;
}

// Each selected page rendered (all in one child) and sized for the model after its marker.
// Returns false when cancelled.
bool append_images(const OpenDjvu& d, const Source& source, const Selection& sel, const PdfOptions& o,
                   const CancelToken& cancel, ReadOutcome* out) {
  std::vector<Drawing> drawings;
  for (int k : sel.pages) {
    const SurveyedPage& p = d.texts.at(k);
    if (!p.why.empty()) continue;
    const Drawn size = drawn_size(p, o.render_dpi, o.image.max_edge, static_cast<double>(o.image.max_pixels));
    drawings.push_back({k, size.width, size.height});
  }
  std::variant<std::vector<Rendering>, std::string> drawn = std::vector<Rendering>{};
  if (!drawings.empty()) drawn = render(source, drawings, cancel);
  if (cancel.cancelled()) return false;
  std::map<int, Rendering> by_page;
  if (auto* all = std::get_if<std::vector<Rendering>>(&drawn))
    for (std::size_t i = 0; i < drawings.size() && i < all->size(); ++i) by_page[drawings[i].page] = std::move((*all)[i]);
  nlohmann::json rendered = nlohmann::json::array();
  for (int k : sel.pages) {
    if (cancel.cancelled()) return false;
    std::string marker_text = marker(k, d.pages);
    std::string why = d.texts.at(k).why;
    if (why.empty() && std::holds_alternative<std::string>(drawn)) why = std::get<std::string>(drawn);
    if (why.empty()) {
      const Rendering& r = by_page.at(k);
      why = r.why;
      if (why.empty()) {
        auto encoded = encode_for_model(r.ppm, "image/x-portable-pixmap", o.image, cancel);
        if (cancel.cancelled()) return false;
        if (auto* img = std::get_if<EncodedImage>(&encoded)) {
          rendered.push_back({{"page", k}, {"width", img->width}, {"height", img->height}, {"mime", img->mime},
                              {"sent_bytes", base64_size(img->data.size())}});
          out->blocks.emplace_back(TextBlock{std::move(marker_text)});
          out->blocks.emplace_back(ImageBlock{img->mime, std::move(img->data)});
          continue;
        }
        why = std::get<std::string>(encoded);
        while (!why.empty() && why.back() == '.') why.pop_back();
      }
    }
    out->blocks.emplace_back(TextBlock{marker_text + "\n[Page " + std::to_string(k) + " could not be rendered: " + why + ".]"});
  }
  out->meta["rendered"] = std::move(rendered);
  return true;
}

}  // namespace

ReadOutcome read_djvu(const OpenedFile& file, const PdfOptions& options, const CancelToken& cancel) {
  const std::string path = file.path.string();
  const auto size = static_cast<std::uint64_t>(file.st.st_size);
  if (size == 0) return ReadOutcome::error(path + " is empty (0 bytes), not a DjVu document.");
  if (size > options.max_file_bytes)
    return ReadOutcome::error(path + " is a DjVu document of " + human_size(size) + ", over the limit of " +
                              human_size(options.max_file_bytes) + " for DjVu documents.");
  // What earlier calls found in the same file, unless a call is using it now.
  const std::string key = file_io::identity_key(file);
  std::shared_ptr<OpenDjvu> d = OpenDjvuCache::instance().find(key);
  std::unique_lock<std::mutex> in_use;
  if (d) in_use = std::unique_lock(d->in_use, std::try_to_lock);
  if (!d || !in_use.owns_lock()) {
    d = std::make_shared<OpenDjvu>();
    in_use = std::unique_lock(d->in_use);
  }
  // djvulibre is given the bytes of the file opened through the roots, never its name: opened by
  // name, it follows the component names of an indirect document (absolute paths, "..", file:
  // URLs) to any DjVu file the server can read. Indirect documents are refused for it.
  if (d->bytes.empty()) {
    auto read = file_io::read_whole(file.fd.get(), size, options.max_file_bytes);
    if (!read) return ReadOutcome::error("Cannot read " + path + ": " + std::strerror(errno) + ".");
    d->bytes = std::move(*read);
  }
  const Source source{d->bytes};
  const auto select = [&](int count) {
    auto s = select_pages(options, count);
    return std::holds_alternative<Selection>(s) ? std::get<Selection>(s).pages : std::vector<int>{};
  };
  std::set<int> known;  // a page not read in time is not known: it is asked for again
  for (const auto& [page, t] : d->texts)
    if (!t.late) known.insert(page);
  const std::vector<int> wanted = d->pages > 0 ? select(d->pages) : std::vector<int>{};
  if (d->pages == 0 || !std::all_of(wanted.begin(), wanted.end(), [&](int k) { return known.contains(k); })) {
    auto surveyed = survey(source, select, known, cancel);
    if (cancel.cancelled()) return ReadOutcome::stopped();
    if (auto* why = std::get_if<std::string>(&surveyed)) return ReadOutcome::error("Cannot read the DjVu document " + path + ": " + *why + ".");
    Survey& s = std::get<Survey>(surveyed);
    d->pages = s.pages;
    d->metadata = std::move(s.metadata);
    for (SurveyedPage& p : s.texts) d->texts[p.page] = std::move(p);
    OpenDjvuCache::instance().put(key, d);
  }
  auto selected = select_pages(options, d->pages);
  if (auto* error = std::get_if<std::string>(&selected)) return ReadOutcome::error(*error);
  const Selection& sel = std::get<Selection>(selected);
  for (int k : sel.pages)  // a page the survey could not reach (it ran out of time)
    if (!d->texts.contains(k)) {
      SurveyedPage late;
      late.page = k;
      late.why = "djvulibre did not get to it";
      late.late = true;
      d->texts[k] = std::move(late);
    }

  ReadOutcome out;
  const bool images = options.mode == PdfMode::images;
  out.meta = {{"path", path}, {"size", size}, {"pages", d->pages}, {"selected", sel.pages}, {"truncated", false}};
  if (!d->metadata.empty()) out.meta["metadata"] = d->metadata;
  if (const std::string title = title_of(*d); !title.empty()) out.meta["title"] = title;
  std::string text = header(path, *d, size, sel.pages, images);
  if (images) {
    out.blocks.emplace_back(TextBlock{std::move(text)});
    if (!append_images(*d, source, sel, options, cancel, &out)) return ReadOutcome::stopped();
    if (!sel.next.empty()) {
      out.meta["next_pages"] = sel.next;
      out.blocks.emplace_back(TextBlock{more_pages_note(sel, d->pages, options, true)});
    }
    return out;
  }
  PageOcr ocr(file, options);
  if (!append_texts(*d, source, sel, options, ocr, cancel, &text, &out.meta)) return ReadOutcome::stopped();
  if (out.meta.contains("ocr_pages")) {
    out.meta["ocr_languages"] = ocr.languages().used;
    if (!ocr.languages().note.empty()) text += "\n\n[" + ocr.languages().note + "]";
  }
  out.blocks.emplace_back(TextBlock{std::move(text)});
  return out;
}

}  // namespace mcpread::readers::djvu
