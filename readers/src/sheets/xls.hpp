#pragma once
// Excel 97-2003 workbooks (.xls: BIFF records in an OLE2 compound file; the older BIFF2-4 files
// too) through libfreexl, opened with dlopen on the first .xls read. libfreexl reads the whole
// workbook when it opens it, every cell of every sheet in a table sized by what the sheet
// declares; the file is refused before that when its sheets declare more cells than
// `max_cell_table_bytes` (see xls.cpp). Internal to the readers library.
#include "mcpread/readers/access.hpp"
#include "sheets/sheet_table.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace mcpread::readers::sheets {

struct XlsLimits {
  std::uint64_t max_file_bytes = 256ull << 20;        // larger files are refused
  std::uint64_t max_cell_table_bytes = 256ull << 20;  // libfreexl's cell tables, all sheets together
};

// The workbook, or nullptr with a clause saying why in *error ("it is password-protected ...").
std::unique_ptr<Workbook> open_xls(const OpenedFile& file, const XlsLimits& limits, std::string* error);

// The bytes libfreexl's cell tables would take for the sheet sizes the DIMENSIONS records in
// `bytes` declare (as Excel writes them: BIFF8's, BIFF3-5's and BIFF2's sizes).
std::uint64_t declared_cell_bytes(std::string_view bytes);

}  // namespace mcpread::readers::sheets
