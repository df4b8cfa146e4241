#pragma once
// Helpers for the readers' tests: roots made of a fixture directory, a file opened the way
// open_in_roots hands it to a reader, bytes written and read through read_file.
#include "fixtures.hpp"

#include "mcpread/readers/access.hpp"
#include "mcpread/readers/read.hpp"

#include <doctest/doctest.h>
#include <sys/stat.h>

#include <filesystem>
#include <string>
#include <string_view>
#include <variant>

namespace mcpread::test {

inline readers::Roots roots_of(const TempDir& dir) {
  readers::Roots roots;
  std::string error;
  REQUIRE_MESSAGE(readers::Roots::from_paths({dir.path().string()}, &roots, &error), error);
  return roots;
}

inline readers::OpenedFile open_file(const std::filesystem::path& path) {
  readers::OpenedFile f;
  f.fd = readers::UniqueFd(open_read_only(path));
  REQUIRE_MESSAGE(f.fd.valid(), "cannot open " << path);
  REQUIRE(::fstat(f.fd.get(), &f.st) == 0);
  f.path = path;
  return f;
}

// `bytes` written to `name` in `dir`, then read through read_file with the defaults of a request.
inline readers::ReadOutcome read_written(const TempDir& dir, const std::string& name, std::string_view bytes,
                                         const readers::ReadLimits& limits = {}) {
  dir.write(name, bytes);
  readers::ReadRequest request;
  request.file_path = name;
  return readers::read_file(roots_of(dir), request, limits, readers::CancelToken{});
}

// The text of an answer's first block (its header, or an error's sentence).
inline std::string first_text(const readers::ReadOutcome& o) {
  REQUIRE_FALSE(o.blocks.empty());
  REQUIRE(std::holds_alternative<readers::TextBlock>(o.blocks.front()));
  return std::get<readers::TextBlock>(o.blocks.front()).text;
}

// The sentence of a refused read (its first text block); the test fails when the read was not
// refused.
inline std::string error_text(const readers::ReadOutcome& o) {
  REQUIRE(o.is_error);
  return first_text(o);
}

// Every text block of an answer, each followed by "\n<block>\n" (where an image or another
// block may stand between them).
inline std::string texts_joined(const readers::ReadOutcome& o) {
  std::string out;
  for (const auto& b : o.blocks)
    if (const auto* t = std::get_if<readers::TextBlock>(&b)) out += t->text + "\n<block>\n";
  return out;
}

}  // namespace mcpread::test
