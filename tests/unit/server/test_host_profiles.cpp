// Host profiles: the built-in data, selection by the client's name, a user file that adds or
// replaces profiles, and the errors that name what is wrong.
#include "fixtures.hpp"
#include "mcpread/server/host_profile.hpp"

#include <doctest/doctest.h>

#include <string>
#include <variant>

using namespace mcpread;
using server::HostProfile;
using server::HostProfiles;

namespace {

std::string load_error(const std::string& file) {
  auto loaded = HostProfiles::load(file);
  REQUIRE(std::holds_alternative<std::string>(loaded));
  return std::get<std::string>(loaded);
}

}  // namespace

TEST_CASE("host profiles: the built-in ones") {
  const HostProfiles profiles = HostProfiles::builtin();
  REQUIRE(profiles.all().size() >= 5);
  CHECK(profiles.all().front().name == "generic");
  for (const auto& p : profiles.all()) {
    CAPTURE(p.name);
    CHECK_FALSE(p.description.empty());
    if (p.name != "generic") {
      CHECK_FALSE(p.measured_on.empty());  // every number comes from a measured host version
      CHECK_FALSE(p.client_names.empty());
    }
  }
  const HostProfile& generic = profiles.all().front();
  CHECK(generic.pdf == HostProfile::Pdf::blob);
  CHECK(generic.audio == HostProfile::Audio::block);
  CHECK(generic.keeps_is_error);
  CHECK(generic.tool_meta.empty());
  // A host told to pass results up to a size gets answers capped below it, notes included.
  const HostProfile& claude = profiles.select({"claude-code", ""});
  REQUIRE(claude.tool_meta.contains("anthropic/maxResultSizeChars"));
  CHECK(claude.text_max_chars == 196000);
  CHECK(claude.text_max_chars + 2000 <= claude.tool_meta["anthropic/maxResultSizeChars"].get<std::size_t>());
}

TEST_CASE("host profiles: selection") {
  HostProfiles profiles = HostProfiles::builtin();
  SUBCASE("by the clientInfo name, case-insensitively") {
    CHECK(profiles.select({"claude-code", "2.1.330"}).name == "claude-code");
    CHECK(profiles.select({"Claude-Code", ""}).name == "claude-code");
    CHECK(profiles.select({"gemini-cli-mcp-client", "0.61.0"}).name == "gemini-cli");
    CHECK(profiles.select({"codex-mcp-client", "0.169.0"}).name == "codex");
    CHECK(profiles.select({"ai-sdk-mcp-client", "1.0.0"}).name == "ai-sdk");
  }
  SUBCASE("unknown or silent clients get generic") {
    CHECK(profiles.select({"mcp-inspector", "0.15.0"}).name == "generic");
    CHECK(profiles.select({}).name == "generic");
  }
  SUBCASE("a forced profile wins over the name, auto goes back to choosing") {
    REQUIRE(profiles.force("codex"));
    CHECK(profiles.select({"claude-code", ""}).name == "codex");
    CHECK_FALSE(profiles.force("no-such-host"));
    CHECK(profiles.select({}).name == "codex");
    REQUIRE(profiles.force("auto"));
    CHECK(profiles.select({"claude-code", ""}).name == "claude-code");
  }
}

TEST_CASE("host profiles: a user file") {
  test::TempDir dir;
  SUBCASE("adds a profile, starting from generic, and replaces one field of a built-in") {
    dir.write("hosts.json", R"({"profiles": [
      {"name": "my-ide", "description": "d", "client_names": ["my-ide-client"], "text_max_chars": 20000,
       "audio": "describe"},
      {"name": "claude-code", "text_max_chars": 30000}
    ]})");
    auto loaded = HostProfiles::load((dir.path() / "hosts.json").string());
    REQUIRE(std::holds_alternative<HostProfiles>(loaded));
    const auto& profiles = std::get<HostProfiles>(loaded);
    const HostProfile& mine = profiles.select({"my-ide-client", ""});
    CHECK(mine.name == "my-ide");
    CHECK(mine.text_max_chars == 20000);
    CHECK(mine.audio == HostProfile::Audio::describe);
    CHECK(mine.pdf == HostProfile::Pdf::blob);  // not said: generic's
    const HostProfile& claude = profiles.select({"claude-code", ""});
    CHECK(claude.text_max_chars == 30000);
    CHECK(claude.pdf == HostProfile::Pdf::text_and_page_images);  // kept from the built-in
    CHECK(claude.tool_meta.contains("anthropic/maxResultSizeChars"));
  }
  SUBCASE("errors say which file, which profile and what") {
    const std::string path = (dir.path() / "bad.json").string();
    CHECK(load_error((dir.path() / "missing.json").string()) ==
          "cannot read the host profiles file " + (dir.path() / "missing.json").string());
    dir.write("bad.json", "{not json");
    CHECK(load_error(path) == path + " is not valid JSON");
    dir.write("bad.json", R"({"hosts": []})");
    CHECK(load_error(path) == path + " needs a \"profiles\" array");
    dir.write("bad.json", R"({"profiles": [{"name": "x", "pdf": "fax"}]})");
    CHECK(load_error(path) ==
          path + ", profile \"x\": \"pdf\" must be blob, text or text_and_page_images, not \"fax\"");
    dir.write("bad.json", R"({"profiles": [{"name": "x", "colour": "red"}]})");
    CHECK(load_error(path) == path + ", profile \"x\": unknown field \"colour\"");
    dir.write("bad.json", R"({"profiles": [{"text_max_chars": 5}]})");
    CHECK(load_error(path) == path + ", profile without a name: a profile needs a \"name\"");
    dir.write("bad.json", R"({"profiles": [{"name": "x", "text_max_chars": "many"}]})");
    CHECK(load_error(path).rfind(path + ", profile \"x\": a field has the wrong type", 0) == 0);
  }
  SUBCASE("a declared result size needs the text capped below it") {
    const std::string path = (dir.path() / "size.json").string();
    const std::string too_big = ", profile \"x\": \"text_max_chars\" must be set, at most 98000 (the tool_meta's "
                                "anthropic/maxResultSizeChars less 2000 characters for an answer's notes), so that "
                                "no answer is longer than the host passes on";
    dir.write("size.json", R"({"profiles": [{"name": "x", "tool_meta": {"anthropic/maxResultSizeChars": 100000}}]})");
    CHECK(load_error(path) == path + too_big);
    dir.write("size.json", R"({"profiles": [{"name": "x", "text_max_chars": 99000,
      "tool_meta": {"anthropic/maxResultSizeChars": 100000}}]})");
    CHECK(load_error(path) == path + too_big);
    dir.write("size.json", R"({"profiles": [{"name": "x", "tool_meta": {"anthropic/maxResultSizeChars": "big"}}]})");
    CHECK(load_error(path) == path + ", profile \"x\": \"tool_meta\"'s \"anthropic/maxResultSizeChars\" must be a count of characters");
    // Lowering the built-in's declared size below its cap is refused; with a cap to match it loads.
    dir.write("size.json", R"({"profiles": [{"name": "claude-code", "tool_meta": {"anthropic/maxResultSizeChars": 100000}}]})");
    CHECK(load_error(path).find("\"text_max_chars\" must be set, at most 98000") != std::string::npos);
    dir.write("size.json", R"({"profiles": [{"name": "claude-code", "text_max_chars": 98000,
      "tool_meta": {"anthropic/maxResultSizeChars": 100000}}]})");
    CHECK(std::holds_alternative<HostProfiles>(HostProfiles::load(path)));
  }
}
