// One image through Tesseract: the pixel guard, a blank-page check, recognition with the cancel
// token polled from Tesseract's monitor, and orientation and script detection (osd) when the
// first reading is poor: a page scanned sideways, or a script the languages do not read.
#include "mcpread/readers/ocr.hpp"
#include "mcpread/readers/utf8.hpp"
#include "ocr_cache.hpp"
#include "ocr_scripts.hpp"
#include "picture_look.hpp"
#include "tess_api.hpp"

#include <cstdio>
#include <memory>
#include <mutex>

namespace mcpread::readers {
namespace {

using ocr::Api;
using ocr::Look;

// A first reading below this mean confidence, or with fewer characters, asks for OSD.
constexpr int doubtful_confidence = 70;
constexpr std::size_t doubtful_chars = 20;
// Below this mean confidence what Tesseract read is noise, not text.
constexpr int legible_confidence = 30;
// A short reading needs more: what Tesseract makes of a photograph or a drawing is a few
// characters at 55-60 % ("— <5 Oe ——™", "ese"), where pages of text read at 84-95 % and
// screenshots of programs at 78-81 %. A long reading keeps the lower floor: a page of small
// text shrunk to 73 DPI reads at 54 % over 217 words, and Cyrillic read as eng at 33 % (with a
// note on the language data to install) are still worth having.
constexpr int short_reading_confidence = 70;
constexpr std::size_t short_reading_chars = 40;

std::string megapixels(std::uint64_t pixels) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", static_cast<double>(pixels) / 1e6);
  return buf;
}

// Valid lines without trailing blanks, at most one blank line in a row, none at either end.
std::string tidy(const char* raw) {
  std::string out;
  if (raw == nullptr) return out;
  std::string_view text(raw);
  std::size_t blank_run = 0;
  while (!text.empty()) {
    std::size_t end = text.find('\n');
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(0, end);
    text.remove_prefix(std::min(text.size(), end + 1));
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\f' || line.back() == '\r'))
      line.remove_suffix(1);
    if (line.find_first_not_of(" \t\f") == std::string_view::npos) {
      ++blank_run;
      continue;
    }
    if (!out.empty()) out += blank_run > 0 ? "\n\n" : "\n";
    blank_run = 0;
    out += line;
  }
  return out;
}

struct Handle {
  const Api* api;
  TessBaseAPI* h;
  ~Handle() { api->destroy(h); }
};

// Tesseract prints warnings ("Invalid resolution 0 dpi") on stderr, which is the server's log.
// debug_file is one process-wide setting (tprintf's), so it is set once, not by every thread.
void quiet(const Api& a, TessBaseAPI* h) {
  static std::once_flag once;
  std::call_once(once, [&] { a.set_variable(h, "debug_file", "/dev/null"); });
}

bool cancel_check(void* token, int) { return static_cast<const CancelToken*>(token)->cancelled(); }

struct Reading {
  std::string text;
  int confidence = 0;
};

// Reads `pix` with `langs`; the error is a sentence, "" when cancelled.
std::variant<Reading, std::string> recognize(const Api& a, ::Pix* pix, const std::string& langs,
                                             unsigned dpi, const CancelToken& cancel) {
  Handle t{&a, a.create()};
  quiet(a, t.h);
  const std::string dir = ocr::tessdata_directory();
  if (a.init3(t.h, dir.c_str(), langs.c_str()) != 0)
    return "Tesseract could not load the language data " + langs + " from " + dir + ".";
  // The library's default is one uniform block of text; the command line's (and a page's) is
  // full layout analysis: columns, paragraphs, reading order.
  a.set_page_seg_mode(t.h, tesseract::PSM_AUTO);
  a.set_image2(t.h, pix);
  if (dpi > 0) a.set_source_resolution(t.h, static_cast<int>(dpi));
  std::unique_ptr<ETEXT_DESC, decltype(a.monitor_delete)> monitor(a.monitor_create(), a.monitor_delete);
  a.monitor_set_cancel_func(monitor.get(), cancel_check);
  a.monitor_set_cancel_this(monitor.get(), const_cast<CancelToken*>(&cancel));
  if (a.recognize(t.h, monitor.get()) != 0 || cancel.cancelled())
    return cancel.cancelled() ? std::string() : std::string("Tesseract could not read the image.");
  char* raw = a.get_utf8_text(t.h);
  Reading r{tidy(raw), a.mean_text_conf(t.h)};
  if (raw != nullptr) a.delete_text(raw);
  return r;
}

struct Orientation {
  int degrees = 0;  // clockwise turn of the image's content
  float confidence = 0;
  std::string script;
  float script_confidence = 0;
};

std::optional<Orientation> detect_orientation(const Api& a, ::Pix* pix, unsigned dpi) {
  if (!ocr::has_orientation_data()) return std::nullopt;
  Handle t{&a, a.create()};
  quiet(a, t.h);
  const std::string dir = ocr::tessdata_directory();
  if (a.init3(t.h, dir.c_str(), "osd") != 0) return std::nullopt;
  a.set_image2(t.h, pix);
  if (dpi > 0) a.set_source_resolution(t.h, static_cast<int>(dpi));
  Orientation o;
  const char* script = nullptr;
  if (!a.detect_orientation_script(t.h, &o.degrees, &o.confidence, &script, &o.script_confidence))
    return std::nullopt;
  // The name points into the model's character set (capi.h says to free it; 5.3 must not).
  if (script != nullptr) o.script = script;
  return o;
}

OcrPage read_pixels(const Api& a, ::Pix* pix, const OcrLanguages& langs, unsigned dpi,
                    const CancelToken& cancel, std::string* error) {
  OcrPage page;
  switch (ocr::look_of(a, pix)) {
    case Look::blank:
      page.blank = true;
      return page;
    case Look::textured:
      page.textured = true;
      return page;
    case Look::photograph:
      page.photograph = true;
      return page;
    case Look::inked:
      break;
  }
  auto first = recognize(a, pix, langs.spec(), dpi, cancel);
  if (auto* e = std::get_if<std::string>(&first)) {
    *error = *e;
    return page;
  }
  Reading best = std::get<Reading>(first);
  if (best.confidence < doubtful_confidence || best.text.size() < doubtful_chars) {
    if (const auto osd = detect_orientation(a, pix, dpi)) {
      if (osd->degrees % 360 != 0 && osd->confidence > 1.5f) {
        // Turning the image back by the detected angle: pixRotateOrth turns clockwise by quarters.
        ocr::Pix upright(&a, a.pix_rotate_orth(pix, (4 - osd->degrees / 90 % 4) % 4));
        if (upright) {
          auto second = recognize(a, upright.get(), langs.spec(), dpi, cancel);
          if (auto* r = std::get_if<Reading>(&second); r != nullptr && r->confidence > best.confidence) {
            best = std::move(*r);
            page.rotated = osd->degrees;
          }
        }
      }
      // Only a poor reading says the script may be the cause (OSD names a script for anything).
      if (osd->script_confidence > 1.0f && best.confidence < doubtful_confidence && best.text.size() >= doubtful_chars)
        page.note = ocr::script_note(osd->script, langs.used);
    }
  }
  if (cancel.cancelled()) {
    *error = {};
    return page;
  }
  page.confidence = best.confidence;
  if (legible_reading(best.text, best.confidence)) page.text = std::move(best.text);
  else page.left_out_chars = utf8::count_non_blank(best.text);
  return page;
}

}  // namespace

