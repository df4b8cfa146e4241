// Token introspection (RFC 7662) without the network: which tokens are opaque, the request's
// encoding, every branch of an answer's checks, how long an active answer is reused, the
// lifetimes of kept tokens (the command-line options: test_cli.cpp).
#include "challenge.hpp"
#include "introspection.hpp"
#include "verified_tokens.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

using namespace mcpread::server::auth;
using nlohmann::json;

namespace {

const ClaimsPolicy policy{"https://as.example", "https://f.example/mcp", "files:read", 60};
constexpr std::int64_t now = 1'800'000'000;
const json active{{"active", true},        {"iss", "https://as.example"}, {"aud", "https://f.example/mcp"},
                  {"sub", "alice"},        {"scope", "openid files:read"}, {"exp", now + 100},
                  {"token_type", "Bearer"}, {"client_id", "app"}};

struct Checked {
  ClaimsResult result;
  json response;
};

Checked check(long status, const std::string& body) {
  Checked out;
  out.result = check_introspection(status, body, policy, now, out.response);
  return out;
}

Checked check(const json& answer) { return check(200, answer.dump()); }

json with(const char* name, json value) {
  json out = active;
  out[name] = std::move(value);
  return out;
}

json without(const char* name) {
  json out = active;
  out.erase(name);
  return out;
}

}  // namespace

TEST_CASE("oauth introspection: opaque tokens are those not shaped as a JWS") {
  CHECK(jwt_shaped("eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhIn0.c2ln"));
  CHECK(jwt_shaped("a.b."));  // alg none has an empty signature: still a JWT, refused by the JWT path
  CHECK_FALSE(jwt_shaped("s3cret"));
  CHECK_FALSE(jwt_shaped("a.b"));
  CHECK_FALSE(jwt_shaped("a.b.c.d"));
  CHECK_FALSE(jwt_shaped(".b.c"));
  CHECK_FALSE(jwt_shaped("a..c"));
  CHECK_FALSE(jwt_shaped("a.b+c.d"));  // '+' is base64, not base64url
  CHECK_FALSE(jwt_shaped("a.b.c="));
  CHECK_FALSE(jwt_shaped(""));
  CHECK_FALSE(jwt_shaped("RkVfJHeW8Ahz3yDBQj_rT2wsTGrXbNf1yJQh5ZyTkq1"));  // oidc-provider's opaque token
}

TEST_CASE("oauth introspection: the request's encoding") {
  CHECK(form_encode("aZ09-_.~") == "aZ09-_.~");
  CHECK(form_encode("a b+c/d=e&f%") == "a%20b%2Bc%2Fd%3De%26f%25");
  CHECK(form_encode("\xc3\xa9") == "%C3%A9");
  // RFC 7617's example, and a secret whose characters are form-encoded first (RFC 6749 2.3.1).
  CHECK(basic_authorization("Aladdin", "open sesame") == "Basic " "QWxhZGRpbjpvcGVuJTIwc2VzYW1l");
  CHECK(basic_authorization("mcp-read", "s3cret") == "Basic bWNwLXJlYWQ6czNjcmV0");
  CHECK(basic_authorization("a", "bc") == "Basic YTpiYw==");
  CHECK(basic_authorization("a", "b") == "Basic YTpi");
  CHECK(basic_authorization("ab", "cd") == "Basic YWI6Y2Q=");
  CHECK(basic_authorization("a:b", "c") == "Basic YSUzQWI6Yw==");  // a colon in the id is encoded
}

TEST_CASE("oauth introspection: an active token with the scope is valid, with the JWT path's identity") {
  const auto c = check(active);
  CHECK(c.result.verdict == ClaimsVerdict::valid);
  CHECK(c.result.sub == "alice");
  CHECK(c.result.issuer == "https://as.example");
  CHECK(c.result.why.empty());
  CHECK(c.response == active);
  REQUIRE(c.result.claims);  // what roots per identity match on
  CHECK(*c.result.claims == active);
  // aud as an array; iss, exp and token_type absent; the other token_type spelling; exp within the skew.
  for (const json& answer : {with("aud", json::array({"https://x.example", "https://f.example/mcp"})),
                             without("iss"), without("exp"), without("token_type"), with("token_type", "access_token"),
                             with("exp", now - 60), with("nbf", now + 60)}) {
    CAPTURE(answer.dump());
    const auto one = check(answer);
    CHECK(one.result.verdict == ClaimsVerdict::valid);
    CHECK(one.result.sub == "alice");
    CHECK(one.result.issuer == "https://as.example");
  }
}

TEST_CASE("oauth introspection: without sub, the client is the identity, as in a client-credentials JWT") {
  auto c = check(without("sub"));
  CHECK(c.result.verdict == ClaimsVerdict::valid);
  CHECK(c.result.sub == "app");
  CHECK(c.response["sub"] == "app");  // kept so, for the next use
  json neither = without("sub");
  neither.erase("client_id");
  c = check(neither);
  CHECK(c.result.verdict == ClaimsVerdict::valid);
  CHECK(c.result.sub.empty());
  c = check(with("sub", "alice"));  // a subject is never replaced by the client
  CHECK(c.result.sub == "alice");
}

