#pragma once
// The image pipeline: bytes in, an image a model can take out (passed through when it already
// fits, otherwise decoded by libvips, shrunk and re-encoded within the byte budget), or why not.
// Internal to the image reader.
#include "mcpread/readers/cancel.hpp"
#include "mcpread/readers/image.hpp"

#include <string>
#include <string_view>
#include <variant>

namespace mcpread::readers::image_encode {

// unsupported: an image in a format this libvips build has no loader for; its message says what to do.
enum class Fail { libvips, not_image, unsupported, corrupt, too_many_pixels, cancelled, encode };
struct Failure {
  Fail kind;
  std::string message;
};
using Result = std::variant<EncodedImage, Failure>;

// `owned_source`, when given, holds `bytes`: it becomes the answer when the file is sent
// unchanged, and is emptied as soon as the pixels are in memory otherwise, so that the file's
// bytes are not held while the image is encoded. `subject`
// names the data in messages ("The data", the file's path). `source_fd`, when not -1, is the
// open file the bytes were read from: a large image that must be decoded is read from it
// instead, and its bytes are let go before the decode.
Result encode(std::string_view bytes, std::string_view hint, const ImageLimits& limits,
              const CancelToken& cancel, const std::string& subject, Bytes* owned_source,
              int source_fd = -1);

// Hands what a decode freed back to the system (see image_encode.cpp).
void release_decode_memory(const Result& r);

// "640x480".
std::string dims(unsigned w, unsigned h);
// Up to three decimals, without trailing zeros: 2.016, 3, 0.125.
std::string decimal(double v);
std::string capitalized(std::string s);

}  // namespace mcpread::readers::image_encode
