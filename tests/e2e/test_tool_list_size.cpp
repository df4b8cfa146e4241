// The tool list stays lean: every conversation of every host carries it, so tools/list is held
// under a fixed budget in every protocol version and host profile, however many readers there
// are (each adds a line of a few words to `read`'s description; `read_image` is one line).
#include "fixtures.hpp"
#include "mcp_client.hpp"

#include <doctest/doctest.h>

#include <string>

using mcpread::test::McpClient;
using mcpread::test::TempDir;
using nlohmann::json;

namespace {

// bench/bench.mjs reports the same bound as TOOLS_LIST_GOAL.
constexpr std::size_t tools_list_budget = 3500;

// The bytes of the answer line as the server writes it: compact JSON, UTF-8, keys sorted.
std::size_t line_bytes(const json& answer) { return answer.dump().size(); }

}  // namespace

TEST_CASE("tools/list fits its budget in every version and host profile") {
  TempDir root;
  for (const char* profile : {"generic", "claude-code", "gemini-cli", "codex", "ai-sdk"}) {
    CAPTURE(profile);
    for (const char* version : {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"}) {
      CAPTURE(version);
      McpClient client({{root.path().string(), "--host-profile", profile}});
      client.initialize(version);
      const json r = client.request("tools/list");
      REQUIRE(r.contains("result"));
      CHECK(line_bytes(r) <= tools_list_budget);
    }
    McpClient stateless({{root.path().string(), "--host-profile", profile}});
    const json r = stateless.stateless_request("tools/list");
    REQUIRE(r.contains("result"));
    CHECK(line_bytes(r) <= tools_list_budget);
  }
  // --structured-content, off by default, adds an output schema to each tool on top of this.
}

TEST_CASE("tools/list: read_image is one line and names only the argument it needs") {
  TempDir root;
  McpClient client({{root.path().string()}});
  client.initialize();
  const json tools = client.request("tools/list")["result"]["tools"];
  REQUIRE(tools.size() == 2);
  const json& image = tools[1];
  CHECK(image["name"] == "read_image");
  CHECK(image["description"] == "The `read` tool under its older name: same arguments, same results.");
  CHECK(image["inputSchema"] == json{{"type", "object"},
                                     {"properties", {{"file_path", {{"type", "string"}}}}},
                                     {"required", {"file_path"}}});
  // Not a second copy of read's schema, yet read's arguments are taken.
  CHECK(image["inputSchema"] != tools[0]["inputSchema"]);
  CHECK(client.call("read_image", {{"file_path", "."}, {"limit", 1}}).value("isError", false) == false);
}
