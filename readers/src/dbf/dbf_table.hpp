#pragma once
// dBASE tables (.dbf: dBASE III, IV and 5, FoxBASE+, FoxPro, Visual FoxPro; the attribute tables
// of shapefiles) read as a spreadsheet of one sheet: row 1 the field names, record n row n+1,
// paged by rows as CSV and XLSX are (sheets::render_workbook). Records are read from the file
// as a page needs them; deleted records are left out and counted. The text's charset is what a
// .cpg file beside the table names, else the header's code page byte; memo fields are read
// from the .dbt or .fpt file beside it. Internal to the readers library.
//
// Parsed here rather than by shapelib's DBF API: shapelib reads no memo file, hands back text
// without converting it, and reads from a path, where the tests and the fuzzer read bytes.
#include "mcpread/readers/access.hpp"
#include "mcpread/readers/cancel.hpp"
#include "mcpread/readers/outcome.hpp"
#include "sheets/reader.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace mcpread::readers::dbf {

// What lies beside the table: its memo file, the text of its .cpg file.
struct Companions {
  std::optional<OpenedFile> memo;
  std::string cpg;
  bool looked = true;  // false where the files beside it are not looked for (memo text unread)
};

ReadOutcome read_dbf(const OpenedFile& table, Companions companions, const sheets::SheetOptions& options,
                     const CancelToken& cancel);

// The table at `file` with the files beside it.
ReadOutcome read_dbf_file(const OpenedFile& file, const sheets::SheetOptions& options, const CancelToken& cancel);

// From bytes in memory (tests, fuzzing): the memo file's bytes (none when empty) and the .cpg's
// text; `name` stands for the path in messages.
ReadOutcome read_dbf_bytes(std::string_view bytes, std::string_view name, std::string_view memo, std::string_view cpg,
                           const sheets::SheetOptions& options, const CancelToken& cancel);

}  // namespace mcpread::readers::dbf
