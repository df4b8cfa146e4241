#include "office/block_images.hpp"

#include "human_size.hpp"
#include "mcpread/common/ascii.hpp"

#include <variant>

namespace mcpread::readers::office {

std::string_view image_mime(std::string_view part) {
  const auto dot = part.rfind('.');
  const std::string ext = common::ascii_lower(dot == std::string_view::npos ? "" : part.substr(dot + 1));
  if (ext == "png") return "image/png";
  if (ext == "jpg" || ext == "jpeg") return "image/jpeg";
  if (ext == "gif") return "image/gif";
  if (ext == "webp") return "image/webp";
  if (ext == "bmp") return "image/bmp";
  if (ext == "tif" || ext == "tiff") return "image/tiff";
  if (ext == "svg") return "image/svg+xml";
  if (ext == "emf") return "image/emf";
  if (ext == "wmf") return "image/wmf";
  return {};
}

PartReader held_parts(const std::vector<HeldPicture>& pictures, std::string missing) {
  return [&pictures, missing = std::move(missing)](const std::string& part, std::string* why, std::uint64_t cap) {
    for (const HeldPicture& p : pictures) {
      if (p.name != part) continue;
      if (cap != 0 && p.bytes.size() > cap) {
        *why = "it is " + human_size(p.bytes.size()) + ", over the " + human_size(cap) + " limit for images";
        return std::optional<std::string>();
      }
      return std::optional<std::string>(p.bytes);
    }
    *why = missing;
    return std::optional<std::string>();
  };
}

PartReader zip_parts(package::ZipArchive& zip) {
  return [&zip](const std::string& part, std::string* error, std::uint64_t cap) { return zip.read(part, error, cap); };
}

bool add_block_images(package::ZipArchive& zip, const std::vector<std::string>& parts, const ImageLimits& limits,
                      std::size_t max_images, ImageTally& tally, std::string& text, std::vector<Block>& images,
                      const CancelToken& cancel) {
  return add_block_images(zip_parts(zip), parts, limits, max_images, tally, text, images, cancel);
}

bool add_block_images(const PartReader& read, const std::vector<std::string>& parts, const ImageLimits& limits,
                      std::size_t max_images, ImageTally& tally, std::string& text, std::vector<Block>& images,
                      const CancelToken& cancel) {
  for (const std::string& part : parts) {
    if (max_images == 0) break;  // text only: the "[Image N]" markers stay
    if (tally.sent >= max_images) {
      ++tally.unsent;
      continue;
    }
    std::string error;
    const auto bytes = read(part, &error, limits.max_input_bytes);
    if (!bytes) {
      text += "\n[Image " + part + " not shown: " + error + ".]";
      continue;
    }
    auto encoded = encode_for_model(*bytes, image_mime(part), limits, cancel);
    if (cancel.cancelled()) return false;
    if (auto* e = std::get_if<std::string>(&encoded)) {
      text += "\n[Image " + part + " not shown: " + *e + "]";
      continue;
    }
    auto& img = std::get<EncodedImage>(encoded);
    images.emplace_back(ImageBlock{img.mime, std::move(img.data)});
    ++tally.sent;
  }
  return true;
}

void flush_before_images(std::vector<Block>& out, std::string& text, std::vector<Block>& images,
                         std::size_t& sent_text) {
  if (images.empty()) return;
  sent_text += text.size();
  out.emplace_back(TextBlock{std::move(text)});
  text.clear();
  for (auto& img : images) out.push_back(std::move(img));
}

}  // namespace mcpread::readers::office
