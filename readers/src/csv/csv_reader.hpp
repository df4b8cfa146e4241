#pragma once
// The CSV reader: a delimited text file (CSV, TSV, semicolon- or bar-separated) as one Markdown
// table under its header row, paged by rows. Internal to the readers library.
#include "mcpread/readers/access.hpp"
#include "mcpread/readers/cancel.hpp"
#include "mcpread/readers/hint.hpp"
#include "mcpread/readers/outcome.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace mcpread::readers::csv {

struct CsvOptions {
  std::uint64_t offset = 0;             // the first row shown (1-based, the header is row 1); 0: the first after it
  std::uint64_t limit = 2000;           // rows shown at most
  std::size_t max_output_bytes = 100 * 1024;
  std::uint64_t count_max_bytes = 64ull << 20;  // files up to this size have their rows counted
  std::string encoding;                 // empty: detect
  std::string extension;                // lower case, no dot ("tsv" hints at tabs)
  Wording wording;
};

// Reads `file` (opened and inside the roots). The one block is a line naming the delimiter, the
// header and the row count, the table, and a footer saying what was shown and how to go on;
// `meta` carries charset, delimiter, header, columns, rows (once counted), start_row, end_row,
// next_offset (absent at the end) and truncated.
ReadOutcome read_csv(const OpenedFile& file, const CsvOptions& options, const CancelToken& cancel);

}  // namespace mcpread::readers::csv
