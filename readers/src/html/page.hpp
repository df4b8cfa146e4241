#pragma once
// An HTML page read for a model: decoded from its charset (BOM, <meta charset>, detection), made
// readable text by html_text (headings as "#" lines, lists, tables as Markdown tables, links as
// [text](href)), and paged by lines of that text. Internal to the readers library.
#include "mcpread/readers/access.hpp"
#include "mcpread/readers/cancel.hpp"
#include "mcpread/readers/hint.hpp"
#include "mcpread/readers/outcome.hpp"

#include <cstdint>
#include <optional>

namespace mcpread::readers::html_page {

struct Options {
  std::uint64_t offset = 1;                    // first line of the text, 1-based
  std::uint64_t limit = 2000;                  // lines at most
  std::size_t max_output_bytes = 100 * 1024;   // cap on the text of one answer
  std::uint64_t max_file_bytes = 32ull << 20;  // larger pages are refused (read them as text)
  Wording wording;                             // how the notes say what to read next
};

ReadOutcome read(const OpenedFile& file, const Options& options, const CancelToken& cancel);

}  // namespace mcpread::readers::html_page
