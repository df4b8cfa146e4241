#include "mcpread/protocol/tool_catalog.hpp"

namespace mcpread::protocol {

nlohmann::json render_tool(const ToolDefinition& tool, const VersionFeatures& features) {
  nlohmann::json t{{"name", tool.name},
                   {"description", tool.description},
                   {"inputSchema", tool.input_schema}};
  if (features.titles && !tool.title.empty()) t["title"] = tool.title;
  if (features.tool_annotations && !tool.annotations.empty()) {
    t["annotations"] = tool.annotations;
    // Tool.annotations.title exists from 2025-03-26; the top-level title only from 2025-06-18.
    if (!tool.title.empty()) t["annotations"]["title"] = tool.title;
  }
  if (features.structured_content && tool.output_schema) t["outputSchema"] = *tool.output_schema;
  if (features.titles && !tool.meta.empty()) t["_meta"] = tool.meta;
  return t;
}

}  // namespace mcpread::protocol
