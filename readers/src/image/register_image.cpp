// The image reader: sent as an image, sized for models, converted when models do not take the
// format. The extensions below promise an image; the content decides (classify.cpp).
#include "mcpread/readers/image.hpp"
#include "mcpread/readers/registry.hpp"
#include "image/image_signatures.hpp"
#include "ocr/image_ocr.hpp"
#include "resource_contents.hpp"

namespace mcpread::readers {
namespace {

ReadOutcome read_as_image(const ReaderCall& call) {
  if (call.kind == FileKind::text) {
    // An SVG is XML text: asked for as text it gives its source, as any text file does. OCR is
    // for raster images, whose text exists only as pixels.
    if (call.classification.mime == "image/svg+xml") return reader_registry().find(FileKind::text)->read(call);
    return read_image_text(call.file, call.classification, call.limits, call.request.ocr_lang, call.cancel);
  }
  return read_image(call.file, call.classification, call.limits.image, call.cancel, call.request.wording);
}

ResourceReadResult image_resource(const ResourceCall& call) {
  return resource_from_outcome(
      read_image(call.file, call.classification, call.limits.image, call.cancel, call.wording), false);
}

std::string describe_image(const ReadLimits&) {
  return "sent as an image, resized or converted to fit; a note gives the original size and coordinate "
         "scale.";
}

}  // namespace

bool register_image_reader(ReaderRegistry& registry) {
  return registry.add(Reader{
      .kind = FileKind::image,
      .article = "an image",
      .noun = "images",
      .describe = describe_image,
      .extensions = {{"png", "image/png"},       {"jpg", "image/jpeg"},   {"jpeg", "image/jpeg"},
                     {"jpe", "image/jpeg"},      {"jfif", "image/jpeg"},  {"gif", "image/gif"},
                     {"webp", "image/webp"},     {"bmp", "image/bmp"},    {"dib", "image/bmp"},
                     {"tif", "image/tiff"},      {"tiff", "image/tiff"},  {"ico", "image/x-icon"},
                     {"heic", "image/heic"},     {"heif", "image/heif"},  {"avif", "image/avif"},
                     {"jxl", "image/jxl"},       {"svg", "image/svg+xml"},  {"jb2", "image/x-jbig2"},
                     {"jbig2", "image/x-jbig2"}},
      .sniff = image_signatures::sniff,
      .also_serves = {FileKind::text},  // OCR
      .options = {limit_option<&ReadLimits::image, &ImageLimits::max_edge>(
                      "--image-max-edge", "longest side of an image sent, in pixels", 16, 8000),
                  limit_option<&ReadLimits::image, &ImageLimits::max_base64_bytes>(
                      "--image-max-bytes", "largest image sent, measured on its base64 text", 1024, UINT64_MAX),
                  limit_option<&ReadLimits::image, &ImageLimits::max_input_bytes>(
                      "--image-max-input-bytes", "larger image files are refused", 1, UINT64_MAX),
                  limit_option<&ReadLimits::image, &ImageLimits::max_pixels>(
                      "--image-max-pixels", "larger images (width x height) are refused before decoding", 1,
                      UINT64_MAX)},
      .read = read_as_image,
      .resource = image_resource,
  });
}

}  // namespace mcpread::readers
