#pragma once
// The whole of a file a reader parses at once (RTF, FictionBook, Word 97-2003, PowerPoint
// 97-2003), read up to that reader's limit, or the refusal that says why not. Internal to the
// readers library.
#include "mcpread/readers/access.hpp"
#include "mcpread/readers/outcome.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

namespace mcpread::readers {

// The file's bytes; or an error outcome: "<path> is 80 MiB, over the 64 MiB limit for <what>."
// (then `advice`, e.g. " Call read with file_type=\"text\" to read its source."), the file grew
// past the limit while being read, or it cannot be read (the errno text).
std::variant<std::string, ReadOutcome> read_whole_file(const OpenedFile& file, std::uint64_t limit,
                                                       std::string_view what, std::string_view advice = {});

}  // namespace mcpread::readers
