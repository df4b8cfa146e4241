// Roots per identity (--oauth-roots): the policy file's parser, word for word in its refusals
// and warnings, and what roots a token's claims come to.
#include "roots_policy.hpp"

#include "fixtures.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <filesystem>

using namespace mcpread::server::auth;
using mcpread::readers::Roots;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

struct Tree {
  mcpread::test::TempDir dir;
  Roots server;
  Tree() {
    for (const char* d : {"home/alice", "home/bob", "shared", "home/a.b"}) fs::create_directories(dir.path() / d);
    std::string error;
    REQUIRE(Roots::from_paths({dir.path().string()}, &server, &error));
  }
  [[nodiscard]] std::string at(const std::string& relative) const { return (dir.path() / relative).string(); }
};

std::string refusal(const std::string& text, const Roots& server) {
  std::vector<std::string> warnings;
  auto parsed = RootsPolicy::parse(text, server, warnings);
  const auto* problem = std::get_if<std::string>(&parsed);
  return problem != nullptr ? *problem : std::string("(accepted)");
}

RootsPolicy accepted(const std::string& text, const Roots& server, std::vector<std::string>& warnings) {
  auto parsed = RootsPolicy::parse(text, server, warnings);
  REQUIRE(std::holds_alternative<RootsPolicy>(parsed));
  return std::get<RootsPolicy>(std::move(parsed));
}

}  // namespace

TEST_CASE("oauth roots: refusals of a bad policy, word for word") {
  const Tree t;
  CHECK(refusal("{", t.server) == "not valid JSON");
  CHECK(refusal("[]", t.server) == "the policy must be a JSON object with \"rules\"");
  CHECK(refusal("{}", t.server) == "\"rules\" must be an array");
  CHECK(refusal(R"({"rules":[], "extra":1})", t.server) == "unknown key \"extra\" (rules, groups_claim)");
  CHECK(refusal(R"({"rules":[], "groups_claim":""})", t.server) == "\"groups_claim\" must be a non-empty string");
  CHECK(refusal(R"({"rules":[3]})", t.server) == "rule 1: not a JSON object");
  CHECK(refusal(R"({"rules":[{"any":true,"roots":[]},{"roots":["/x"]}]})", t.server) ==
        "rule 2: needs exactly one of \"sub\", \"group\", \"email_domain\" or \"any\"");
  CHECK(refusal(R"({"rules":[{"sub":"a","group":"b","roots":[]}]})", t.server) ==
        "rule 1: needs exactly one of \"sub\", \"group\", \"email_domain\" or \"any\"");
  CHECK(refusal(R"({"rules":[{"any":false,"roots":[]}]})", t.server) == "rule 1: \"any\" must be true");
  CHECK(refusal(R"({"rules":[{"sub":"","roots":[]}]})", t.server) == "rule 1: \"sub\" must be a non-empty string");
  CHECK(refusal(R"({"rules":[{"group":7,"roots":[]}]})", t.server) == "rule 1: \"group\" must be a non-empty string");
  CHECK(refusal(R"({"rules":[{"sub":"a","root":[]}]})", t.server) ==
        "rule 1: unknown key \"root\" (sub, group, email_domain, any, roots)");
  CHECK(refusal(R"({"rules":[{"sub":"a"}]})", t.server) == "rule 1: \"roots\" must be an array of paths");
  CHECK(refusal(R"({"rules":[{"sub":"a","roots":[1]}]})", t.server) == "rule 1: \"roots\" must be an array of paths");
  CHECK(refusal(R"({"rules":[{"sub":"a","roots":["srv/a"]}]})", t.server) ==
        "rule 1: \"srv/a\" is not an absolute path");
  CHECK(refusal(R"({"rules":[{"sub":"a","roots":["/srv/{user}"]}]})", t.server) ==
        "rule 1: \"/srv/{user}\" has an unknown placeholder (only {sub} and {email_local})");
  CHECK(refusal(R"({"rules":[{"sub":"a","roots":["/srv/a}"]}]})", t.server) ==
        "rule 1: \"/srv/a}\" has a '}' without its '{'");
  CHECK(refusal(R"({"rules":[{"sub":"a","roots":["/srv/{sub}}"]}]})", t.server) ==
        "rule 1: \"/srv/{sub}}\" has a '}' without its '{'");
  CHECK(refusal(R"({"rules":[{"sub":"a","roots":["/srv/{sub"]}]})", t.server) ==
        "rule 1: \"/srv/{sub\" has an unknown placeholder (only {sub} and {email_local})");
}

