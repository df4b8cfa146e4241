#pragma once
// Excel binary workbooks (.xlsb): a zip package like XLSX's whose parts hold BIFF12 records
// (xlsb_records.hpp) where XLSX's hold XML. The workbook, styles and shared strings are read
// when it opens (kept in the readers' cache as XLSX's are); each worksheet part is streamed
// record by record, so a large sheet costs memory for one page only. Internal to the readers
// library.
#include "package/zip_archive.hpp"
#include "sheets/sheet_table.hpp"

#include <memory>
#include <string>
#include <string_view>

namespace mcpread::readers::sheets {

// The workbook, or nullptr with a clause in *error. Shared strings above
// `max_shared_string_bytes` are refused as XLSX's are; `cache_key` as for open_xlsx.
std::unique_ptr<Workbook> open_xlsb(package::ZipArchive& zip, std::size_t max_shared_string_bytes, std::string* error,
                                    std::string_view cache_key = {});

}  // namespace mcpread::readers::sheets
