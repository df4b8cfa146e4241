#include "ocr/page_ocr_text.hpp"

namespace mcpread::readers {

void put_page_ocr(int page, const std::variant<OcrPage, std::string>& result, const OcrLanguages& langs,
                  std::string* body, std::string* label, nlohmann::json* meta) {
  const std::string k = std::to_string(page);
  if (const auto* why = std::get_if<std::string>(&result)) {
    std::string reason = *why;
    while (!reason.empty() && reason.back() == '.') reason.pop_back();
    *body += (body->empty() ? "" : "\n") + ("[Page " + k + " could not be OCR'd: " + reason + ".]");
    return;
  }
  const OcrPage& p = std::get<OcrPage>(result);
  *label = ocr_label(p, langs);
  // Without text from OCR the page keeps what it had (the label says OCR found none), and so
  // its note on how to see it.
  if (p.blank) *body = "[Page " + k + " is blank.]";
  else if (!p.text.empty()) *body = p.text;
  if (!p.note.empty()) *body += (body->empty() ? "[" : "\n[") + p.note + "]";
  (*meta)["ocr_pages"].push_back({{"page", page}, {"confidence", p.confidence}, {"cached", p.cached}, {"blank", p.blank}});
}

}  // namespace mcpread::readers
