#pragma once
// How log lines look on stderr: "[time] [level] message" for people, or one JSON object per line
// ({"time","level","logger","message"}) for log shippers (--log-format json).
#include <spdlog/formatter.h>

#include <memory>

namespace mcpread::server {

std::unique_ptr<spdlog::formatter> json_log_formatter();

}  // namespace mcpread::server
