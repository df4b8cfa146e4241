#pragma once
// Excel 97-2003 workbooks (.xls: BIFF records in an OLE2 compound file; the older BIFF2-4 files
// too) through libfreexl, in a child process (xls_freexl.hpp). libfreexl reads the whole
// workbook when it opens it, every cell of every sheet in a table sized by what the sheet
// declares; the file is refused before that when its sheets declare more cells than
// `max_cell_table_bytes` (see xls.cpp). What the child read is kept by file identity, so that
// paging through a workbook reads it once. Internal to the readers library.
#include "mcpread/readers/access.hpp"
#include "mcpread/readers/cancel.hpp"
#include "sheets/sheet_table.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace mcpread::readers::sheets {

struct XlsLimits {
  std::uint64_t max_file_bytes = 256ull << 20;        // larger files are refused
  std::uint64_t max_cell_table_bytes = 256ull << 20;  // libfreexl's cell tables, all sheets together
  std::size_t max_cell_text_bytes = 96u << 20;        // the cells read (their text and 12 bytes each); past it, cut
};

// The workbook, or nullptr with a clause saying why in *error ("it is password-protected ...").
std::unique_ptr<Workbook> open_xls(const OpenedFile& file, const XlsLimits& limits, std::string* error,
                                   const CancelToken& cancel);

// The bytes libfreexl's cell tables would take for the sheet sizes the DIMENSIONS records in
// `bytes` declare (as Excel writes them: BIFF8's, BIFF3-5's and BIFF2's sizes).
std::uint64_t declared_cell_bytes(std::string_view bytes);

}  // namespace mcpread::readers::sheets
