// The image reader: sent as an image, sized for models, converted when models do not take the
// format. The extensions below promise an image; the content decides (classify.cpp).
#include "mcpread/readers/image.hpp"
#include "mcpread/readers/registry.hpp"
#include "resource_contents.hpp"

#include <type_traits>

namespace mcpread::readers {
namespace {

ReadOutcome read_as_image(const ReaderCall& call) {
  return read_image(call.file, call.classification, call.limits.image, call.cancel);
}

ResourceReadResult image_resource(const ResourceCall& call) {
  return resource_from_outcome(read_image(call.file, call.classification, call.limits.image, call.cancel),
                               false);
}

std::string describe_image(const ReadLimits&) {
  return "- Images: sent as images, downscaled or converted when too large or in a format models do "
         "not take; a note gives the original size and the coordinate scale.";
}

template <auto Member>
std::uint64_t get_image(const ReadLimits& l) {
  return static_cast<std::uint64_t>(l.image.*Member);
}
template <auto Member>
void set_image(ReadLimits& l, std::uint64_t v) {
  l.image.*Member = static_cast<std::remove_reference_t<decltype(l.image.*Member)>>(v);
}

}  // namespace

void register_image_reader(ReaderRegistry& registry) {
  registry.add(Reader{
      .kind = FileKind::image,
      .article = "an image",
      .noun = "images",
      .describe = describe_image,
      .extensions = {{"png", "image/png"},       {"jpg", "image/jpeg"},   {"jpeg", "image/jpeg"},
                     {"jpe", "image/jpeg"},      {"jfif", "image/jpeg"},  {"gif", "image/gif"},
                     {"webp", "image/webp"},     {"bmp", "image/bmp"},    {"dib", "image/bmp"},
                     {"tif", "image/tiff"},      {"tiff", "image/tiff"},  {"ico", "image/x-icon"},
                     {"heic", "image/heic"},     {"heif", "image/heif"},  {"avif", "image/avif"},
                     {"jxl", "image/jxl"},       {"svg", "image/svg+xml"}},
      .options = {{"--image-max-edge", "longest side of an image sent, in pixels", 16, 8000,
                   get_image<&ImageLimits::max_edge>, set_image<&ImageLimits::max_edge>},
                  {"--image-max-bytes", "largest image sent, measured on its base64 text", 1024,
                   UINT64_MAX, get_image<&ImageLimits::max_base64_bytes>,
                   set_image<&ImageLimits::max_base64_bytes>},
                  {"--image-max-input-bytes", "larger image files are refused", 1, UINT64_MAX,
                   get_image<&ImageLimits::max_input_bytes>, set_image<&ImageLimits::max_input_bytes>},
                  {"--image-max-pixels", "larger images (width x height) are refused before decoding", 1,
                   UINT64_MAX, get_image<&ImageLimits::max_pixels>, set_image<&ImageLimits::max_pixels>}},
      .read = read_as_image,
      .resource = image_resource,
  });
}

}  // namespace mcpread::readers
