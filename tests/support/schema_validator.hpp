#pragma once
// Validation against the official MCP JSON schemas (../shared/mcp-schema/<version>.json).
#include <nlohmann/json.hpp>

#include <string>

namespace mcpread::test {

// Empty when `instance` is valid against the schema's definition `definition` (e.g.
// "CallToolResult") for `version`; otherwise the validator's errors, one per line.
std::string schema_errors(const std::string& version, const std::string& definition,
                          const nlohmann::json& instance);

// Validates a message the server sent: the JSON-RPC envelope (response, error, notification or
// request) and, for results, the result type of `request_method` (initialize, ping, tools/*,
// resources/*, prompts/*, completion/complete, logging/setLevel, subscriptions/listen); for notifications and requests
// (roots/list, sampling/createMessage, elicitation/create), their own type.
std::string server_message_errors(const std::string& version, const nlohmann::json& message,
                                  const std::string& request_method = {});

// Empty when `instance` is valid against the draft-07 schema in the file `schema_path` (its root
// definition); otherwise the validator's errors, one per line. For schemas other than MCP's own,
// such as the MCP Registry's server.json schema.
std::string schema_file_errors(const std::string& schema_path, const nlohmann::json& instance);

}  // namespace mcpread::test
