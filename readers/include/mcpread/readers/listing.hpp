#pragma once
// Directory listing: sorted entries, directories marked with a trailing '/', capped.
#include "mcpread/readers/outcome.hpp"

#include <cstddef>
#include <filesystem>

namespace mcpread::readers {

ReadOutcome list_directory(const std::filesystem::path& dir, std::size_t max_entries = 1000);

}  // namespace mcpread::readers
