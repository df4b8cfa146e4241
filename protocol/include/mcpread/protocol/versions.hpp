#pragma once
// Protocol versions this server speaks and what each one allows.
#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace mcpread::protocol {

// Oldest first. initialize echoes a supported version and answers the latest otherwise.
inline constexpr std::array<std::string_view, 4> supported_versions = {
    "2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"};

// Stateless versions: each request carries its version in _meta; no initialize, no session.
inline constexpr std::array<std::string_view, 1> stateless_versions = {"2026-07-28"};

// The latest version initialize can negotiate.
std::string_view latest_version();
[[nodiscard]] bool is_stateless_version(std::string_view version);
// Every version served, newest first: the stateless ones, then those reached by initialize.
std::vector<std::string> all_versions();
[[nodiscard]] bool is_supported_version(std::string_view version);
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
  bool completions = false;         // the `completions` capability (2025-03-26+)
  bool elicitation = false;         // elicitation/create to the client (2025-06-18+)
  bool subscriptions = false;       // resources/subscribe (until 2025-11-25; later subscriptions/listen)
  bool stateless = false;           // resultType, per-request _meta, ttlMs (2026-07-28+)
};

VersionFeatures features_of(std::string_view version);

}  // namespace mcpread::protocol
