#pragma once
// Opaque cursors for list methods. A cursor names the list it belongs to and a position in it;
// anything we did not issue is rejected (-32602).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace mcpread::protocol {

std::string encode_cursor(std::string_view list, std::size_t position);
// The position, or empty when the cursor is malformed, belongs to another list, or points past
// `size`.
std::optional<std::size_t> decode_cursor(std::string_view list, std::string_view cursor,
                                         std::size_t size);

}  // namespace mcpread::protocol
