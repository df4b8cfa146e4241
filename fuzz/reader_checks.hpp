#pragma once
// What the readers' fuzz targets check of every outcome, and the hash of an input their second
// read's options are picked from (the same input always gives the same options).
#include "fuzz_check.hpp"
#include "mcpread/readers/outcome.hpp"
#include "mcpread/readers/utf8.hpp"

#include <cstddef>
#include <cstdint>
#include <variant>

namespace mcpread::fuzz {

// An outcome has content, its text blocks are valid UTF-8, an error is one text block. False for
// an error (its meta has nothing more to check).
inline bool check_blocks(const readers::ReadOutcome& o) {
  check(!o.blocks.empty(), "an outcome has content");
  for (const auto& block : o.blocks)
    if (const auto* text = std::get_if<readers::TextBlock>(&block))
      check(readers::utf8::is_valid(text->text), "text blocks are valid UTF-8");
  if (!o.is_error) return true;
  check(o.blocks.size() == 1, "an error is one text block");
  return false;
}

inline std::uint32_t fnv1a(const std::uint8_t* data, std::size_t size) {
  std::uint32_t h = 2166136261u;
  for (std::size_t i = 0; i < size; ++i) h = (h ^ data[i]) * 16777619u;
  return h;
}

}  // namespace mcpread::fuzz
