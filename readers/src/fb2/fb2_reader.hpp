#pragma once
// FictionBook 2 e-books (.fb2) read for a model: the book as Markdown-like text, paged by
// paragraphs as the office documents are, its images after their paragraph. Internal to the
// readers library.
#include "mcpread/readers/access.hpp"
#include "mcpread/readers/cancel.hpp"
#include "mcpread/readers/outcome.hpp"
#include "office/reader.hpp"

#include <cstdint>
#include <string_view>

namespace mcpread::readers::fb2 {

inline constexpr std::uint64_t kMaxFileBytes = 64ull << 20;  // larger books are refused (read them as text)

ReadOutcome read_fb2_file(const OpenedFile& file, const office::OfficeOptions& options, const CancelToken& cancel);

// The same from bytes in memory (tests, fuzzing); `name` stands for the path in messages.
ReadOutcome read_fb2_bytes(std::string_view bytes, std::string_view name, const office::OfficeOptions& options,
                           const CancelToken& cancel);

}  // namespace mcpread::readers::fb2
