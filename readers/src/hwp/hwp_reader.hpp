#pragma once
// Hangul word processor documents (HWP 5.0, Hancom's .hwp) read for a model: the body text of
// every section as Markdown-like text, tables as Markdown tables, paged by paragraphs as the
// other word processors' documents are; pictures are not read. Internal to the readers library.
#include "mcpread/readers/access.hpp"
#include "mcpread/readers/cancel.hpp"
#include "mcpread/readers/outcome.hpp"
#include "office/reader.hpp"

#include <cstdint>
#include <string_view>

namespace mcpread::readers::hwp {

inline constexpr std::uint64_t kMaxFileBytes = 128ull << 20;     // mostly pictures, which are never inflated
inline constexpr std::uint64_t kMaxSectionBytes = 32ull << 20;   // one section's records, inflated
inline constexpr std::uint64_t kMaxBodyBytes = 64ull << 20;      // all sections' records, inflated
inline constexpr std::size_t kMaxSections = 4096;

// The FileHeader stream's signature, which says the compound file is an HWP 5 document.
inline constexpr std::string_view kSignature = "HWP Document File";

ReadOutcome read_hwp_file(const OpenedFile& file, const office::OfficeOptions& options, const CancelToken& cancel);

// The same from bytes in memory (tests, fuzzing); `name` stands for the path in messages.
ReadOutcome read_hwp_bytes(std::string_view bytes, std::string_view name, const office::OfficeOptions& options,
                           const CancelToken& cancel);

}  // namespace mcpread::readers::hwp
