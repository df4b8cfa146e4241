#include "install_tree.hpp"

#include "mcpread/common/platform.hpp"

#include <sys/stat.h>

namespace mcpread::readers {

std::string executable_directory() {
  const std::string buf = platform::executable_path();
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
