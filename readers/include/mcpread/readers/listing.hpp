#pragma once
// Directory listing: sorted entries, directories marked with a trailing '/', a page at a time.
#include "mcpread/readers/hint.hpp"
#include "mcpread/readers/outcome.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>

namespace mcpread::readers {

// Shows up to `max_entries` entries from the `offset`-th (1-based) in byte order of the names,
// fewer when their lines would pass `max_output_bytes` (one at least); the closing note gives the
// offset to continue from. meta: path, entries, directories, files, shown, truncated (more
// follow), entries_at_least, start_entry, end_entry, next_offset.
// `wording` says how to list more.
ReadOutcome list_directory(const std::filesystem::path& dir, std::size_t max_entries = 1000,
                           std::uint64_t offset = 1, std::size_t max_output_bytes = SIZE_MAX,
                           const Wording& wording = {});

}  // namespace mcpread::readers
