// --stateless-roots through the binary: a stateless 2026-07-28 read is confined to the roots the
// client gives in answer to the server's roots/list input request; -32021 when they are required
// and the client cannot give them.
#include "fixtures.hpp"
#include "mcp_client.hpp"

#include <doctest/doctest.h>

using namespace mcpread::test;
using nlohmann::json;

namespace {

json read_params(const std::filesystem::path& file, json caps = json::object(), json responses = nullptr) {
  json params{{"name", "read"},
              {"arguments", {{"file_path", file.string()}}},
              {"_meta", {{"io.modelcontextprotocol/clientCapabilities", std::move(caps)}}}};
  if (!responses.is_null()) params["inputResponses"] = std::move(responses);
  return params;
}

}  // namespace

TEST_CASE("stateless roots: ask, then read within the client's roots only") {
  TempDir root;
  const auto inside = root.write("project/notes.txt", "inside the client's root\n");
  const auto outside = root.write("private/secret.txt", "outside it\n");
  McpClient client({{"--stateless-roots", "ask", root.path().string()}});
  const json caps{{"roots", json::object()}};

  const json first = client.stateless_request("tools/call", read_params(inside, caps));
  REQUIRE_MESSAGE(first.contains("result"), first.dump());
  CHECK(first["result"]["resultType"] == "input_required");
  CHECK(first["result"]["inputRequests"]["roots"]["method"] == "roots/list");
  REQUIRE(first["result"]["requestState"].is_string());

  const json answer{{"roots", {{"roots", json::array({{{"uri", file_uri(root.path() / "project")}}})}}}};
  json sealed = read_params(inside, caps, answer);
  sealed["requestState"] = first["result"]["requestState"];
  const json ok = client.stateless_request("tools/call", sealed);
  REQUIRE_MESSAGE(ok.contains("result"), ok.dump());
  CHECK(ok["result"]["resultType"] == "complete");
  CHECK(ok["result"]["content"][0]["text"].get<std::string>().find("     1\tinside the client's root") !=
        std::string::npos);

  // The state belongs to the read of `inside`: it does not open a read of another file.
  json moved = read_params(outside, caps, answer);
  moved["requestState"] = first["result"]["requestState"];
  const json replayed = client.stateless_request("tools/call", moved);
  REQUIRE(replayed.contains("error"));
  CHECK(replayed["error"]["code"] == -32602);
  CHECK(replayed["error"]["message"].get<std::string>().find("requestState was issued for other arguments") !=
        std::string::npos);

  const json refused = client.stateless_request("tools/call", read_params(outside, caps, answer));
  REQUIRE(refused.contains("result"));
  CHECK(refused["result"]["isError"] == true);
  CHECK(refused["result"]["content"][0]["text"].get<std::string>().find("outside the allowed roots") !=
        std::string::npos);

  // A client without the roots capability is served within the server's roots.
  const json plain = client.stateless_request("tools/call", read_params(outside));
  CHECK(plain["result"]["resultType"] == "complete");
  CHECK_FALSE(plain["result"].value("isError", false));
}

TEST_CASE("stateless roots: require refuses a client without the roots capability") {
  TempDir root;
  const auto file = root.write("a.txt", "a\n");
  McpClient client({{"--stateless-roots", "require", root.path().string()}});
  const json refused = client.stateless_request("tools/call", read_params(file));
  REQUIRE(refused.contains("error"));
  CHECK(refused["error"]["code"] == -32021);
  CHECK(refused["error"]["data"]["requiredCapabilities"] == json{{"roots", json::object()}});
  // Listing tools reads no file: not held back.
  CHECK(client.stateless_request("tools/list").contains("result"));
}
