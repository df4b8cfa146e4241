#pragma once
// The embedded pictures a collector keeps (text documents and decks alike): raster images up to
// a total size, numbered in the order met; the others are counted, not kept.
#include <librevenge/librevenge.h>
#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>

namespace mcpread_revenge {

inline constexpr std::size_t kMaxImageBytes = 64u << 20;  // embedded images kept, in base64

class Pictures {
 public:
  // The picture `props` hand over (librevenge:mime-type, office:binary-data) kept: its index in
  // images(). nullopt when it is not a raster format mcp-read shows, or the total is spent.
  std::optional<std::size_t> take(const librevenge::RVNGPropertyList& props);

  [[nodiscard]] const nlohmann::json& images() const { return images_; }  // [{mime, base64}]
  [[nodiscard]] std::size_t not_shown() const { return not_shown_; }

 private:
  nlohmann::json images_ = nlohmann::json::array();
  std::size_t bytes_ = 0;
  std::size_t not_shown_ = 0;
};

}  // namespace mcpread_revenge
