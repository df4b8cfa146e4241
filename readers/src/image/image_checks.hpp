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
// ones refuse the file), so such a file is never passed through: an ancillary chunk's failure
// (tEXt, iCCP...) is decoded and re-encoded; a critical chunk's (IHDR, PLTE, IDAT, IEND) means
// damaged pixels or structure, and libpng may notice it or not depending on when its CRC is
// read on libvips' threads, so the file is refused without a decode: the same answer each time.
struct PngChunkProblem {
  std::string text;       // "its IDAT chunk at byte 33 fails its CRC check"; empty: none
  bool critical = false;  // a critical chunk fails its CRC check
};
PngChunkProblem png_chunk_problem(std::string_view bytes);

}  // namespace mcpread::readers::image_checks
