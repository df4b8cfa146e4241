#pragma once
// Tool definitions, rendered for the negotiated version (fields a version's schema lacks are
// left out).
#include "mcpread/protocol/versions.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace mcpread::protocol {

// The tasks extension's name (SEP-2663): declared in capabilities.extensions.
inline constexpr const char* tasks_extension = "io.modelcontextprotocol/tasks";

// Whether a call of the tool may run as a task (a 2026-07-28 request from a client that declares
// the tasks extension). Not rendered: the 2026-07-28 Tool has no `execution` field.
enum class TaskSupport {
  forbidden,  // always answered in its request
  optional,   // the tool decides (ToolCall::start_task), e.g. once it has run for a while
  required,   // a client without the extension gets -32021
};

struct ToolDefinition {
  std::string name;
  std::string title;
  std::string description;
  nlohmann::json input_schema;
  std::optional<nlohmann::json> output_schema;  // sent only when set and the version allows it
  nlohmann::json annotations = nlohmann::json::object();
  // The tool's `_meta` (from 2025-06-18): hints for a particular host, such as the size of result
  // it should pass on whole. Empty: none.
  nlohmann::json meta = nlohmann::json::object();
  // The client capabilities a call needs (a ClientCapabilities object, e.g. {"sampling": {}}):
  // a 2026-07-28 request whose _meta does not declare them all is refused with -32021 before the
  // tool runs. Empty: none.
  nlohmann::json required_capabilities = nlohmann::json::object();
  TaskSupport task_support = TaskSupport::forbidden;
};

// The part of `required` (a ClientCapabilities object) that `declared` lacks, looking one level
// into "extensions"; an empty object when every capability is declared.
nlohmann::json missing_capabilities(const nlohmann::json& required, const nlohmann::json& declared);

nlohmann::json render_tool(const ToolDefinition& tool, const VersionFeatures& features);

}  // namespace mcpread::protocol
