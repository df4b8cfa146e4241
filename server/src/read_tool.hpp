#pragma once
// The `read` tool (and its `read_image` alias): definitions, argument parsing, and the mapping
// of a reader's outcome onto a CallToolResult for the negotiated protocol version.
#include "cli.hpp"

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

// The request, or a message saying what is wrong with the arguments.
std::variant<readers::ReadRequest, std::string> parse_read_arguments(const nlohmann::json& args);

nlohmann::json to_call_tool_result(readers::ReadOutcome outcome,
                                   const protocol::VersionFeatures& features,
                                   bool structured_content);

}  // namespace mcpread::server
