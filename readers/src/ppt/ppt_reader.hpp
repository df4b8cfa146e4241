#pragma once
// PowerPoint 97-2003 presentations (.ppt, .pps, .pot) read for a model: slide by slide in show
// order, as the PPTX reader answers (the sections engine), from the OLE2 file's "PowerPoint
// Document" stream. Internal to the readers library.
#include "mcpread/readers/access.hpp"
#include "mcpread/readers/cancel.hpp"
#include "mcpread/readers/outcome.hpp"
#include "sections/sections.hpp"

#include <cstdint>
#include <string_view>

namespace mcpread::readers::ppt {

inline constexpr std::uint64_t kMaxFileBytes = 256ull << 20;  // larger files are refused

ReadOutcome read_ppt_file(const OpenedFile& file, const sections::Options& options, const CancelToken& cancel);

// The same from bytes in memory (tests, fuzzing); `name` stands for the path in messages.
ReadOutcome read_ppt_bytes(std::string_view bytes, std::string_view name, const sections::Options& options,
                           const CancelToken& cancel);

}  // namespace mcpread::readers::ppt
