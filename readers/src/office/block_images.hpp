#pragma once
// The images of one block of a package (a paragraph, a slide, a chapter), sent as image blocks
// right after its text: the office documents, the presentations and the e-books all do it.
#include "mcpread/readers/cancel.hpp"
#include "mcpread/readers/image.hpp"
#include "mcpread/readers/outcome.hpp"
#include "package/zip_archive.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcpread::readers::office {

// The MIME type an image part's name promises ("media/a.png": image/png); empty when unknown.
std::string_view image_mime(std::string_view part);

// Images sent and left out so far in one answer.
struct ImageTally {
  std::size_t sent = 0;
  std::size_t unsent = 0;
};

// An image part's bytes, `cap` at most; nothing, with *error saying why, when they cannot be had.
using PartReader = std::function<std::optional<std::string>(const std::string& part, std::string* error, std::uint64_t cap)>;

// Reads the block's image parts and makes each fit for the model, into `images`, while
// `max_images` allows (the rest are counted as unsent). An image that cannot be read or made fit
// leaves a line in `text` saying why. False when the call was cancelled.
bool add_block_images(const PartReader& read, const std::vector<std::string>& parts, const ImageLimits& limits,
                      std::size_t max_images, ImageTally& tally, std::string& text, std::vector<Block>& images,
                      const CancelToken& cancel);
// An image a reader holds in memory (RTF's and the importers' pictures), named as its blocks name
// it ("image3.png").
struct HeldPicture {
  std::string name;
  std::string bytes;
};
// The held pictures as a PartReader (the vector outlives it); `missing` says why a named one that
// is not there cannot be had.
PartReader held_parts(const std::vector<HeldPicture>& pictures, std::string missing);
// The parts of a package, as a PartReader (the archive outlives it).
PartReader zip_parts(package::ZipArchive& zip);
// add_block_images with the parts of a package.
bool add_block_images(package::ZipArchive& zip, const std::vector<std::string>& parts, const ImageLimits& limits,
                      std::size_t max_images, ImageTally& tally, std::string& text, std::vector<Block>& images,
                      const CancelToken& cancel);

// When the block has images: the text gathered so far (counted in `sent_text`), then the images,
// go to `out`, and the text starts again. Without images the text keeps growing.
void flush_before_images(std::vector<Block>& out, std::string& text, std::vector<Block>& images,
                         std::size_t& sent_text);

}  // namespace mcpread::readers::office
