#pragma once
// The text path: cat -n numbered lines of a window of the file, read without loading the file.
#include "mcpread/readers/access.hpp"
#include "mcpread/readers/cancel.hpp"
#include "mcpread/readers/hint.hpp"
#include "mcpread/readers/outcome.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

namespace mcpread::readers {

struct TextOptions {
  std::uint64_t offset = 1;                       // first line to show, 1-based
  std::uint64_t limit = 2000;                     // lines to show at most
  std::size_t max_line_chars = 2000;              // longer lines are cut at a character boundary
  std::size_t max_output_bytes = 100 * 1024;      // the numbered text is truncated past this
  std::uint64_t count_lines_max_bytes = 64ull << 20;  // total line count only for files up to this size
  std::string encoding;                           // empty: detect
  // Each shown line from this character on (1-based, Unicode code points), for reading the rest
  // of a line cut at max_line_chars.
  std::uint64_t column = 1;
  // The file is JSON shown pretty-printed (2-space indent); offset and limit count those lines.
  bool json = false;
  // Reads never wait for the disk: a page not in the page cache gives a deferred outcome.
  bool nowait = false;
  // How the notes say what to read next: the read's (ReadRequest::wording), set per read.
  Wording wording;
};

// Reads `file` (already opened and inside the roots) as text. The one block is the numbered
// text and a footer saying what was shown and how to continue; `meta` carries path, size, mtime,
// charset, bom, total_lines (when counted), start_line, end_line, next_offset (absent at the
// end), truncated, long_lines_cut and column (when past 1). The caller adds the mime type.
ReadOutcome read_text(const OpenedFile& file, const TextOptions& options, const CancelToken& cancel);

}  // namespace mcpread::readers
