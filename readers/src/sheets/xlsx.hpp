#pragma once
// XLSX workbooks (Office Open XML spreadsheets): the sheets named by xl/workbook.xml, each
// worksheet part streamed row by row, values shown as their cells show them. Internal to the
// readers library.
#include "office/zip_archive.hpp"
#include "sheets/sheet_table.hpp"

#include <memory>
#include <string>

namespace mcpread::readers::sheets {

// The shared-strings table is needed whole (any cell may name any string); it is held in one
// buffer, and a table above `max_shared_string_bytes` is refused with a sentence saying so.
std::unique_ptr<Workbook> open_xlsx(office::ZipArchive& zip, std::size_t max_shared_string_bytes, std::string* error);

}  // namespace mcpread::readers::sheets
