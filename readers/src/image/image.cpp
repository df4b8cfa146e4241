// The image reader's answers: an image file read, sent as an image with a line saying what was
// sent, or refused with what to do; the pipeline itself is in image_encode.cpp.
#include "mcpread/readers/base64.hpp"
#include "mcpread/readers/image.hpp"
#include "mcpread/readers/utf8.hpp"

#include "file_io.hpp"
#include "human_size.hpp"
#include "image/image_encode.hpp"

#include <cerrno>
#include <cstring>
#include <optional>

namespace mcpread::readers {
namespace {

using namespace image_encode;

std::string format_name(const std::string& mime) {
  return mime == "image/png"    ? "PNG"
         : mime == "image/jpeg" ? "JPEG"
         : mime == "image/gif"  ? "GIF"
                                : "WEBP";
}

}  // namespace

std::variant<EncodedImage, std::string> encode_for_model(std::string_view bytes,
                                                         std::string_view mime_hint,
                                                         const ImageLimits& limits,
                                                         const CancelToken& cancel) {
  Result r = encode(bytes, mime_hint, limits, cancel, "The data", nullptr);
  release_decode_memory(r);
  if (auto* f = std::get_if<Failure>(&r)) return utf8::sanitized(f->message);
  return std::move(std::get<EncodedImage>(r));
}

ReadOutcome read_image(const OpenedFile& file, const Classification& classification,
                       const ImageLimits& limits, const CancelToken& cancel, const Wording& wording) {
  const std::string path = utf8::sanitized(file.path.string());
  const auto size = static_cast<std::uint64_t>(file.st.st_size);
  const auto with_meta = [&](ReadOutcome o) {
    o.meta["path"] = path;
    o.meta["mime"] = classification.mime;
    o.meta["size"] = size;
    return o;
  };
  if (size > limits.max_input_bytes)
    return with_meta(
        ReadOutcome::error(path + " is " + human_size(size) + " (" + std::to_string(size) +
                           " bytes), more than the " + human_size(limits.max_input_bytes) +
                           " limit for image files, so it was not read. Start "
                           "mcp-read with a larger --image-max-input-bytes to read it."));
  if (size == 0) return with_meta(ReadOutcome::error(path + " is empty (0 bytes), not an image."));
  if (cancel.cancelled()) return ReadOutcome::stopped();
  // Through the descriptor, never by path (the path may name another file by now).
  std::optional<Bytes> read = file_io::read_whole_bytes(file.fd.get(), size, limits.max_input_bytes);
  if (!read)
    return with_meta(ReadOutcome::error(
        errno == EFBIG ? path + " grew past the " + human_size(limits.max_input_bytes) +
                             " limit for image files while being read, so it was not read."
                       : "Cannot read " + path + ": " + utf8::sanitized(std::strerror(errno)) + "."));
  Bytes bytes = std::move(*read);
  read.reset();

  Result r = encode(view_of(bytes), classification.mime, limits, cancel, path, &bytes, file.fd.get());
  Bytes().swap(bytes);  // released before the reply is built (`clear()` keeps the buffer)
  release_decode_memory(r);
  if (auto* f = std::get_if<Failure>(&r)) {
    std::string m = std::move(f->message);
    const std::string what = classification.description.empty()
                                 ? classification.mime
                                 : classification.description + " (" + classification.mime + ")";
    switch (f->kind) {
      case Fail::cancelled:
        return ReadOutcome::stopped();
      case Fail::libvips:
        m = "Cannot read the image " + path + ": " + m +
            " Install it (for example: apt install libvips42) and restart mcp-read.";
        break;
      case Fail::not_image:
        // The hint fits what the file is: text is read as text; an image in a format this
        // libvips does not read is converted; other data has no reading as an image.
        m += " Its content looks like " + what + ".";
        if (classification.kind == FileKind::text)
          m += " " + wording.say({.as = FileKind::text}, HintForm::Call) + " to read it as text.";
        else if (classification.kind == FileKind::image)
          m += " Convert it to PNG or JPEG (with an image editor, or ImageMagick's convert) and read that file.";
        break;
      case Fail::corrupt:
        m += " Re-create or re-download the file, or open it in an image editor.";
        break;
      case Fail::too_many_pixels:
        m += " If the file is trusted, start mcp-read with a larger --image-max-pixels.";
        break;
      case Fail::unsupported:  // says what to do itself
      case Fail::encode:
        break;
    }
    return with_meta(ReadOutcome::error(utf8::sanitized(m)));
  }
  EncodedImage& img = std::get<EncodedImage>(r);
  std::string text = "Image " + path + ": " + img.original_format + ", " +
                     dims(img.original_width, img.original_height) + " px, " + human_size(size) +
                     ".";
  if (img.passed_through) {
    text += " Sent unchanged.";
  } else {
    text += " Sent as " + format_name(img.mime) + ", " + dims(img.width, img.height) + " px (" +
            human_size(img.data.size()) + ")";
    if (img.width != img.original_width || img.height != img.original_height)
      text += "; multiply coordinates in the sent image by " + decimal(img.scale) +
              " to get original pixels";
    text += ".";
  }
  if (!img.note.empty()) text += " " + capitalized(img.note) + ".";

  ReadOutcome o = with_meta(ReadOutcome{});
  o.meta["original_format"] = img.original_format;
  o.meta["original_width"] = img.original_width;
  o.meta["original_height"] = img.original_height;
  o.meta["sent_mime"] = img.mime;
  o.meta["width"] = img.width;
  o.meta["height"] = img.height;
  o.meta["sent_bytes"] = base64_size(img.data.size());
  o.meta["scale"] = img.scale;
  o.meta["passed_through"] = img.passed_through;
  if (!img.note.empty()) o.meta["note"] = img.note;
  o.blocks.emplace_back(TextBlock{std::move(text)});
  o.blocks.emplace_back(ImageBlock{std::move(img.mime), std::move(img.data)});
  return o;
}

}  // namespace mcpread::readers
