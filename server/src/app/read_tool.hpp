#pragma once
// The `read` tool (and its `read_image` alias): definitions and argument parsing. The outcome
// becomes a CallToolResult in result_shaper.hpp.
#include "mcpread/server/config.hpp"

#include "mcpread/protocol/tool_catalog.hpp"
#include "mcpread/protocol/versions.hpp"
#include "mcpread/readers/outcome.hpp"
#include "mcpread/readers/read.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <variant>
#include <vector>

namespace mcpread::server {

std::vector<protocol::ToolDefinition> read_tool_definitions(const Config& config);

// The request, its hints worded in this tool's arguments (hint_wording), or a message saying what
// is wrong with the arguments.
std::variant<readers::ReadRequest, std::string> parse_read_arguments(const nlohmann::json& args);

}  // namespace mcpread::server
