#pragma once
// The input of a reader's fuzz target as the file the reader reads: written to a memfd (one per
// target for the whole run, rewritten for each input) and handed over as open_in_roots hands an
// opened file, through its own descriptor.
#include "fuzz_check.hpp"
#include "mcpread/readers/access.hpp"

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace mcpread::fuzz {

// `path`: the name the reader sees ("/fuzz/data.json"), its extension included.
inline readers::OpenedFile open_input(const std::uint8_t* data, std::size_t size, const std::string& path) {
  static const int fd = memfd_create("fuzz.input", 0);
  check(fd >= 0, "memfd_create works");
  check(ftruncate(fd, 0) == 0, "the memfd can be emptied");
  check(size == 0 || pwrite(fd, data, size, 0) == static_cast<ssize_t>(size), "the memfd takes the input");
  readers::OpenedFile file;
  file.fd = readers::UniqueFd(dup(fd));
  check(file.fd.valid() && fstat(file.fd.get(), &file.st) == 0, "the memfd can be opened");
  file.path = path;
  return file;
}

}  // namespace mcpread::fuzz