TEST_CASE("oauth roots: a file that cannot be read, and one outside the server's roots") {
  const Tree t;
  std::vector<std::string> warnings;
  auto missing = RootsPolicy::load(t.at("none.json"), t.server, warnings);
  REQUIRE(std::holds_alternative<std::string>(missing));
  CHECK(std::get<std::string>(missing) == t.at("none.json") + ": cannot be read");
  mcpread::test::TempDir other;
  const auto path = t.dir.write("policy.json", R"({"rules":[{"sub":"alice","roots":[")" + t.at("home/alice") +
                                                  R"(", ")" + other.path().string() + R"("]}]})");
  auto loaded = RootsPolicy::load(path.string(), t.server, warnings);
  REQUIRE(std::holds_alternative<RootsPolicy>(loaded));
  CHECK(std::get<RootsPolicy>(loaded).rules().front().roots == std::vector<std::string>{t.at("home/alice")});
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0] == "rule 1: " + other.path().string() + " lies outside the server's roots (" +
                           t.server.describe() + "); dropped");
}

TEST_CASE("oauth roots: what a token's claims come to") {
  const Tree t;
  std::vector<std::string> warnings;
  const RootsPolicy policy = accepted(R"({"groups_claim":"roles","rules":[
      {"sub":"alice","roots":[")" + t.at("home/alice") + R"("]},
      {"group":"staff","roots":[")" + t.at("shared") + R"("]},
      {"email_domain":"Example.COM","roots":[")" + t.at("home/{sub}") + R"("]},
      {"email_domain":"mail.test","roots":[")" + t.at("home/{email_local}") + R"("]}]})",
                                      t.server, warnings);
  CHECK(warnings.empty());
  auto dirs = [&](const json& claims) { return policy.directories_for(claims, warnings); };
  auto roots = [&](const json& claims) { return policy.roots_for(claims, t.server, warnings).describe(); };

  SUBCASE("by sub, and no rule") {
    CHECK(dirs({{"sub", "alice"}}) == std::vector<std::string>{t.at("home/alice")});
    CHECK(dirs({{"sub", "carol"}}).empty());
    CHECK(roots({{"sub", "carol"}}) == "none");  // not the server's roots
    CHECK(roots(json::array()) == "none");
  }
  SUBCASE("by group, from the configured claim, a union with the sub's") {
    CHECK(roots({{"sub", "alice"}, {"roles", {"staff", "x"}}}) == t.at("home/alice") + ", " + t.at("shared"));
    CHECK(roots({{"sub", "carol"}, {"groups", {"staff"}}}) == "none");  // not the claim named
    CHECK(roots({{"sub", "carol"}, {"roles", "staff"}}) == t.at("shared"));
  }
  SUBCASE("by email domain with a template; email_verified false does not count") {
    CHECK(roots({{"sub", "bob"}, {"email", "Bob@example.com"}}) == t.at("home/bob"));
    CHECK(roots({{"sub", "bob"}, {"email", "bob@example.com"}, {"email_verified", false}}) == "none");
    CHECK(roots({{"sub", "bob"}, {"email", "bob@example.com"}, {"email_verified", true}}) == t.at("home/bob"));
    CHECK(roots({{"sub", "x"}, {"email", "a.b@mail.test"}}) == t.at("home/a.b"));
    CHECK(roots({{"sub", "ghost"}, {"email", "g@example.com"}}) == "none");  // its directory does not exist
    CHECK(warnings.empty());
  }
  SUBCASE("a template value that is not one safe path component: the rule does not apply") {
    for (const char* sub : {"..", ".", "", "a/b", "a\\b", "a\nb", "a\x7f"}) {
      warnings.clear();
      CHECK(dirs({{"sub", sub}, {"email", "x@example.com"}}).empty());
      REQUIRE(warnings.size() == 1);
      CHECK(warnings[0] == "the rule's root " + t.at("home/{sub}") +
                               " does not apply to this token: its {sub} is not one safe path component");
    }
    warnings.clear();
    CHECK(dirs({{"sub", "bob"}, {"email", "../x@mail.test"}}).empty());
    CHECK(warnings.size() == 1);
  }
  SUBCASE("a value that looks like a placeholder is taken as it is, never filled again") {
    CHECK(dirs({{"sub", "{email_local}"}, {"email", "x@example.com"}}) ==
          std::vector<std::string>{t.at("home/{email_local}")});
    CHECK(warnings.empty());
  }
}

TEST_CASE("oauth roots: safe path components") {
  CHECK(safe_path_component("alice"));
  CHECK(safe_path_component("a.b-c_d@e"));
  CHECK(safe_path_component("..."));
  CHECK_FALSE(safe_path_component(""));
  CHECK_FALSE(safe_path_component(".."));
  CHECK_FALSE(safe_path_component(std::string_view("a\0b", 3)));
  CHECK_FALSE(safe_path_component("a/b"));
}
