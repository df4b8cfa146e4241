#pragma once
// Stand-ins for the few standard library parts newer than GCC 10's libstdc++, which the portable
// bundle is built with (Debian bullseye, scripts/release/); with a newer library they are the
// standard ones. Keep this file small: a guard per missing part, the same behaviour either way.
#include <charconv>
#include <cstddef>
#include <cstdio>
#include <memory>
#include <system_error>

namespace mcpread::compat {

// std::make_unique_for_overwrite<char[]> (libstdc++ 11): a buffer left uninitialised.
inline std::unique_ptr<char[]> make_char_buffer(std::size_t n) {
#if defined(__cpp_lib_smart_ptr_for_overwrite)
  return std::make_unique_for_overwrite<char[]>(n);
#else
  return std::unique_ptr<char[]>(new char[n]);
#endif
}

// std::to_chars of a double with a format and precision (libstdc++ 11): "%.*f" (fixed) or
// "%.*g" (general). The stand-in is snprintf, which reads the C locale's decimal point: the server
// never changes the locale from "C".
inline std::to_chars_result double_to_chars(char* first, char* last, double value, std::chars_format format,
                                            int precision) {
#if defined(__cpp_lib_to_chars)
  return std::to_chars(first, last, value, format, precision);
#else
  const int n = std::snprintf(first, static_cast<std::size_t>(last - first),
                              format == std::chars_format::fixed ? "%.*f" : "%.*g", precision, value);
  if (n < 0 || n >= last - first) return {last, std::errc::value_too_large};
  return {first + n, std::errc()};
#endif
}

}  // namespace mcpread::compat
