// The OAuth resource server's parts that need no network: canonical URIs, the metadata document
// and where it is served, the challenges, the claim checks, the issuer's metadata URLs, the
// tokens verified lately.
#include "challenge.hpp"
#include "claims.hpp"
#include "resource_metadata.hpp"
#include "token_verifier.hpp"
#include "verified_tokens.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

using namespace mcpread::server::auth;
using nlohmann::json;

TEST_CASE("oauth: canonical resource URIs and issuers") {
  CHECK(canonical_resource_uri("HTTPS://Files.EXAMPLE.com/MCP/") == "https://files.example.com/MCP");
  CHECK(canonical_resource_uri("https://files.example.com:8443") == "https://files.example.com:8443");
  CHECK(canonical_resource_uri("http://[::1]:80/mcp") == "http://[::1]:80/mcp");
  CHECK_FALSE(canonical_resource_uri("https://x.example/mcp#part"));
  CHECK_FALSE(canonical_resource_uri("ftp://x.example/mcp"));
  CHECK_FALSE(canonical_resource_uri("https://user@x.example/mcp"));
  CHECK_FALSE(canonical_resource_uri("https://x.example/m\"cp"));
  CHECK_FALSE(canonical_resource_uri("/mcp"));
  CHECK(checked_issuer("https://as.example/realms/team") == "https://as.example/realms/team");
  CHECK(checked_issuer("http://localhost:8080") == "http://localhost:8080");
  CHECK(checked_issuer("http://127.0.0.1:8080/") == "http://127.0.0.1:8080/");
  CHECK_FALSE(checked_issuer("http://as.example"));
  CHECK_FALSE(checked_issuer("http://127.evil.example"));  // a name, not a loopback address
  CHECK_FALSE(checked_issuer("https://as.example/?tenant=1"));
  CHECK(resource_uri_for_listener("127.0.0.1", 8080) == "http://127.0.0.1:8080/mcp");
  CHECK(resource_uri_for_listener("::1", 8080) == "http://[::1]:8080/mcp");
  CHECK(resource_uri_for_listener("Files.Example.com", 80) == "http://files.example.com:80/mcp");
  CHECK_FALSE(resource_uri_for_listener("0.0.0.0", 8080));
  CHECK_FALSE(resource_uri_for_listener("::", 8080));
}

