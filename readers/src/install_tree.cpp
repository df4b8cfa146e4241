#include "install_tree.hpp"

#include "mcpread/common/platform.hpp"
#include "mcpread/readers/environment.hpp"

#include <cstdlib>

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

void prepare_environment() {
  if (const std::string coders = installed_file("lib/ImageMagick/coders"); !coders.empty())
    ::setenv("MAGICK_CODER_MODULE_PATH", coders.c_str(), 0);
}

}  // namespace mcpread::readers
