#include "pdf_ocr.hpp"

#include "file_io.hpp"
#include "ocr/page_ocr_text.hpp"

#include <algorithm>
#include <cmath>

namespace mcpread::readers::pdf {

bool text_unusable(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f') {
      ++i;
    } else if (text.substr(i, 3) == "\xEF\xBF\xBD") {  // U+FFFD
      i += 3;
    } else {
      return false;
    }
  }
  return true;
}

const OcrLanguages& PageOcr::languages() {
  if (!chosen_) {
    langs_ = choose_ocr_languages(o_.ocr_lang, o_.ocr_lang_config);
    chosen_ = true;
  }
  return langs_;
}

OcrKey PageOcr::key(int page) {
  OcrKey k;
  k.file = file_io::identity_key(file_);
  k.page = page;
  k.langs = languages().spec();
  k.dpi = o_.ocr_dpi;
  return k;
}

bool PageOcr::affordable(int page) {
  if (ran_ < o_.ocr_max_pages || languages().used.empty()) return true;
  return ocr_cached(key(page)).has_value();
}

// A photograph rendered for OCR costs seconds (a 4032x2268 JPEG on a page 56 inches wide: 40
// megapixels at 150 DPI) and Tesseract seconds more to find no text; drawn about 512 px on its
// long edge it costs tens of milliseconds to recognise.
bool PageOcr::looks_like_photograph(const Api& api, mcpread_pdf_doc* doc, int page, double width, double height) {
  constexpr double glance_edge = 512;
  const double dpi = std::clamp(glance_edge * 72 / std::max({width, height, 1.0}), 1.0, static_cast<double>(o_.ocr_dpi));
  std::string png;
  int pw = 0, ph = 0;
  ErrorBuffer e;
  if (api.render_png(doc, page, dpi, &pw, &ph, append_to_string, &png, e.text, sizeof e.text) != MCPREAD_PDF_OK)
    return false;  // the full rendering says what is wrong
  return readers::looks_like_photograph(png);
}

bool PageOcr::read(const Api& api, mcpread_pdf_doc* doc, int page, const CancelToken& cancel,
                   std::string* body, std::string* label, bool* photograph, nlohmann::json* meta) {
  const std::string k = std::to_string(page);
  const OcrLanguages& langs = languages();
  const std::string separator = body->empty() ? "" : "\n";
  if (langs.used.empty()) {
    *body += separator + "[Page " + k + " was not OCR'd: " + langs.note + "]";
    return true;
  }
  const OcrKey cache_key = key(page);
  std::variant<OcrPage, std::string> result = std::string();
  if (auto hit = ocr_cached(cache_key)) {
    result = std::move(*hit);
  } else {
    ErrorBuffer e;
    double w = 0, h = 0;
    if (api.page_size(doc, page, &w, &h, e.text, sizeof e.text) != MCPREAD_PDF_OK) {
      *body += separator + "[Page " + k + " could not be OCR'd: " + e.str() + ".]";
      return true;
    }
    if (looks_like_photograph(api, doc, page, w, h)) {
      *photograph = true;
      (*meta)["photo_pages"].push_back(page);
      return !cancel.cancelled();
    }
    ++ran_;  // a photograph, found at a glance, does not count against the budget
    // A page too large for the pixel limit at ocr_dpi (a poster, a 30,000-pixel scan) is drawn
    // at the resolution that fits instead of being refused.
    double dpi = o_.ocr_dpi;
    const double pixels = std::max(w, 1.0) / 72 * dpi * std::max(h, 1.0) / 72 * dpi;
    if (pixels > static_cast<double>(o_.ocr_max_pixels))
      dpi = std::max(1.0, std::floor(dpi * std::sqrt(static_cast<double>(o_.ocr_max_pixels) / pixels) * 0.99));
    std::string png;
    int pw = 0, ph = 0;
    if (api.render_png(doc, page, dpi, &pw, &ph, append_to_string, &png, e.text, sizeof e.text) != MCPREAD_PDF_OK) {
      *body += separator + "[Page " + k + " could not be rendered for OCR: " + e.str() + ".]";
      return true;
    }
    if (cancel.cancelled()) return false;
    result = ocr_image({png, static_cast<unsigned>(std::lround(dpi)), o_.ocr_max_pixels, "Page " + k}, langs,
                       cancel, &cache_key);
  }
  if (cancel.cancelled()) return false;
  put_page_ocr(page, result, langs, body, label, meta);
  return true;
}

}  // namespace mcpread::readers::pdf
