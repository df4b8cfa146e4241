#pragma once
// Open → read the head → classify: the start shared by the read tool and resources/read.
#include "mcpread/readers/access.hpp"
#include "mcpread/readers/classify.hpp"

#include <optional>
#include <string>

namespace mcpread::readers {

struct ClassifiedFile {
  std::string head;  // the first head_bytes of the file (all of a smaller one)
  Classification classification;
};

inline constexpr std::size_t classify_head_bytes = 64 * 1024;

// nullopt with the errno text in *error when the file cannot be read. With `nowait`, the head
// is read only from the page cache: nullopt with errno EAGAIN (or EOPNOTSUPP) when it is not.
std::optional<ClassifiedFile> classify_file(const OpenedFile& file, std::string* error, bool nowait = false);

// The classification alone, kept for the next read of the same version of the file under the
// same name (a model pages through a file in many calls: its head is read and classified once).
std::optional<Classification> classify_opened(const OpenedFile& file, std::string* error, bool nowait = false);
// Drops the kept classifications; the bytes they held.
std::size_t release_classifications();

}  // namespace mcpread::readers
