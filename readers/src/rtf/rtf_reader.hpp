#pragma once
// RTF documents read for a model: the text as Markdown-like paragraphs, headings, lists and
// tables, paged by paragraphs as the office documents are, its PNG and JPEG pictures after their
// paragraph. Internal to the readers library.
#include "mcpread/readers/access.hpp"
#include "mcpread/readers/cancel.hpp"
#include "mcpread/readers/outcome.hpp"
#include "office/reader.hpp"

#include <cstdint>
#include <string_view>

namespace mcpread::readers::rtf {

inline constexpr std::uint64_t kMaxFileBytes = 64ull << 20;  // larger files are refused (read them as text)

ReadOutcome read_rtf_file(const OpenedFile& file, const office::OfficeOptions& options, const CancelToken& cancel);

// The same from bytes in memory (tests, fuzzing); `name` stands for the path in messages.
ReadOutcome read_rtf_bytes(std::string_view bytes, std::string_view name, const office::OfficeOptions& options,
                           const CancelToken& cancel);

}  // namespace mcpread::readers::rtf