TEST_CASE("oauth introspection: refused answers, each with its reason") {
  auto invalid = [](const json& answer, const std::string& why) {
    CAPTURE(answer.dump());
    const auto c = check(answer);
    CHECK(c.result.verdict == ClaimsVerdict::invalid);
    CHECK(c.result.why == why);
    CHECK(c.response.is_null());  // nothing to keep
  };
  invalid(json{{"active", false}}, "the token is not active");
  invalid(with("active", false), "the token is not active");
  invalid(with("aud", "https://other.example/mcp"), "aud does not name https://f.example/mcp");
  invalid(with("aud", json::array({"https://other.example/mcp"})), "aud does not name https://f.example/mcp");
  invalid(without("aud"), "aud does not name https://f.example/mcp");
  invalid(with("iss", "https://evil.example"), "iss is not https://as.example");
  invalid(with("iss", 7), "iss is not https://as.example");
  invalid(with("exp", now - 61), "the token expired");
  invalid(with("exp", "tomorrow"), "exp is missing");
  invalid(with("nbf", now + 61), "the token is not valid yet (nbf)");
  invalid(with("token_type", "refresh_token"), "the token is not a bearer access token (token_type \"refresh_token\")");
  invalid(with("token_type", "DPoP"), "the token is not a bearer access token (token_type \"DPoP\")");
  invalid(with("token_type", 1), "the token is not a bearer access token (token_type 1)");
  invalid(with("cnf", json{{"jkt", "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I"}}),
          "the token is sender-constrained (cnf), which this server cannot check");
}

TEST_CASE("oauth introspection: an active token without the scope is short of it, and kept") {
  for (const json& answer : {with("scope", "openid files:write"), without("scope"), with("scope", "files:reader")}) {
    CAPTURE(answer.dump());
    const auto c = check(answer);
    CHECK(c.result.verdict == ClaimsVerdict::insufficient_scope);
    CHECK(c.result.why == "the scope files:read is missing");
    CHECK(c.result.sub == "alice");
    CHECK(c.response == answer);
  }
}

TEST_CASE("oauth introspection: answers that are none are the authorization server's fault: unavailable") {
  auto unavailable = [](long status, const std::string& body, const std::string& why) {
    CAPTURE(status);
    CAPTURE(body);
    const auto c = check(status, body);
    CHECK(c.result.verdict == ClaimsVerdict::unavailable);
    CHECK(c.result.why == why);
    CHECK(c.response.is_null());
  };
  unavailable(500, active.dump(), "the introspection endpoint answered with HTTP status 500");
  unavailable(503, "", "the introspection endpoint answered with HTTP status 503");
  unavailable(401, R"({"error":"invalid_client"})", "the introspection endpoint answered with HTTP status 401");
  unavailable(302, "", "the introspection endpoint answered with HTTP status 302");
  unavailable(200, "{\"active\":true", "the introspection endpoint's answer is not a JSON object");
  unavailable(200, "<html>ok</html>", "the introspection endpoint's answer is not a JSON object");
  unavailable(200, "[true]", "the introspection endpoint's answer is not a JSON object");
  unavailable(200, "", "the introspection endpoint's answer is not a JSON object");
  unavailable(200, "{}", "the introspection endpoint's answer has no boolean \"active\"");
  unavailable(200, R"({"active":"true"})", "the introspection endpoint's answer has no boolean \"active\"");
  unavailable(200, R"({"active":1})", "the introspection endpoint's answer has no boolean \"active\"");
}

TEST_CASE("oauth introspection: how long an active answer is reused") {
  CHECK(reuse_seconds(json{{"exp", now + 100}}, now, 300) == 100);
  CHECK(reuse_seconds(json{{"exp", now + 1000}}, now, 300) == 300);
  CHECK(reuse_seconds(json{{"exp", now + 100}}, now, 0) == 0);
  CHECK(reuse_seconds(json{{"exp", now}}, now, 300) == 0);
  CHECK(reuse_seconds(json{{"exp", now - 30}}, now, 300) == 0);  // accepted within the skew, but not kept
  CHECK(reuse_seconds(json::object(), now, 300) == 300);          // no exp: the cap
  CHECK(reuse_seconds(json{{"exp", "soon"}}, now, 300) == 300);
  CHECK(reuse_seconds(json{{"exp", now + 100.7}}, now, 300) == 100);
}

TEST_CASE("oauth introspection: kept answers each for their own time; none for 0 s") {
  using Clock = VerifiedTokens::Clock;
  const auto t0 = Clock::now();
  VerifiedTokens kept;
  kept.keep("short", {"i", json{{"sub", "a"}}}, t0, std::chrono::seconds(5));
  kept.keep("long", {"i", json{{"sub", "b"}}}, t0, std::chrono::seconds(300));
  kept.keep("never", {"i", json{{"sub", "c"}}}, t0, std::chrono::seconds(0));
  CHECK(kept.size() == 2);
  CHECK(kept.find("short", t0 + std::chrono::seconds(4)).has_value());
  CHECK_FALSE(kept.find("short", t0 + std::chrono::seconds(5)).has_value());
  CHECK(kept.find("long", t0 + std::chrono::seconds(299))->payload == json{{"sub", "b"}});
  CHECK_FALSE(kept.find("long", t0 + std::chrono::seconds(300)).has_value());
  CHECK_FALSE(kept.find("never", t0).has_value());
}

TEST_CASE("oauth introspection: the 503 names the introspection endpoint, not the keys") {
  const Refusal r = Challenge::introspection_unavailable();
  CHECK(r.status == 503);
  CHECK(r.headers == std::vector<std::pair<std::string, std::string>>{{"Retry-After", "5"}});
  CHECK(r.message == "Service Unavailable: access tokens cannot be checked now, since the authorization server's "
                     "introspection endpoint did not answer as it should; try again shortly (the server's log says "
                     "why)");
}
