#include "memory_file.hpp"

#include "mcpread/common/platform.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <system_error>

namespace mcpread::readers {

std::optional<OpenedFile> memory_file(const std::string& bytes, const std::string& path, std::string* error) {
  platform::AnonymousFile anon = platform::anonymous_file("mcp-read-member");
  if (anon.fd < 0) {
    *error = "no memory file can be made (" + std::generic_category().message(errno) + ")";
    return std::nullopt;
  }
  OpenedFile file{UniqueFd(anon.fd), {}, platform::path_from_utf8(path)};
  for (std::size_t done = 0; done < bytes.size();) {
    const auto n = ::write(file.fd.get(), bytes.data() + done,
                           static_cast<unsigned>(std::min<std::size_t>(bytes.size() - done, 1u << 30)));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      *error = "its bytes cannot be put in a memory file (" + std::generic_category().message(errno) + ")";
      return std::nullopt;
    }
    done += static_cast<std::size_t>(n);
  }
  if (::fstat(file.fd.get(), &file.st) != 0) {
    *error = std::generic_category().message(errno);
    return std::nullopt;
  }
  return file;
}

}  // namespace mcpread::readers
