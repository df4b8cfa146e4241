#pragma once
// Images for models: sent unchanged when the format and size are ones models accept, otherwise
// downscaled and/or converted with libvips (loaded on first use, so start-up stays fast).
#include "mcpread/readers/access.hpp"
#include "mcpread/readers/cancel.hpp"
#include "mcpread/readers/classify.hpp"
#include "mcpread/readers/hint.hpp"
#include "mcpread/readers/outcome.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

namespace mcpread::readers {

struct ImageLimits {
  unsigned max_edge = 2000;                       // longest side sent, in pixels
  std::size_t max_base64_bytes = 5u << 20;        // 5,242,880: the API's limit, on the base64 text
  std::uint64_t max_input_bytes = 20ull << 20;    // larger files are refused before decoding
  std::uint64_t max_pixels = 100'000'000;         // decoded area guard against decompression bombs
  // At most this many 28×28-pixel tiles (ceil(w/28)·ceil(h/28)) per image sent; 0: no limit.
  // Some hosts re-encode or shrink images above such a count before the model sees them.
  std::size_t max_tiles = 0;
};

// ceil(w/28)·ceil(h/28): the tile count some hosts measure images by.
inline std::size_t tiles_of(unsigned width, unsigned height) {
  return static_cast<std::size_t>((width + 27) / 28) * ((height + 27) / 28);
}

// An image ready to send, and what was done to it.
struct EncodedImage {
  std::string mime;             // image/png, image/jpeg, image/gif or image/webp
  Bytes data;                   // the encoded image (its base64 is what counts against the limits)
  unsigned width = 0;           // of what is sent
  unsigned height = 0;
  unsigned original_width = 0;  // as stored (after EXIF orientation)
  unsigned original_height = 0;
  std::string original_format;  // "PNG", "JPEG", "HEIC", "SVG", ...
  bool passed_through = false;  // the original bytes, unchanged
  double scale = 1.0;           // original pixels per sent pixel (>= 1)
  std::string note;             // what was done, e.g. "first frame of 12", "EXIF orientation applied"
};

// Fits an in-memory image (any format libvips reads) within the limits. The error is a complete
// sentence naming what is wrong (not an image, corrupt, too many pixels, libvips missing...).
std::variant<EncodedImage, std::string> encode_for_model(std::string_view bytes,
                                                         std::string_view mime_hint,
                                                         const ImageLimits& limits,
                                                         const CancelToken& cancel);

// The image path of `read`: a text block describing the image and what was sent, then the
// image block. meta: path, mime, size, original_format, original_width, original_height,
// sent_mime, width, height, sent_bytes (base64 length), scale, passed_through. A refusal's hint
// (text read as text) is said by `wording`.
ReadOutcome read_image(const OpenedFile& file, const Classification& classification,
                       const ImageLimits& limits, const CancelToken& cancel, const Wording& wording = {});

}  // namespace mcpread::readers
