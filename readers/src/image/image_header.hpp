#pragma once
// The header of a PNG or JPEG read without libvips, for the files that are passed through
// unchanged: libvips maps about 25 MB of shared libraries into the process on first use, and a
// session that only reads screenshots need not pay for it. Internal to the readers library.
#include "mcpread/readers/image.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace mcpread::readers::image_header {

struct Plain {
  std::string format;  // "PNG" or "JPEG"
  unsigned width = 0;
  unsigned height = 0;
};

// The format and size of a PNG or JPEG whose header says it may be sent as it is: 8-bit samples,
// grey or RGB (PNG also palette and alpha), no EXIF orientation to apply (a JPEG's is 1 or
// absent; a PNG has no EXIF at all), a JPEG in one of the common codings (baseline, extended,
// progressive) with well-formed tables before its first scan. nullopt for anything else,
// including every file this parser is unsure of: libvips then reads the header as before. The
// caller still checks completeness and the chunks' CRCs (image_checks).
std::optional<Plain> plain_header(std::string_view bytes);

// The file as it is, when plain_header knows it and it meets every condition the image reader
// sends a file unchanged on (within the edge, tile and byte limits; complete; every PNG chunk
// intact): no pixel is decoded and libvips is not loaded. nullopt otherwise. `owned`, when given,
// holds `bytes` and is moved into the answer (the file's bytes are what is sent: no copy).
std::optional<EncodedImage> pass_through(std::string_view bytes, const ImageLimits& limits, Bytes* owned);

}  // namespace mcpread::readers::image_header
