#include "install_tree.hpp"

#include "mcpread/common/platform.hpp"
#include "mcpread/readers/environment.hpp"

#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace mcpread::readers {

std::string executable_directory() {
  const std::string buf = platform::executable_path();
#if defined(_WIN32)
  const auto slash = buf.find_last_of("/\\");
#else
  const auto slash = buf.rfind('/');
#endif
  return slash == std::string::npos ? std::string() : buf.substr(0, slash == 0 ? 1 : slash);
}

std::string installed_file(std::string_view relative) {
  const std::string exe = executable_directory();
  if (exe.empty()) return {};
  std::string path = (exe == "/" ? exe : exe + "/") + "../";
  path += relative;
  std::error_code ec;
  return std::filesystem::exists(platform::path_from_utf8(path), ec) ? path : std::string();
}

void prepare_environment() {
#if !defined(_WIN32)  // the Linux bundle's ImageMagick coders; Windows' libvips carries its loaders
  if (const std::string coders = installed_file("lib/ImageMagick/coders"); !coders.empty())
    ::setenv("MAGICK_CODER_MODULE_PATH", coders.c_str(), 0);
#endif
}

}  // namespace mcpread::readers
