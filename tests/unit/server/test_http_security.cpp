// Who may talk to the HTTP server: loopback Host names, browser Origins, the bearer token.
#include "http/security.hpp"

#include <doctest/doctest.h>

using namespace mcpread::server::http;

TEST_CASE("http security: loopback names and Host headers") {
  for (const char* host : {"localhost", "LOCALHOST", "127.0.0.1", "127.1.2.3", "::1", "[::1]", "app.localhost"})
    CHECK_MESSAGE(is_loopback_host(host), host);
  for (const char* host : {"evil.example.com", "127.0.0.1.evil.com", "128.0.0.1", "0.0.0.0", "localhost.evil", ""})
    CHECK_FALSE_MESSAGE(is_loopback_host(host), host);
  CHECK(host_of("localhost:8080") == "localhost");
  CHECK(host_of("[::1]:9") == "::1");
  CHECK(host_of("::1") == "::1");
  CHECK(host_of("example.com") == "example.com");
}

TEST_CASE("http security: origins") {
  AccessPolicy policy;
  SUBCASE("localhost origins always pass") {
    for (const char* o : {"http://localhost", "http://localhost:6274", "https://127.0.0.1:1", "http://[::1]:3000/"})
      CHECK_MESSAGE(origin_allowed(o, policy), o);
  }
  SUBCASE("others do not, unless allowed") {
    for (const char* o : {"http://evil.example.com", "null", "file://", "http://localhost.evil.com",
                          "http://user@localhost:1", "ftp://localhost"})
      CHECK_FALSE_MESSAGE(origin_allowed(o, policy), o);
    policy.allowed_origins = {"https://app.example"};
    CHECK(origin_allowed("https://app.example", policy));
    CHECK(origin_allowed("HTTPS://APP.EXAMPLE/", policy));
    CHECK_FALSE(origin_allowed("https://app.example.evil", policy));
  }
}

TEST_CASE("http security: check_access") {
  AccessPolicy policy;
  SUBCASE("a foreign Host is refused on a loopback listener (DNS rebinding)") {
    auto denied = check_access(policy, "evil.example.com", std::nullopt, std::nullopt);
    REQUIRE(denied);
    CHECK(denied->status == 403);
    CHECK(denied->message == "Forbidden: Host 'evil.example.com' is not a loopback name; this server listens "
                             "on loopback only (DNS rebinding protection)");
    CHECK_FALSE(check_access(policy, "127.0.0.1:8080", std::nullopt, std::nullopt));
  }
  SUBCASE("no Host: 400") {
    auto denied = check_access(policy, std::nullopt, std::nullopt, std::nullopt);
    REQUIRE(denied);
    CHECK(denied->status == 400);
  }
  SUBCASE("any Host when listening beyond loopback; the Origin still counts") {
    policy.loopback_only = false;
    CHECK_FALSE(check_access(policy, "files.example.com", std::nullopt, std::nullopt));
    auto denied = check_access(policy, "files.example.com", "http://evil.example.com", std::nullopt);
    REQUIRE(denied);
    CHECK(denied->status == 403);
    CHECK(denied->message == "Forbidden: Origin 'http://evil.example.com' is not allowed; start the server "
                             "with --allow-origin http://evil.example.com to accept it");
  }
  SUBCASE("the bearer token") {
    policy.auth_token = "s3cret";
    auto none = check_access(policy, "localhost", std::nullopt, std::nullopt);
    REQUIRE(none);
    CHECK(none->status == 401);
    CHECK(none->message == "Unauthorized: send \"Authorization: Bearer <token>\"");
    auto wrong = check_access(policy, "localhost", std::nullopt, "Bearer s3cres");
    REQUIRE(wrong);
    CHECK(wrong->message == "Unauthorized: the bearer token is not valid");
    CHECK(check_access(policy, "localhost", std::nullopt, "Bearer s3cret!"));
    CHECK(check_access(policy, "localhost", std::nullopt, "Basic s3cret"));
    CHECK_FALSE(check_access(policy, "localhost", std::nullopt, "Bearer s3cret"));
    CHECK_FALSE(check_access(policy, "localhost", std::nullopt, "bearer s3cret"));
  }
}

TEST_CASE("http security: constant_time_equal") {
  CHECK(constant_time_equal("", ""));
  CHECK(constant_time_equal("abc", "abc"));
  CHECK_FALSE(constant_time_equal("abc", "abd"));
  CHECK_FALSE(constant_time_equal("abc", "abcd"));
  CHECK_FALSE(constant_time_equal("abcd", "abc"));
  CHECK_FALSE(constant_time_equal("", "a"));
}
