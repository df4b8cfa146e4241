#pragma once
// Spreadsheets of the Document Liberation Project's importers (Numbers, Works, Lotus 1-2-3,
// Quattro Pro, StarCalc, the classic Macintosh spreadsheets and databases) read as XLSX and ODS
// are: each sheet a Markdown table of what its cells show, `pages` picking sheets, `offset` and
// `limit` paging rows (sheets::render_workbook). The importers parse the whole workbook in a
// child process (revenge_document.hpp) on each read. Internal to the readers library.
#include "mcpread/readers/access.hpp"
#include "mcpread/readers/cancel.hpp"
#include "mcpread/readers/outcome.hpp"
#include "sheets/reader.hpp"

#include <memory>
#include <string>
#include <string_view>

namespace mcpread::readers::revenge {

ReadOutcome read_revenge_sheet_file(const OpenedFile& file, const sheets::SheetOptions& options,
                                    const CancelToken& cancel);

// The same from bytes in memory (tests, fuzzing); `name` stands for the path in messages.
ReadOutcome read_revenge_sheet_bytes(std::string_view bytes, std::string_view name, const sheets::SheetOptions& options,
                                     const CancelToken& cancel);

// The plugin's answer (revenge_plugin_api.h's JSON of mcpread_revenge_read_sheet) made a
// workbook, its format's name in *format; nullptr when malformed (rows or columns out of order or
// out of range included: the rendering relies on them).
std::unique_ptr<sheets::Workbook> sheets_from_plugin_json(std::string_view json, std::string* format);

}  // namespace mcpread::readers::revenge
