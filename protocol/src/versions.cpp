#include "mcpread/protocol/versions.hpp"

#include <algorithm>

namespace mcpread::protocol {

std::string_view latest_version() { return supported_versions.back(); }

bool is_stateless_version(std::string_view version) {
  return std::find(stateless_versions.begin(), stateless_versions.end(), version) !=
         stateless_versions.end();
}

std::vector<std::string> all_versions() {
  std::vector<std::string> out(stateless_versions.rbegin(), stateless_versions.rend());
  out.insert(out.end(), supported_versions.rbegin(), supported_versions.rend());
  return out;
}

bool is_supported_version(std::string_view version) {
  return std::find(supported_versions.begin(), supported_versions.end(), version) !=
         supported_versions.end();
}

std::string negotiate_version(std::string_view requested) {
  return std::string(is_supported_version(requested) ? requested : latest_version());
}

VersionFeatures features_of(std::string_view version) {
  // Dates compare correctly as strings (YYYY-MM-DD).
  VersionFeatures f;
  f.batches = version == "2025-03-26";
  f.audio_content = version >= "2025-03-26";
  f.tool_annotations = version >= "2025-03-26";
  f.progress_message = version >= "2025-03-26";
  f.titles = version >= "2025-06-18";
  f.structured_content = version >= "2025-06-18";
  f.resource_links = version >= "2025-06-18";
  f.completions = version >= "2025-03-26";
  f.elicitation = version >= "2025-06-18";
  f.subscriptions = version < "2026-07-28";
  f.stateless = version >= "2026-07-28";
  return f;
}

}  // namespace mcpread::protocol
