#pragma once
// The end of one page of a listing that is paged by offset (an archive's members, a help file's
// topics): the page's place in the answer's meta, and the closing line a model reads to go on,
// worded as the text reader closes a window of lines.
#include "mcpread/readers/hint.hpp"
#include "mcpread/readers/outcome.hpp"

#include <cstdint>
#include <string>

namespace mcpread::readers {

// Entries first+1 .. first+shown of `total` were shown: sets meta's shown, truncated,
// start_entry, end_entry and next_offset, and returns the line that closes the page ("[Topics
// 1-50 of 80. To list more, ...]", "[... End of listing.]", or nothing for a whole listing).
// `items` names them capitalised, in the plural ("Entries", "Topics").
std::string close_listing_page(ReadOutcome& out, std::uint64_t first, std::uint64_t shown, std::uint64_t total,
                               const char* items, const Wording& wording);

}  // namespace mcpread::readers
