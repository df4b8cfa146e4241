#pragma once
// PDF pages for the reader: which pages a call reads and what it says about the rest, and each
// page's text cleaned and cut. Internal to the PDF reader.
#include "mcpread/readers/pdf.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace mcpread::readers::pdf_pages {

// "── Page 3 of 12 ──"
std::string marker(int page, int count);
std::string count_pages(std::size_t n);  // "1 page", "12 pages"

// Valid UTF-8, "\n" line ends, no form feeds, no spaces at line ends, at most one blank line in
// a row and none at either end.
std::string clean_page_text(std::string_view raw);
// One line, control characters as spaces, at most 300 bytes.
std::string clean_title(std::string_view raw);
// The longest prefix of `text` within `room` bytes, ending on a line break when one lies in its
// second half, and never inside a UTF-8 sequence.
std::size_t cut_point(std::string_view text, std::size_t room);

// Page selection: the pages to read, and the range a caller would ask for next (default cut).
struct Selection {
  std::vector<int> pages;
  std::string next;   // e.g. "21-40"; empty when the selection was the caller's
  int not_shown = 0;  // first page left out of the default selection
};
// The pages `o` selects in a document of `count` pages, or why the selection is refused.
std::variant<Selection, std::string> select_pages(const PdfOptions& o, int count);
// Where to go on after a default selection: "[Pages 21-300 not shown; call read with ...]".
std::string more_pages_note(const Selection& sel, int count, const PdfOptions& o, bool images);

}  // namespace mcpread::readers::pdf_pages
