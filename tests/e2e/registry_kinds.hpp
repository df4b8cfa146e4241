#pragma once
// The kinds the server publishes, from the registry it is built from (linked into these tests):
// the tests expect what the registry holds instead of a list of their own that would drift.
#include "mcpread/readers/registry.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace mcpread::test {

// The file_type enum: "auto", then each selectable reader's kind in registration order.
inline nlohmann::json file_types() {
  nlohmann::json out = nlohmann::json::array({"auto"});
  for (const readers::Reader& r : readers::reader_registry().readers())
    if (r.selectable) out.push_back(std::string(r.kind.name()));
  return out;
}

// The same, as refusals list them: "auto, text, json, …".
inline std::string file_type_list() {
  std::string out;
  for (const auto& t : file_types()) out += (out.empty() ? "" : ", ") + t.get<std::string>();
  return out;
}

}  // namespace mcpread::test
