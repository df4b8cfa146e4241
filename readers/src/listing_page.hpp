#pragma once
// The end of one page of a listing that is paged by offset (an archive's members, a help file's
// topics): the page's place in the answer's meta, and the closing line a model reads to go on,
// worded as the text reader closes a window of lines.
#include "mcpread/readers/hint.hpp"
#include "mcpread/readers/outcome.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace mcpread::readers {

// Entries first+1 .. first+shown of `total` were shown: sets meta's shown, truncated,
// start_entry, end_entry and next_offset, and returns the line that closes the page ("[Topics
// 1-50 of 80. To list more, ...]", "[... End of listing.]", or nothing for a whole listing).
// `items` names them capitalised, in the plural ("Entries", "Topics").
std::string close_listing_page(ReadOutcome& out, std::uint64_t first, std::uint64_t shown, std::uint64_t total,
                               const char* items, const Wording& wording);

// Where one page of a non-empty listing lies, and how it is named.
struct ListingWindow {
  std::uint64_t offset = 1;  // as asked (1-based)
  std::uint64_t first = 0;   // entries before the page
  std::uint64_t page = 0;    // entries the page may show (0: the offset is past the end)
  std::uint64_t total = 0;
  const char* items = "Entries";  // close_listing_page()'s `items`
  std::string past_end;      // "the end of the topics of x.chm: it has 3 topics", for the refusal
};

// The page whole, as `out`'s one text block: `head`, then line_at(i) for each entry i from
// `first` on, each on its own line, as many as fit in `max_bytes` (at least one), then
// close_listing_page()'s line and `tail`. An offset past the end is refused ("Offset 9 is past
// the end of ...: it has .... Use an offset from 1 to N."), with out's meta.
ReadOutcome fill_listing_page(ReadOutcome out, std::string head, const ListingWindow& window,
                              const std::function<std::string(std::uint64_t)>& line_at, std::size_t max_bytes,
                              const std::string& tail, const Wording& wording);

}  // namespace mcpread::readers
