#pragma once
// file_type="text" on an image: the text in it, read with OCR, lines in reading order.
#include "mcpread/readers/access.hpp"
#include "mcpread/readers/classify.hpp"
#include "mcpread/readers/read.hpp"

namespace mcpread::readers {

ReadOutcome read_image_text(const OpenedFile& file, const Classification& classification,
                            const ReadLimits& limits, const std::string& ocr_lang, const CancelToken& cancel);

}  // namespace mcpread::readers
