#pragma once
// DjVu documents page by page, as the PDF reader reads PDFs and with its options: the selected
// pages' hidden text under page markers (pages without it OCR'd), or the pages rendered as
// images. Internal to the DjVu reader.
#include "mcpread/readers/access.hpp"
#include "mcpread/readers/cancel.hpp"
#include "mcpread/readers/outcome.hpp"
#include "mcpread/readers/pdf.hpp"

namespace mcpread::readers::djvu {

// PdfMode::images renders the pages; the other modes give their text (DjVu has no page subset
// to attach, and a page without text says how to see it).
ReadOutcome read_djvu(const OpenedFile& file, const PdfOptions& options, const CancelToken& cancel);

}  // namespace mcpread::readers::djvu
