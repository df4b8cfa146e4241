#pragma once
#include <cstdint>
#include <string>

namespace mcpread::readers {

// "812 bytes", "120.5 KB", "2.1 MB": sizes for sentences a model reads.
std::string human_size(std::uint64_t bytes);

}  // namespace mcpread::readers
