#include "mcpread/protocol/pagination.hpp"

#include <charconv>

namespace mcpread::protocol {
namespace {
constexpr std::string_view prefix = "mcp-read:";
}

std::string encode_cursor(std::string_view list, std::size_t position) {
  std::string c(prefix);
  c.append(list).append(":").append(std::to_string(position));
  return c;
}

std::optional<std::size_t> decode_cursor(std::string_view list, std::string_view cursor,
                                         std::size_t size) {
  if (cursor.substr(0, prefix.size()) != prefix) return std::nullopt;
  cursor.remove_prefix(prefix.size());
  if (cursor.substr(0, list.size()) != list || cursor.size() <= list.size() + 1 ||
      cursor[list.size()] != ':')
    return std::nullopt;
  cursor.remove_prefix(list.size() + 1);
  std::size_t position = 0;
  const auto [end, ec] = std::from_chars(cursor.data(), cursor.data() + cursor.size(), position);
  if (ec != std::errc{} || end != cursor.data() + cursor.size() || position > size)
    return std::nullopt;
  return position;
}

}  // namespace mcpread::protocol
