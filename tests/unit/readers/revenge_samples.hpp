#pragma once
// The importers' test documents of tests/data/revenge/ read through read_file as the server reads
// them, for the drawing and Keynote tests.
#include "fixtures.hpp"
#include "pdf_fixtures.hpp"  // sets the plugin directory for the test executables
#include "reader_fixtures.hpp"
#include "tool_wording.hpp"

#include "mcpread/readers/read.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <variant>

namespace mcpread::test {

inline std::string sample(const std::string& name) {
  std::ifstream in(std::string(MCPREAD_SOURCE_DIR) + "/tests/data/revenge/" + name, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "missing sample " << name);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

// `bytes` written to `name` and read with `pages` and, when given, the reader `kind` names.
inline readers::ReadOutcome read_deck(const TempDir& dir, const std::string& name, const std::string& bytes,
                                      std::string pages = {}, std::optional<readers::FileKind> kind = {}) {
  dir.write(name, bytes);
  readers::ReadRequest request = tool_worded(readers::ReadRequest{});
  request.file_path = name;
  request.pages = std::move(pages);
  request.forced_kind = kind;
  return readers::read_file(roots_of(dir), request, readers::ReadLimits{}, readers::CancelToken{});
}

inline std::size_t images_in(const readers::ReadOutcome& o) {
  std::size_t n = 0;
  for (const auto& b : o.blocks) n += std::holds_alternative<readers::ImageBlock>(b) ? 1 : 0;
  return n;
}

}  // namespace mcpread::test
