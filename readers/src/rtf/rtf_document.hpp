#pragma once
// An RTF document read into the office readers' Document: paragraphs, headings (outline levels
// and "heading N" styles), list items (their markers kept), tables (\cell, \row), footnotes,
// hyperlinks (HYPERLINK fields) and pictures (PNG and JPEG kept for the model, others named).
// Internal to the readers library.
#include "office/block_images.hpp"
#include "office/document.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace mcpread::readers::rtf {

using Picture = office::HeldPicture;

struct RtfDocument {
  office::Document doc;
  std::vector<Picture> pictures;
  std::size_t pictures_not_kept = 0;  // WMF, EMF and other picture formats, named in the text only
};

inline constexpr std::size_t kMaxGroupDepth = 1000;            // hostile nesting is refused
inline constexpr std::size_t kMaxPictureBytes = 64ull << 20;   // all pictures' data together

// False with a sentence in *error: not RTF, nested too deep, or a table of too many cells.
bool read_rtf(std::string_view rtf, RtfDocument* out, std::string* error);

}  // namespace mcpread::readers::rtf
