#pragma once
// Audio files as MCP `audio` blocks (the protocol version permitting: the server checks).
#include "mcpread/readers/access.hpp"
#include "mcpread/readers/cancel.hpp"
#include "mcpread/readers/classify.hpp"
#include "mcpread/readers/outcome.hpp"

#include <cstdint>

namespace mcpread::readers {

// A text block naming the file, its format and size, then the audio block with the file's bytes.
// meta: path, mime, size, sent_bytes.
ReadOutcome read_audio(const OpenedFile& file, const Classification& classification,
                       std::uint64_t max_bytes, const CancelToken& cancel);

}  // namespace mcpread::readers
