#pragma once
// A zip entry's deflate stream inflated in one call (libdeflate: two to three times zlib's speed
// here), into exactly the size the entry declares. Internal to the readers library.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace mcpread::readers::package {

// The inflated bytes, or nullopt with the reason in *why: the stream is corrupt, it holds more
// or fewer bytes than `size` (never inflated past it), or the result fails the entry's CRC-32.
std::optional<std::string> inflate_raw(std::string_view deflated, std::uint64_t size, std::uint32_t crc,
                                       std::string* why);

}  // namespace mcpread::readers::package
