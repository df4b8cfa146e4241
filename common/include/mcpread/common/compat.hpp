#pragma once
// Stand-ins for the few standard library parts newer than GCC 10's libstdc++, which the portable
// bundle is built with (Debian bullseye, scripts/release/); with a newer library they are the
// standard ones. Keep this file small: a guard per missing part, the same behaviour either way.
#include <cstddef>
#include <memory>

namespace mcpread::compat {

// std::make_unique_for_overwrite<char[]> (libstdc++ 11): a buffer left uninitialised.
inline std::unique_ptr<char[]> make_char_buffer(std::size_t n) {
#if defined(__cpp_lib_smart_ptr_for_overwrite)
  return std::make_unique_for_overwrite<char[]>(n);
#else
  return std::unique_ptr<char[]>(new char[n]);
#endif
}

}  // namespace mcpread::compat
