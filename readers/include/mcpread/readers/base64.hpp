#pragma once
// Base64 (RFC 4648): encoding for image, audio and PDF payloads, decoding for what files embed
// (notebook image outputs).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace mcpread::readers {

constexpr std::size_t base64_size(std::size_t bytes) { return (bytes + 2) / 3 * 4; }
// Standard alphabet, with padding.
std::string base64_encode(std::string_view bytes);
// Lenient: the standard and URL-safe alphabets, whitespace skipped, padding optional; nullopt
// when another character appears, or data after the padding. Four digits at a time when no
// whitespace or padding intervenes.
std::optional<std::string> base64_decode(std::string_view in);

}  // namespace mcpread::readers
