#include "pictures.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <string_view>

namespace mcpread_revenge {

namespace {

// The raster formats mcp-read's image pipeline takes; the importers also hand over WMF, EMF,
// PICT, WPG and other vector pictures, which are counted instead.
bool shown_mime(std::string_view mime) {
  constexpr std::array<std::string_view, 6> kShown = {"image/png", "image/jpeg", "image/gif",
                                                      "image/bmp", "image/tiff", "image/webp"};
  return std::find(kShown.begin(), kShown.end(), mime) != kShown.end();
}

}  // namespace

std::optional<std::size_t> Pictures::take(const librevenge::RVNGPropertyList& props) {
  const librevenge::RVNGProperty* mime = props["librevenge:mime-type"];
  const librevenge::RVNGProperty* data = props["office:binary-data"];
  if (mime == nullptr || data == nullptr || !shown_mime(mime->getStr().cstr())) {
    ++not_shown_;
    return std::nullopt;
  }
  std::string base64 = data->getStr().cstr();  // a binary property's string is its base64
  if (base64.empty() || bytes_ + base64.size() > kMaxImageBytes) {
    ++not_shown_;
    return std::nullopt;
  }
  bytes_ += base64.size();
  images_.push_back({{"mime", mime->getStr().cstr()}, {"base64", std::move(base64)}});
  return images_.size() - 1;
}

}  // namespace mcpread_revenge
