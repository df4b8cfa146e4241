#include "whole_file.hpp"

#include "file_io.hpp"
#include "human_size.hpp"
#include "mcpread/readers/utf8.hpp"

#include <cerrno>
#include <cstring>

namespace mcpread::readers {

std::variant<std::string, ReadOutcome> read_whole_file(const OpenedFile& file, std::uint64_t limit,
                                                       std::string_view what, std::string_view advice) {
  const std::string path = utf8::sanitized(file.path.string());
  const auto size = static_cast<std::uint64_t>(file.st.st_size);
  nlohmann::json meta = {{"path", path}, {"size", size}};
  if (size > limit)
    return ReadOutcome::error(path + " is " + human_size(size) + ", over the " + human_size(limit) + " limit for " +
                                  std::string(what) + "." + std::string(advice),
                              std::move(meta));
  auto bytes = file_io::read_whole(file.fd.get(), size, limit);
  if (!bytes)
    return ReadOutcome::error(errno == EFBIG ? path + " grew past the " + human_size(limit) + " limit for " +
                                                   std::string(what) + " while being read."
                                             : "Cannot read " + path + ": " + utf8::sanitized(std::strerror(errno)) + ".",
                              std::move(meta));
  return std::move(*bytes);
}

}  // namespace mcpread::readers
