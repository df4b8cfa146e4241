#pragma once
// MOBI, AZW and AZW3 e-books read as EPUB books are: the EXTH title, author and publisher, then
// the book in chapters (a KF8 book's files, cut again at the page breaks a MOBI 6 book marks its
// chapters with), each through the HTML reader's conversion, its images after it; paged by the
// sections engine. Internal to the readers library.
#include "mcpread/readers/registry.hpp"
#include "sections/sections.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace mcpread::readers::mobi {

inline constexpr std::uint64_t kMaxFileBytes = 256ull << 20;  // larger books are refused

// The answer for a book in memory (tests, fuzzing); `name` stands for the path in messages.
ReadOutcome read_mobi_bytes(std::string_view bytes, std::string_view name, const sections::Options& options,
                            const CancelToken& cancel);

ReadOutcome read_call(const ReaderCall& call);
ResourceReadResult read_as_resource(const ResourceCall& call);

}  // namespace mcpread::readers::mobi
