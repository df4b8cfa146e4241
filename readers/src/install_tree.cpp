#include "install_tree.hpp"

#include <sys/stat.h>
#include <unistd.h>

namespace mcpread::readers {

std::string executable_directory() {
  std::string buf(4096, '\0');
  const ssize_t n = ::readlink("/proc/self/exe", buf.data(), buf.size() - 1);
  if (n <= 0) return {};
  buf.resize(static_cast<std::size_t>(n));
  const auto slash = buf.rfind('/');
  return slash == std::string::npos ? std::string() : buf.substr(0, slash == 0 ? 1 : slash);
}

std::string installed_file(std::string_view relative) {
  const std::string exe = executable_directory();
  if (exe.empty()) return {};
  std::string path = (exe == "/" ? exe : exe + "/") + "../";
  path += relative;
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 ? path : std::string();
}

}  // namespace mcpread::readers
