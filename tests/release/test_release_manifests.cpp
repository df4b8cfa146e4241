// The release manifests (npm package.json, the .mcpb manifest.json, the MCP Registry's
// server.json): each at the project's version, and server.json valid against the registry's
// published schema (packaging/registry/server.schema.json).
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <string>

#include "schema_validator.hpp"

namespace {

using nlohmann::json;

const std::string source_dir = MCPREAD_SOURCE_DIR;
const std::string version = MCPREAD_PROJECT_VERSION;
const std::string schema = source_dir + "/packaging/registry/server.schema.json";

json load(const std::string& relative) {
  std::ifstream in(source_dir + "/" + relative);
  REQUIRE_MESSAGE(in.good(), relative);
  return json::parse(in);
}

}  // namespace

TEST_CASE("server.json is valid against the MCP Registry's schema") {
  json entry = load("packaging/registry/server.json");
  CHECK(mcpread::test::schema_file_errors(schema, entry) == "");
  CHECK(entry["$schema"] == "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json");
  CHECK(load("packaging/registry/server.schema.json")["$id"] == entry["$schema"]);

  SUBCASE("the schema catches what the registry refuses") {
    entry["description"] = std::string(101, 'x');
    entry["packages"][0]["version"] = "latest";
    entry["packages"][1]["fileSha256"] = "not a hash";
    CHECK(mcpread::test::schema_file_errors(schema, entry) ==
          "<root>[description]: String should be no more than 100 characters in length.\n"
          "<root>: Failed to validate against schema associated with property name 'description'.\n"
          "<root>[packages][0][version]: Target should not validate against schema specified in 'not' constraint.\n"
          "<root>[packages][0]: Failed to validate against schema associated with property name 'version'.\n"
          "<root>[packages]: Failed to validate item #0 in array.\n"
          "<root>[packages][1][fileSha256]: Failed to match regex specified by 'pattern' constraint.\n"
          "<root>[packages][1]: Failed to validate against schema associated with property name 'fileSha256'.\n"
          "<root>[packages]: Failed to validate item #1 in array.\n"
          "<root>: Failed to validate against schema associated with property name 'packages'.");
  }
}

TEST_CASE("the release manifests carry the project's version") {
  const json entry = load("packaging/registry/server.json");
  CHECK(entry["version"] == version);
  for (const json& package : entry["packages"]) {
    CAPTURE(package["identifier"].get<std::string>());
    CHECK(package["version"] == version);
    if (package["registryType"] == "mcpb") {
      const std::string url = package["identifier"];
      const std::string name = url.substr(url.rfind('/') + 1);
      const std::string stem = "mcp-read-" + version + "-";
      CHECK(url.find("/v" + version + "/") != std::string::npos);
      CHECK((name == stem + "linux-x64.mcpb" || name == stem + "linux-arm64.mcpb" ||
             name == stem + "win32-x64.mcpb"));
    }
  }
  const json npm = load("packaging/npm/mcp-read/package.json");
  CHECK(npm["version"] == version);
  CHECK(npm["optionalDependencies"] == json{{"@mcp-read/linux-x64", version},
                                            {"@mcp-read/linux-arm64", version},
                                            {"@mcp-read/win32-x64", version}});
  CHECK(load("packaging/mcpb/manifest.json")["version"] == version);
}

TEST_CASE("the registry entry, the npm package and the .mcpb name the same server") {
  const json entry = load("packaging/registry/server.json");
  const json npm = load("packaging/npm/mcp-read/package.json");
  const json mcpb = load("packaging/mcpb/manifest.json");
  // The registry accepts an npm package only when its mcpName is the entry's name.
  CHECK(npm["mcpName"] == entry["name"]);
  CHECK(entry["packages"][0]["identifier"] == npm["name"]);
  CHECK(npm["repository"]["url"] == "git+" + entry["repository"]["url"].get<std::string>() + ".git");
  CHECK(mcpb["repository"]["url"] == entry["repository"]["url"].get<std::string>() + ".git");
  CHECK(mcpb["server"]["type"] == "binary");
  CHECK(mcpb["compatibility"]["platforms"] == json{"linux"});
}
