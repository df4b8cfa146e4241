#pragma once
// Protocol versions this server speaks and what each one allows.
#include <array>
#include <string>
#include <string_view>

namespace mcpread::protocol {

// Oldest first. initialize echoes a supported version and answers the latest otherwise.
inline constexpr std::array<std::string_view, 4> supported_versions = {
    "2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"};

std::string_view latest_version();
bool is_supported_version(std::string_view version);
std::string negotiate_version(std::string_view requested);

// What the negotiated version's schema allows in messages we send or accept.
struct VersionFeatures {
  bool batches = false;             // JSON-RPC batches (2025-03-26 only)
  bool audio_content = false;       // `audio` content blocks (2025-03-26+)
  bool tool_annotations = false;    // Tool.annotations (2025-03-26+)
  bool progress_message = false;    // ProgressNotification.message (2025-03-26+)
  bool titles = false;              // `title` on tools and Implementation (2025-06-18+)
  bool structured_content = false;  // outputSchema / structuredContent (2025-06-18+)
  bool resource_links = false;      // `resource_link` content (2025-06-18+)
};

VersionFeatures features_of(std::string_view version);

}  // namespace mcpread::protocol