std::variant<OcrPage, std::string> ocr_image(const OcrInput& in, const OcrLanguages& langs,
                                             const CancelToken& cancel, const OcrKey* key) {
  if (key != nullptr)
    if (auto hit = ocr::cache_find(*key)) return std::move(*hit);
  if (cancel.cancelled()) return std::string("The read was cancelled.");
  std::string why;
  const Api* a = ocr::api(&why);
  if (a == nullptr) return why;
  if (langs.used.empty()) return langs.note;
  if (in.bytes.empty()) return in.subject + " is empty (0 bytes): there is nothing to OCR.";
  const auto* data = reinterpret_cast<const l_uint8*>(in.bytes.data());
  l_int32 format = 0, w = 0, h = 0, bps = 0, spp = 0, cmap = 0;
  if (a->pix_read_header_mem(data, in.bytes.size(), &format, &w, &h, &bps, &spp, &cmap) != 0)
    return in.subject + " is not an image Leptonica (Tesseract's image library) can read for OCR.";
  const std::uint64_t pixels = static_cast<std::uint64_t>(w) * static_cast<std::uint64_t>(h);
  if (pixels > in.max_pixels)
    return in.subject + " is " + std::to_string(w) + "\u00D7" + std::to_string(h) + " px (" + megapixels(pixels) +
           " megapixels), more than the limit of " + megapixels(in.max_pixels) +
           " megapixels for OCR, so it was not decoded.";
  ocr::Pix pix(a, a->pix_read_mem(data, in.bytes.size()));
  if (!pix) return in.subject + " cannot be decoded for OCR; it is probably truncated or corrupt.";
  std::string error;
  OcrPage page = read_pixels(*a, pix.get(), langs, in.dpi, cancel, &error);
  if (cancel.cancelled()) return std::string("The read was cancelled.");
  if (!error.empty()) return error;
  if (key != nullptr) ocr::cache_store(*key, page);
  return page;
}

bool legible_reading(std::string_view text, int confidence) {
  const std::size_t chars = utf8::count_non_blank(text);
  return chars > 0 && confidence >= (chars < short_reading_chars ? short_reading_confidence : legible_confidence);
}

bool looks_like_photograph(std::string_view image) {
  const Api* a = ocr::api(nullptr);
  if (a == nullptr || image.empty()) return false;
  ocr::Pix pix(a, a->pix_read_mem(reinterpret_cast<const l_uint8*>(image.data()), image.size()));
  return pix && ocr::look_of(*a, pix.get()) == Look::photograph;
}

std::optional<OcrPage> ocr_cached(const OcrKey& key) { return ocr::cache_find(key); }

void ocr_cache_clear() { ocr::cache_clear(); }

std::string ocr_label(const OcrPage& page, const OcrLanguages& langs) {
  std::string s = "[OCR, " + langs.list();
  if (page.blank) return s + ": blank page]";
  if (page.textured) return s + ": no text, only texture (noise or a photograph)]";
  if (page.photograph) return s + ": not run, a photograph or shading]";
  if (page.left_out_chars > 0)
    return s + ": no legible text; what it made out (" + std::to_string(page.left_out_chars) +
           (page.left_out_chars == 1 ? " character" : " characters") + ", mean confidence " +
           std::to_string(page.confidence) + "%) was left out]";
  if (page.text.empty()) return s + ": no legible text]";
  s += ", mean confidence " + std::to_string(page.confidence) + "%";
  if (page.rotated != 0) s += ", turned " + std::to_string(page.rotated) + "\u00B0 to read";
  return s + "]";
}

}  // namespace mcpread::readers
