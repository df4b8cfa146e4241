#include "registry/classified_file.hpp"

#include "file_io.hpp"
#include "mcpread/readers/utf8.hpp"

#include <cerrno>
#include <cstring>
#include <span>

namespace mcpread::readers {

std::optional<ClassifiedFile> classify_file(const OpenedFile& file, std::string* error) {
  ClassifiedFile out;
  out.head.resize(classify_head_bytes);
  const auto got = file_io::pread_full(file.fd.get(), out.head.data(), out.head.size(), 0);
  if (!got) {
    *error = utf8::sanitized(std::strerror(errno));
    return std::nullopt;
  }
  out.head.resize(*got);
  out.classification =
      classify(file.path.filename().string(),
               std::span(reinterpret_cast<const unsigned char*>(out.head.data()), out.head.size()),
               static_cast<std::uint64_t>(file.st.st_size));
  return out;
}

}  // namespace mcpread::readers
