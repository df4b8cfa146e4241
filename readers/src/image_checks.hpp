#pragma once
// Checks of an image file's structure made before its bytes are passed through to a model
// unchanged: a file an API refuses breaks the conversation it is sent in. Internal to the
// readers library.
#include <string>
#include <string_view>

namespace mcpread::readers::image_checks {

// True when the file ends the way a complete file of its format ("PNG", "JPEG", "GIF", "WEBP")
// does, so that a truncated file is never passed through.
bool looks_complete(std::string_view format, std::string_view bytes);

// What is wrong with a PNG's chunks: one that fails its CRC check, or runs past the end; empty
// when nothing is. Decoders disagree on a chunk that fails its CRC (some warn and go on, strict
// ones refuse the file), so such a file is decoded and re-encoded rather than passed through.
std::string png_chunk_problem(std::string_view bytes);

}  // namespace mcpread::readers::image_checks
