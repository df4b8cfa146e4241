#include "image_text.hpp"

#include "mcpread/readers/ocr.hpp"

#include <functional>
#include <string>

namespace mcpread::server {

void add_image_text(readers::ReadOutcome& outcome, const readers::ReadRequest& request,
                    const readers::ReadLimits& limits, const readers::CancelToken& cancel) {
  std::optional<readers::OcrLanguages> langs;  // chosen on the first image
  std::size_t done = 0;
  for (std::size_t i = 0; i < outcome.blocks.size() && done < image_text_max_images; ++i) {
    const auto* image = std::get_if<readers::ImageBlock>(&outcome.blocks[i]);
    if (image == nullptr) continue;
    ++done;
    if (!langs) langs = readers::choose_ocr_languages(request.ocr_lang, limits.ocr_langs);
    if (langs->used.empty()) return;
    const std::string_view bytes = readers::view_of(image->data);
    // The image sent is what is read: cached by its content, as it has no file of its own.
    readers::OcrKey key;
    key.file = "bytes " + std::to_string(std::hash<std::string_view>{}(bytes)) + ":" + std::to_string(bytes.size());
    key.page = -1;
    key.langs = langs->spec();
    const auto result =
        readers::ocr_image({bytes, 0, limits.ocr_max_pixels, "The image"}, *langs, cancel, &key);
    if (cancel.cancelled()) return;
    const auto* page = std::get_if<readers::OcrPage>(&result);
    if (page == nullptr) return;  // OCR cannot run here: the images stay as they are
    const std::string label = readers::ocr_label(*page, *langs);
    std::string text = page->text.empty() ? "[The image above holds no text " + label + ".]"
                                          : "[Text in the image above " + label + ":\n" + page->text + "]";
    outcome.blocks.insert(outcome.blocks.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                          readers::TextBlock{std::move(text)});
    ++i;
  }
}

}  // namespace mcpread::server
