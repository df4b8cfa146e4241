#pragma once
// What the readers keep between calls to make the next one cheaper (the inflated parts of the
// zip packages read last, the PDFs opened last, the listings of archives and their members read
// last: a model pages through a workbook, a long PDF or an archive's member in several calls). Bounded; a server
// drops it all when it has been idle a while, so that its memory returns near its starting size.
#include <cstddef>

namespace mcpread::readers {

// Drops every cache; returns the bytes they held.
std::size_t release_caches();

}  // namespace mcpread::readers
