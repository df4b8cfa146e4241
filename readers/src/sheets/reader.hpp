#pragma once
// XLSX, XLSB, ODS and XLS read for a model: each sheet a Markdown table of the values its cells show;
// `pages` picks sheets by number or name, `offset`/`limit` page a sheet's rows. Sheets are
// streamed, so a sheet of a million rows costs memory for one page only (an XLS is read whole by
// libfreexl: see xls.hpp). Internal to the readers library.
#include "mcpread/readers/access.hpp"
#include "mcpread/readers/cancel.hpp"
#include "mcpread/readers/hint.hpp"
#include "mcpread/readers/outcome.hpp"
#include "package/zip_archive.hpp"
#include "sheets/sheet_table.hpp"
#include "sheets/xls.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace mcpread::readers::sheets {

enum class Format { xlsx, ods, xls, xlsb };

struct SheetOptions {
  std::uint64_t offset = 1;                             // first row, as the sheet numbers it
  std::optional<std::uint64_t> limit;                   // rows with values at most, per sheet
  std::string pages;                                    // sheets: "2", "1-3", "Summary"; all when empty
  std::size_t max_output_bytes = 100 * 1024;            // cap on the text of one answer
  std::size_t max_shared_string_bytes = 32ull << 20;    // XLSX shared strings kept in memory
  package::ZipLimits zip;
  XlsLimits xls;
  Wording wording;  // how the notes say what to read next
};

ReadOutcome read_spreadsheet(const OpenedFile& file, Format format, const SheetOptions& options,
                             const CancelToken& cancel);

// The same from bytes in memory (tests, fuzzing); `name` stands for the path in messages.
ReadOutcome read_spreadsheet_bytes(std::string_view bytes, std::string_view name, Format format,
                                   const SheetOptions& options, const CancelToken& cancel);

// Any workbook rendered as the readers above render theirs: `format_noun` begins the answer
// ("Lotus 1-2-3 spreadsheet <path>: 2 sheets: ..."), `format_article` ends a refusal ("cannot be
// read as a spreadsheet: ...").
ReadOutcome render_workbook(Workbook& book, std::string_view path, std::string_view format_noun,
                            std::string_view format_article, const SheetOptions& options, const CancelToken& cancel,
                            nlohmann::json meta);

}  // namespace mcpread::readers::sheets
