#pragma once
// Helpers for the readers' tests: roots made of a fixture directory, and a file opened the way
// open_in_roots hands it to a reader.
#include "fixtures.hpp"

#include "mcpread/readers/access.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>

#include <filesystem>
#include <string>

namespace mcpread::test {

inline readers::Roots roots_of(const TempDir& dir) {
  readers::Roots roots;
  std::string error;
  REQUIRE_MESSAGE(readers::Roots::from_paths({dir.path().string()}, &roots, &error), error);
  return roots;
}

inline readers::OpenedFile open_file(const std::filesystem::path& path) {
  readers::OpenedFile f;
  f.fd = readers::UniqueFd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  REQUIRE_MESSAGE(f.fd.valid(), "cannot open " << path);
  REQUIRE(::fstat(f.fd.get(), &f.st) == 0);
  f.path = path;
  return f;
}

}  // namespace mcpread::test
