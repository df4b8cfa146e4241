#pragma once
// The one place where a reader's host-independent answer becomes the CallToolResult a given host
// passes on whole: limits for the read that fit the host (text and image budgets, how PDFs
// travel), then the blocks the host can carry, in the order it keeps, with text that stays true
// about what was sent.
#include "mcpread/server/host_profile.hpp"

#include "mcpread/protocol/versions.hpp"
#include "mcpread/readers/outcome.hpp"
#include "mcpread/readers/read.hpp"

#include <nlohmann/json.hpp>

namespace mcpread::server {

// The server's limits narrowed to what the host passes unchanged.
readers::ReadLimits limits_for(const readers::ReadLimits& base, const HostProfile& profile);

// The CallToolResult for this host and protocol version. `structured_content`: the server was
// started with --structured-content (sent only where the version and the host allow it).
nlohmann::json shape_result(readers::ReadOutcome outcome, const HostProfile& profile,
                            const protocol::VersionFeatures& features, bool structured_content);

}  // namespace mcpread::server
