#pragma once
// The eight syslog levels MCP uses for notifications/message.
#include <optional>
#include <string_view>

namespace mcpread::protocol {

enum class LogLevel { debug, info, notice, warning, error, critical, alert, emergency };

std::optional<LogLevel> parse_log_level(std::string_view name);
std::string_view to_string(LogLevel level);

}  // namespace mcpread::protocol
