#pragma once
// What OCR of one page of a paged document (PDF, DjVu) makes of the page's text, said the same
// way by every reader that OCRs pages.
#include "mcpread/readers/ocr.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <variant>

namespace mcpread::readers {

// Puts `result`, the OCR of page `page`, into the page's *body: on failure a note saying why
// after what *body holds; else the text found ("[Page N is blank.]" for a blank page; none
// found: *body kept) and the OCR's note. *label gets what goes beside the page's marker, and
// (*meta)["ocr_pages"] the page's entry.
void put_page_ocr(int page, const std::variant<OcrPage, std::string>& result, const OcrLanguages& langs,
                  std::string* body, std::string* label, nlohmann::json* meta);

}  // namespace mcpread::readers
