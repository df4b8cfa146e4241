#pragma once
// XLSX workbooks (Office Open XML spreadsheets): the sheets named by xl/workbook.xml, each
// worksheet part streamed row by row, values shown as their cells show them. Internal to the
// readers library.
#include "package/zip_archive.hpp"
#include "sheets/sheet_table.hpp"

#include <memory>
#include <string>
#include <string_view>

namespace mcpread::readers::sheets {

// The shared-strings table is needed whole (any cell may name any string); it is held in one
// buffer, and a table above `max_shared_string_bytes` is refused with a sentence saying so.
// `cache_key` (PartCache::key_of the file; empty for bytes in memory): what opening parsed is
// kept in the readers' cache and taken from it on the next call.
std::unique_ptr<Workbook> open_xlsx(package::ZipArchive& zip, std::size_t max_shared_string_bytes, std::string* error,
                                    std::string_view cache_key = {});
// The name it is kept under in the cache (the cap decides whether opening succeeds).
std::string xlsx_cache_name(std::size_t max_shared_string_bytes);

}  // namespace mcpread::readers::sheets
