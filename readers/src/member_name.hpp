#pragma once
// Names inside a container (a zip package, an archive) are names, never paths to follow: one that
// is absolute or steps out with ".." is refused wherever the readers meet it. Internal to the
// readers library.
#include <string_view>

namespace mcpread::readers {

// True when `name` is absolute ("/x", "\x") or has a ".." component, with either separator.
inline bool member_name_escapes(std::string_view name) {
  if (name.starts_with('/') || name.starts_with('\\')) return true;
  for (std::size_t at = 0; at <= name.size();) {
    std::size_t end = name.find_first_of("/\\", at);
    if (end == std::string_view::npos) end = name.size();
    if (name.substr(at, end - at) == "..") return true;
    at = end + 1;
  }
  return false;
}

}  // namespace mcpread::readers
