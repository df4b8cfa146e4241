#pragma once
// Standard base64 (RFC 4648, with padding) for image, audio and PDF payloads.
#include <cstddef>
#include <string>
#include <string_view>

namespace mcpread::readers {

constexpr std::size_t base64_size(std::size_t bytes) { return (bytes + 2) / 3 * 4; }
std::string base64_encode(std::string_view bytes);

}  // namespace mcpread::readers
