#include "mcpread/protocol/tool_catalog.hpp"

namespace mcpread::protocol {

nlohmann::json render_tool(const ToolDefinition& tool, const VersionFeatures& features) {
  nlohmann::json t{{"name", tool.name},
                   {"description", tool.description},
                   {"inputSchema", tool.input_schema}};
  if (features.titles && !tool.title.empty()) t["title"] = tool.title;
  if (features.tool_annotations && !tool.annotations.empty()) {
    t["annotations"] = tool.annotations;
    // Tool.annotations.title exists from 2025-03-26; the top-level title from 2025-06-18, which
    // clients show first: from then on the annotation would only repeat it (and every
    // conversation carries the tool list).
    if (!tool.title.empty() && !features.titles) t["annotations"]["title"] = tool.title;
  }
  if (features.structured_content && tool.output_schema) t["outputSchema"] = *tool.output_schema;
  if (features.titles && !tool.meta.empty()) t["_meta"] = tool.meta;
  return t;
}

nlohmann::json missing_capabilities(const nlohmann::json& required, const nlohmann::json& declared) {
  using nlohmann::json;
  json missing = json::object();
  if (!required.is_object()) return missing;
  const bool has_declared = declared.is_object();
  for (const auto& [name, value] : required.items()) {
    const auto have = has_declared ? declared.find(name) : declared.end();
    if (!has_declared || have == declared.end()) {
      missing[name] = value;
    } else if (name == "extensions" && value.is_object()) {
      for (const auto& [extension, settings] : value.items())
        if (!have->is_object() || !have->contains(extension)) missing["extensions"][extension] = settings;
    }
  }
  return missing;
}

}  // namespace mcpread::protocol
