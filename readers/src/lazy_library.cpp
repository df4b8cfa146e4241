#include "lazy_library.hpp"
#include "mcpread/common/platform.hpp"

namespace mcpread::readers::lazy_library_detail {

void* open(const LibrarySpec& spec, std::string* library, std::string* error) {
  std::string reasons;
  for (const std::string& name : spec.candidates) {
    // RTLD_LOCAL: the library's symbols are reached through dlsym only, never by other libraries.
    // Sonames are Linux's; the system's own file name elsewhere (libvips.42.dylib on macOS).
    if (void* handle = ::dlopen(platform::library_file_name(name).c_str(), RTLD_NOW | RTLD_LOCAL);
        handle != nullptr) {
      *library = name;
      return handle;
    }
    const char* why = ::dlerror();
    if (!reasons.empty()) reasons += "; ";
    reasons += why != nullptr ? std::string(why) : name + ": cannot be loaded";
  }
  *error = spec.needs + ": " + (reasons.empty() ? std::string("no library to load") : reasons);
  return nullptr;
}

}  // namespace mcpread::readers::lazy_library_detail
