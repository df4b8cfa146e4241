#include "package/raw_inflate.hpp"

#include <libdeflate.h>

#include <memory>

namespace mcpread::readers::package {

std::optional<std::string> inflate_raw(std::string_view deflated, std::uint64_t size, std::uint32_t crc,
                                       std::string* why) {
  // One decompressor per thread: it holds about 32 KB of tables and is not thread-safe.
  struct Free {
    void operator()(libdeflate_decompressor* d) const { libdeflate_free_decompressor(d); }
  };
  thread_local const std::unique_ptr<libdeflate_decompressor, Free> decompressor(libdeflate_alloc_decompressor());
  if (!decompressor) {
    *why = "no memory to inflate it";
    return std::nullopt;
  }
  std::string out(static_cast<std::size_t>(size), '\0');
  std::size_t produced = 0;
  switch (libdeflate_deflate_decompress(decompressor.get(), deflated.data(), deflated.size(), out.data(), out.size(),
                                        &produced)) {
    case LIBDEFLATE_SUCCESS:
      break;
    case LIBDEFLATE_INSUFFICIENT_SPACE:
      *why = "it unpacks to more than it declares";
      return std::nullopt;
    default:
      *why = "its compressed data is invalid";
      return std::nullopt;
  }
  if (produced != out.size()) {
    *why = "it unpacks to less than it declares";
    return std::nullopt;
  }
  if (libdeflate_crc32(0, out.data(), out.size()) != crc) {
    *why = "it fails its CRC check";
    return std::nullopt;
  }
  return out;
}

}  // namespace mcpread::readers::package
