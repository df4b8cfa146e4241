#pragma once
// Bytes taken out of a file that holds others (an archive's member, a message's attachment) as a
// file in memory, opened like a file from the roots and read like any file: nothing is ever
// written to disk. Internal to the readers library.
#include "mcpread/readers/access.hpp"

#include <optional>
#include <string>

namespace mcpread::readers {

// A memory file holding `bytes`, named `path` (how answers show it; its extension helps classify
// it); nullopt with *error (a clause) when the system makes none.
std::optional<OpenedFile> memory_file(const std::string& bytes, const std::string& path, std::string* error);

}  // namespace mcpread::readers
