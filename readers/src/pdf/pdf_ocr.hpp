#pragma once
// OCR of PDF pages whose text layer gives nothing usable: which pages need it, rendering them for
// Tesseract, and what the page's text becomes.
#include "mcpread/readers/access.hpp"
#include "mcpread/readers/pdf.hpp"
#include "pdf_loader.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace mcpread::readers::pdf {

// A text layer that says nothing: empty, or only blanks and U+FFFD (characters the font could
// not map, as poppler gives them).
bool text_unusable(std::string_view text);

// The OCR of one read: the languages (chosen on the first page that needs them) and how many
// pages were OCR'd (cache hits do not count against the budget).
class PageOcr {
 public:
  PageOcr(const OpenedFile& file, const PdfOptions& options) : file_(file), o_(options) {}

  [[nodiscard]] bool wanted(std::string_view text, bool text_lost) const {
    return o_.ocr == OcrMode::always || (o_.ocr == OcrMode::automatic && (text_lost || text_unusable(text)));
  }
  // Whether page k can be OCR'd in this call: cached, or within the budget.
  [[nodiscard]] bool affordable(int page);
  // OCRs page `page` (rendered by the plugin). On success *body is the page's text, or a note
  // when there is none, and *label what goes beside the page marker; on failure *body gets a
  // note saying why. A page that looks like a photograph when rendered small is not OCR'd:
  // *photograph is set and *body left as it was. Returns false when cancelled.
  bool read(const Api& api, mcpread_pdf_doc* doc, int page, const CancelToken& cancel, std::string* body,
            std::string* label, bool* photograph, nlohmann::json* meta);
  [[nodiscard]] const OcrLanguages& languages();
  [[nodiscard]] std::size_t budget() const { return o_.ocr_max_pages; }

 private:
  OcrKey key(int page);
  bool looks_like_photograph(const Api& api, mcpread_pdf_doc* doc, int page, double width, double height);

  const OpenedFile& file_;
  const PdfOptions& o_;
  bool chosen_ = false;
  OcrLanguages langs_;
  std::size_t ran_ = 0;
};

}  // namespace mcpread::readers::pdf
