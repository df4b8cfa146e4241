#pragma once
// Word-processor documents of the Document Liberation Project's importers read for a model:
// Markdown-like text paged by paragraphs, images after their paragraph, as DOCX documents are
// read. Internal to the readers library.
#include "mcpread/readers/access.hpp"
#include "mcpread/readers/cancel.hpp"
#include "mcpread/readers/outcome.hpp"
#include "office/reader.hpp"

#include <cstdint>
#include <string_view>

namespace mcpread::readers::revenge {

inline constexpr std::uint64_t kMaxFileBytes = 128ull << 20;  // larger files are refused

ReadOutcome read_revenge_file(const OpenedFile& file, const office::OfficeOptions& options, const CancelToken& cancel);

// The same from bytes in memory (tests, fuzzing); `name` stands for the path in messages.
ReadOutcome read_revenge_bytes(std::string_view bytes, std::string_view name, const office::OfficeOptions& options,
                               const CancelToken& cancel);

}  // namespace mcpread::readers::revenge
