#pragma once
// Helpers shared by the image reader's tests: a read through the roots, and what it sent decoded.
#include "fixtures.hpp"
#include "tool_wording.hpp"
#include "image_fixtures.hpp"
#include "reader_fixtures.hpp"

#include "mcpread/readers/base64.hpp"
#include "mcpread/readers/image.hpp"
#include "mcpread/readers/read.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>

namespace mcpread::test::image_util {

using namespace mcpread::readers;

inline ReadOutcome read(const TempDir& dir, const std::string& name, const ImageLimits& image = {},
                        std::optional<FileKind> kind = {}, const CancelToken& cancel = {}) {
  ReadRequest request;
  request.file_path = name;
  request.forced_kind = kind;
  request.wording = server::hint_wording;
  ReadLimits limits;
  limits.image = image;
  return read_file(roots_of(dir), request, limits, cancel);
}

inline std::string text_of(const ReadOutcome& o) {
  REQUIRE_FALSE(o.blocks.empty());
  return std::get<TextBlock>(o.blocks.front()).text;
}

// What read_file sent: the text block, then the image block, decoded.
struct Sent {
  std::string text;
  std::string mime;
  std::string bytes;
  DecodedImage image;
};

inline Sent sent(const ReadOutcome& o) {
  const std::string first = o.blocks.empty() ? std::string("no blocks") : text_of(o);
  INFO(first);
  REQUIRE_FALSE(o.is_error);
  REQUIRE(o.blocks.size() == 2);
  Sent s;
  s.text = std::get<TextBlock>(o.blocks[0]).text;
  const auto& block = std::get<ImageBlock>(o.blocks[1]);
  s.mime = block.mime_type;
  s.bytes = std::string(mcpread::readers::view_of(block.data));
  s.image = decode_image(s.bytes);
  CHECK(s.image.ok);
  CHECK(o.meta["sent_bytes"] == mcpread::readers::base64_size(block.data.size()));
  CHECK(o.meta["sent_mime"] == s.mime);
  CHECK(o.meta["width"] == s.image.width);
  CHECK(o.meta["height"] == s.image.height);
  return s;
}

// The readers' size wording: bytes below 1 KB, else one decimal of KB or MB.
inline std::string size_text(std::uint64_t n) {
  if (n < 1024) return std::to_string(n) + " bytes";
  double v = static_cast<double>(n) / 1024;
  const char* unit = v < 1024 ? "KB" : "MB";
  if (v >= 1024) v /= 1024;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return std::string(buf) + " " + unit;
}

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

inline double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace mcpread::test::image_util
