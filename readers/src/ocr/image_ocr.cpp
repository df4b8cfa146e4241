#include "image_ocr.hpp"

#include "file_io.hpp"
#include "human_size.hpp"
#include "mcpread/readers/base64.hpp"
#include "mcpread/readers/image.hpp"
#include "mcpread/readers/ocr.hpp"
#include "tess_api.hpp"

#include <cerrno>
#include <cstring>

namespace mcpread::readers {
namespace {

// Formats Leptonica does not read (SVG, HEIC, AVIF, ICO, ...) go through libvips first, as a
// PNG no larger than this on its long edge.
constexpr unsigned converted_edge = 4000;

bool leptonica_reads(std::string_view bytes) {
  const ocr::Api* a = ocr::api(nullptr);
  if (a == nullptr) return true;  // ocr_image says why it cannot run
  l_int32 format = 0, w = 0, h = 0, bps = 0, spp = 0, cmap = 0;
  return bytes.empty() ||
         a->pix_read_header_mem(reinterpret_cast<const l_uint8*>(bytes.data()), bytes.size(), &format, &w, &h, &bps,
                                &spp, &cmap) == 0;
}

}  // namespace

ReadOutcome read_image_text(const OpenedFile& file, const Classification& classification,
                            const ReadLimits& limits, const std::string& ocr_lang, const CancelToken& cancel) {
  const std::string path = file.path.string();
  const auto size = static_cast<std::uint64_t>(file.st.st_size);
  if (size > limits.image.max_input_bytes)
    return ReadOutcome::error(path + " is an image of " + human_size(size) + ", over the limit of " +
                              human_size(limits.image.max_input_bytes) + " for images.");
  auto bytes = file_io::read_whole(file.fd.get(), size, limits.image.max_input_bytes);
  if (!bytes) return ReadOutcome::error("Cannot read " + path + ": " + std::strerror(errno) + ".");
  if (cancel.cancelled()) return ReadOutcome::stopped();

  const OcrLanguages langs = choose_ocr_languages(ocr_lang, limits.ocr_langs);
  OcrKey key{file_io::identity_key(file), 0, langs.spec(), 0};
  std::string converted;
  std::string_view input = *bytes;
  if (!ocr_cached(key) && !leptonica_reads(input)) {
    ImageLimits l = limits.image;
    l.max_edge = converted_edge;
    l.max_base64_bytes = SIZE_MAX / 2;
    auto encoded = encode_for_model(input, classification.mime, l, cancel);
    if (cancel.cancelled()) return ReadOutcome::stopped();
    if (auto* why = std::get_if<std::string>(&encoded))  // "The data is ...": name the file
      return ReadOutcome::error(why->starts_with("The data ") ? path + why->substr(8) : *why);
    converted = std::string(view_of(std::get<EncodedImage>(encoded).data));
    input = converted;
  }
  auto result = ocr_image({input, 0, limits.ocr_max_pixels, path}, langs, cancel, &key);
  if (cancel.cancelled()) return ReadOutcome::stopped();
  if (auto* why = std::get_if<std::string>(&result)) return ReadOutcome::error(*why);
  const OcrPage& page = std::get<OcrPage>(result);

  ReadOutcome out;
  out.meta = {{"path", path},
              {"mime", classification.mime},
              {"size", size},
              {"ocr", {{"languages", langs.used}, {"confidence", page.confidence}, {"blank", page.blank}, {"photograph", page.photograph},
                       {"rotated", page.rotated}, {"cached", page.cached}}}};
  std::string text;
  if (page.blank) text = path + " has no text: the image is one flat colour. " + ocr_label(page, langs);
  else if (page.textured) text = path + " has no text: it is texture all over (noise or a photograph). " + ocr_label(page, langs);
  else if (page.photograph) text = path + " looks like a photograph or shading, not a picture of text, so it was not OCR'd; read it with file_type=\"image\" to see it. " + ocr_label(page, langs);
  else if (page.text.empty()) text = path + " has no legible text. " + ocr_label(page, langs);
  else text = "Text of " + path + " read with OCR " + ocr_label(page, langs) + ":\n\n" + page.text;
  if (!page.note.empty()) text += "\n\n[" + page.note + "]";
  if (!langs.note.empty()) text += "\n\n[" + langs.note + "]";
  out.blocks.emplace_back(TextBlock{std::move(text)});
  return out;
}

}  // namespace mcpread::readers
