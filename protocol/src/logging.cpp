#include "mcpread/protocol/logging.hpp"

#include <array>

namespace mcpread::protocol {
namespace {
constexpr std::array<std::string_view, 8> names = {"debug", "info",     "notice", "warning",
                                                    "error", "critical", "alert",  "emergency"};
}

std::optional<LogLevel> parse_log_level(std::string_view name) {
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return static_cast<LogLevel>(i);
  return std::nullopt;
}

std::string_view to_string(LogLevel level) { return names[static_cast<std::size_t>(level)]; }

}  // namespace mcpread::protocol