TEST_CASE("oauth: the protected-resource metadata") {
  const ResourceMetadata m("https://files.example.com/team/mcp", {"https://a.example", "https://b.example"},
                           "files:read");
  CHECK(m.url() == "https://files.example.com/.well-known/oauth-protected-resource/team/mcp");
  CHECK(m.serves("/.well-known/oauth-protected-resource"));
  CHECK(m.serves("/.well-known/oauth-protected-resource/team/mcp"));
  CHECK_FALSE(m.serves("/.well-known/oauth-protected-resource/mcp"));
  CHECK_FALSE(m.serves("/.well-known/oauth-protected-resource/team/mcp/x"));
  CHECK(m.document() ==
        R"({"authorization_servers":["https://a.example","https://b.example"],"bearer_methods_supported":["header"],)"
        R"("resource":"https://files.example.com/team/mcp","scopes_supported":["files:read"]})");
  const ResourceMetadata root("https://files.example.com", {"https://a.example"}, "s");
  CHECK(root.url() == "https://files.example.com/.well-known/oauth-protected-resource");
  CHECK(root.serves("/.well-known/oauth-protected-resource"));
  CHECK_FALSE(root.serves("/.well-known/oauth-protected-resource/"));
}

TEST_CASE("oauth: challenges") {
  const Challenge c("https://f.example/.well-known/oauth-protected-resource/mcp", "files:read");
  const std::string base = "Bearer resource_metadata=\"https://f.example/.well-known/oauth-protected-resource/mcp\", "
                           "scope=\"files:read\"";
  CHECK(c.missing_token().status == 401);
  using Headers = std::vector<std::pair<std::string, std::string>>;
  CHECK(c.missing_token().headers == Headers{{"WWW-Authenticate", base}});
  CHECK(c.invalid_token().status == 401);
  CHECK(c.invalid_token().headers == Headers{{"WWW-Authenticate", base + ", error=\"invalid_token\""}});
  CHECK(c.insufficient_scope().status == 403);
  CHECK(c.insufficient_scope().headers == Headers{{"WWW-Authenticate", base + ", error=\"insufficient_scope\""}});
  CHECK(Challenge::unavailable().status == 503);
  CHECK(Challenge::unavailable().headers == Headers{{"Retry-After", "5"}});
}

TEST_CASE("oauth: claim checks") {
  const ClaimsPolicy policy{"https://as.example", "https://f.example/mcp", "files:read", 60};
  const std::int64_t now = 1'800'000'000;
  const json good{{"iss", "https://as.example"}, {"aud", "https://f.example/mcp"}, {"sub", "alice"},
                  {"scope", "files:read"},       {"exp", now + 10}};
  auto with = [&good](const char* claim, json value) {
    json out = good;
    out[claim] = std::move(value);
    return out;
  };
  auto verdict = [&](const json& payload) { return check_claims(payload, policy, now).verdict; };
  const auto r = check_claims(good, policy, now);
  CHECK(r.verdict == ClaimsVerdict::valid);
  CHECK(r.sub == "alice");
  CHECK(verdict(with("aud", json::array({"x", "https://f.example/mcp"}))) == ClaimsVerdict::valid);
  CHECK(verdict(with("exp", now - 60)) == ClaimsVerdict::valid);
  CHECK(verdict(with("exp", now - 61)) == ClaimsVerdict::invalid);
  CHECK(verdict(with("nbf", now + 60)) == ClaimsVerdict::valid);
  CHECK(verdict(with("nbf", now + 61)) == ClaimsVerdict::invalid);
  CHECK(verdict(with("nbf", "soon")) == ClaimsVerdict::invalid);
  CHECK(verdict(with("exp", "later")) == ClaimsVerdict::invalid);
  CHECK(verdict(with("iss", "https://as.example/")) == ClaimsVerdict::invalid);
  CHECK(verdict(with("aud", "https://f.example/mcp/")) == ClaimsVerdict::invalid);
  CHECK(verdict(with("aud", json::array())) == ClaimsVerdict::invalid);
  CHECK(verdict(with("scope", "files:reader files:write")) == ClaimsVerdict::insufficient_scope);
  CHECK(verdict(with("scope", "a files:read b")) == ClaimsVerdict::valid);
  CHECK(verdict(with("scp", json::array({"files:read"}))) == ClaimsVerdict::valid);  // scope too
  json no_exp = good;
  no_exp.erase("exp");
  CHECK(verdict(no_exp) == ClaimsVerdict::invalid);
  CHECK(verdict(json::array()) == ClaimsVerdict::invalid);
  CHECK(accepted_algorithm("RS256"));
  CHECK(accepted_algorithm("PS256"));
  CHECK(accepted_algorithm("ES256"));
  CHECK_FALSE(accepted_algorithm("none"));
  CHECK_FALSE(accepted_algorithm("HS256"));
  CHECK_FALSE(accepted_algorithm("rs256"));
}

TEST_CASE("oauth: the JWS typ of an access token") {
  for (const char* typ : {"at+jwt", "application/at+jwt", "JWT", "jwt", "AT+JWT"}) {
    CAPTURE(typ);
    CHECK(access_token_type(typ));
  }
  for (const json& typ : {json("logout+jwt"), json("secevent+jwt"), json("dpop+jwt"), json("JOSE"), json(""),
                          json(1), json(nullptr)}) {
    CAPTURE(typ.dump());
    CHECK_FALSE(access_token_type(typ));
  }
}

TEST_CASE("oauth: where an issuer's metadata is looked for") {
  CHECK(metadata_urls("https://as.example") ==
        std::vector<std::string>{"https://as.example/.well-known/oauth-authorization-server",
                                 "https://as.example/.well-known/openid-configuration"});
  CHECK(metadata_urls("https://as.example/realms/team/") ==
        std::vector<std::string>{"https://as.example/.well-known/oauth-authorization-server/realms/team",
                                 "https://as.example/realms/team/.well-known/openid-configuration"});
}

TEST_CASE("oauth: tokens verified lately") {
  using Clock = VerifiedTokens::Clock;
  const auto t0 = Clock::now();
  VerifiedTokens tokens(3);
  tokens.keep("a.b.c", {"https://as.example", json{{"sub", "alice"}}}, t0);

  SUBCASE("found with its issuer and payload for 60 s, then no more") {
    const auto found = tokens.find("a.b.c", t0 + std::chrono::seconds(59));
    REQUIRE(found.has_value());
    CHECK(found->issuer == "https://as.example");
    CHECK(found->payload == json{{"sub", "alice"}});
    CHECK_FALSE(tokens.find("a.b.c", t0 + std::chrono::seconds(60)).has_value());
    CHECK(tokens.size() == 0);  // dropped when found run out
    CHECK_FALSE(tokens.find("a.b.d", t0).has_value());
  }
  SUBCASE("bounded: the oldest goes first; what ran out goes before it") {
    tokens.keep("t2", {"i", json{}}, t0 + std::chrono::seconds(1));
    tokens.keep("t3", {"i", json{}}, t0 + std::chrono::seconds(2));
    tokens.keep("t4", {"i", json{}}, t0 + std::chrono::seconds(3));
    CHECK(tokens.size() == 3);
    CHECK_FALSE(tokens.find("a.b.c", t0 + std::chrono::seconds(3)).has_value());
    CHECK(tokens.find("t2", t0 + std::chrono::seconds(3)).has_value());
    const auto later = t0 + std::chrono::milliseconds(61500);  // t2 has run out, t3 not yet
    tokens.keep("t5", {"i", json{}}, later);
    CHECK(tokens.size() == 3);
    CHECK_FALSE(tokens.find("t2", t0 + std::chrono::seconds(3)).has_value());
    CHECK(tokens.find("t3", t0 + std::chrono::seconds(3)).has_value());
    CHECK(tokens.find("t5", later).has_value());
  }
  SUBCASE("kept again: its time starts again") {
    tokens.keep("a.b.c", {"https://as.example", json{{"sub", "alice"}}}, t0 + std::chrono::seconds(50));
    CHECK(tokens.find("a.b.c", t0 + std::chrono::seconds(100)).has_value());
    CHECK(tokens.size() == 1);
  }
}
