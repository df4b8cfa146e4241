#pragma once
// Playing the client's side of roots/list in end-to-end tests.
#include "mcp_client.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <vector>

namespace mcpread::test {

// Waits for the server's roots/list request and returns its id.
inline nlohmann::json expect_roots_request(McpClient& client) {
  auto m = client.receive();
  REQUIRE_MESSAGE(m, "no roots/list request; stderr:\n" << client.stderr_text());
  REQUIRE((*m)["method"] == "roots/list");
  return (*m)["id"];
}

inline void answer_roots(McpClient& client, const nlohmann::json& id,
                         const std::vector<std::filesystem::path>& dirs) {
  nlohmann::json roots = nlohmann::json::array();
  for (const auto& d : dirs) roots.push_back({{"uri", file_uri(d)}, {"name", d.filename().string()}});
  client.send({{"jsonrpc", "2.0"}, {"id", id}, {"result", {{"roots", roots}}}});
}

inline const nlohmann::json roots_capability = {{"roots", {{"listChanged", true}}}};

}  // namespace mcpread::test
