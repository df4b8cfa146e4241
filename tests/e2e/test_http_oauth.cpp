// OAuth 2.1 resource server mode (--oauth-issuer): the protected-resource metadata (RFC 9728),
// the challenges of RFC 6750, and JWT access tokens checked against an authorization server's
// keys. The authorization server here is a static one: Python's http.server on 127.0.0.1 serving
// an RFC 8414 metadata document and a JWKS that the test writes; the test signs tokens itself.
#include "fixtures.hpp"
#include "http_client.hpp"
#include "oauth_helpers.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <ctime>
#include <memory>
#include <string>
#include <vector>

using namespace mcpread::test;
using namespace mcpread::test::http;
using nlohmann::json;

TEST_CASE("http oauth: metadata, challenges, and JWT access tokens checked against the issuer's keys") {
  AuthServer as;
  const Key rsa("RS256", "rsa-1");
  const Key pss("PS256", "pss-1");
  const Key ec("ES256", "ec-1");
  as.publish({&rsa, &pss, &ec});
  TempDir root;
  root.write("notes.txt", "note\n");
  ServerProcess server({root.path().string(), "--oauth-issuer", as.issuer(), "--log-level", "debug"});
  const std::string resource = "http://127.0.0.1:" + std::to_string(server.port()) + "/mcp";
  const std::string metadata_url =
      "http://127.0.0.1:" + std::to_string(server.port()) + "/.well-known/oauth-protected-resource/mcp";
  const std::string challenge = "Bearer resource_metadata=\"" + metadata_url + "\", scope=\"files:read\"";
  const json good{{"iss", as.issuer()}, {"sub", "alice"},     {"aud", resource},
                  {"scope", "openid files:read"}, {"iat", now()}, {"exp", now() + 300}};
  Client client(server.port());

  SUBCASE("the protected-resource metadata, without a token, at both well-known paths") {
    const std::string expected = "{\"authorization_servers\":[\"" + as.issuer() +
                                 "\"],\"bearer_methods_supported\":[\"header\"],\"resource\":\"" + resource +
                                 "\",\"scopes_supported\":[\"files:read\"]}";
    for (const char* path : {"/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"}) {
      const Reply r = client.send("GET", path);
      CHECK(r.status == 200);
      CHECK(r.body == expected);
      CHECK(r.header("Content-Type") == "application/json");
    }
    CHECK(client.send("GET", "/.well-known/oauth-protected-resource/other").status == 404);
    const Reply head = client.send("HEAD", "/.well-known/oauth-protected-resource");
    CHECK(head.status == 200);
    CHECK(head.body.empty());
    CHECK(head.header("Content-Length") == std::to_string(expected.size()));
    CHECK(client.send("GET", "/.well-known/oauth-protected-resource").body == expected);  // same connection
  }

  SUBCASE("no token: 401 naming the metadata and the scope, on /mcp and /sse") {
    Reply r = discover(client, "");
    expect_rpc_error(r, 401, -32600,
                     "Unauthorized: send \"Authorization: Bearer <access token>\" from an authorization server "
                     "named at " + metadata_url);
    CHECK(r.header("WWW-Authenticate") == challenge);
    r = client.send("GET", "/sse", {{"Accept", "text/event-stream"}});
    CHECK(r.status == 401);
    CHECK(r.header("WWW-Authenticate") == challenge);
    r = client.send("POST", "/mcp", post_headers({{"Authorization", "Basic YWxpY2U6eA=="}}), discover_request());
    CHECK(r.status == 401);
    CHECK(r.header("WWW-Authenticate") == challenge);
  }

  SUBCASE("a valid token: served, with each accepted algorithm; a read through a session") {
    for (const Key* key : {&rsa, &pss, &ec}) {
      CAPTURE(key->public_jwk()["alg"]);
      CHECK(discover(client, key->sign(good)).status == 200);
    }
    McpHttp mcp(server.port(), {{"Authorization", "Bearer " + rsa.sign(good)}});
    mcp.initialize();
    CHECK(mcp.call("read", {{"file_path", "notes.txt"}})["content"][0]["text"].get<std::string>().rfind("     1\tnote\n", 0) == 0);
    // Expired 30 s ago and not valid for 30 s more: within the 60 s allowed for clocks apart.
    json skewed = good;
    skewed["exp"] = now() - 30;
    skewed["nbf"] = now() + 30;
    CHECK(discover(client, ec.sign(skewed)).status == 200);
    // The audience may be a list that holds the resource.
    json listed = good;
    listed["aud"] = json::array({"https://other.example/api", resource});
    CHECK(discover(client, rsa.sign(listed)).status == 200);
    // The identity is logged at debug level; the token never is.
    const std::string token = rsa.sign(good);
    CHECK(discover(client, token).status == 200);
    CHECK(server.stderr_text().find("token of sub 'alice' accepted") != std::string::npos);
    CHECK(server.stderr_text().find(token.substr(token.rfind('.') + 1)) == std::string::npos);
  }

  SUBCASE("a session is its creator's: another subject with a good token cannot use or end it") {
    McpHttp alice(server.port(), {{"Authorization", "Bearer " + rsa.sign(good)}});
    const std::string id = alice.initialize();
    json bob_claims = good;
    bob_claims["sub"] = "bob";
    McpHttp bob(server.port(), {{"Authorization", "Bearer " + rsa.sign(bob_claims)}});
    bob.set_session(id, alice.version());
    const Exchange used = bob.post({{"jsonrpc", "2.0"}, {"id", bob.next_id("ping")}, {"method", "ping"}});
    CHECK(used.http.status == 404);
    CHECK(used.last()["error"]["message"] == "Not Found: session " + id +
                                                 " does not exist or has ended; send initialize to start a new one");
    CHECK(bob.client().send("DELETE", "/mcp", {{"Authorization", "Bearer " + rsa.sign(bob_claims)},
                                               {"Mcp-Session-Id", id}}).status == 404);
    CHECK(alice.request("ping").contains("result"));  // alice's session lives on
    // Her next token (another key, another signature) still opens it: the owner is who, not which token.
    McpHttp alice_again(server.port(), {{"Authorization", "Bearer " + ec.sign(good)}});
    alice_again.set_session(id, alice.version());
    CHECK(alice_again.request("ping").contains("result"));
  }

  SUBCASE("bad tokens: 401 invalid_token") {
    const std::string invalid = challenge + ", error=\"invalid_token\"";
    auto with = [&good](const char* claim, json value) {
      json claims = good;
      claims[claim] = std::move(value);
      return claims;
    };
    json no_exp = good;
    no_exp.erase("exp");
    const std::string tampered = [&] {
      std::string t = rsa.sign(good);
      const auto at = t.rfind('.') + 10;
      t[at] = t[at] == 'A' ? 'B' : 'A';
      return t;
    }();
    const std::string payload_swapped = [&] {  // another payload under a valid signature
      const std::string t = rsa.sign(good);
      const auto first = t.find('.'), last = t.rfind('.');
      return t.substr(0, first + 1) + base64url(with("sub", "mallory").dump()) + t.substr(last);
    }();
    const std::vector<std::pair<std::string, std::string>> cases{
        {"another audience", rsa.sign(with("aud", "https://other.example/mcp"))},
        {"expired beyond the skew", rsa.sign(with("exp", now() - 120))},
        {"not valid yet", rsa.sign(with("nbf", now() + 120))},
        {"no exp", rsa.sign(no_exp)},
        {"an issuer not configured", rsa.sign(with("iss", "http://127.0.0.1:1"))},
        {"alg none", base64url(R"({"alg":"none","typ":"JWT"})") + "." + base64url(good.dump()) + "."},
        {"tampered signature", tampered},
        {"payload swapped", payload_swapped},
        {"unknown key", Key("RS256", "rsa-1").sign(good)},  // same kid, another key
        {"not a JWT", "s3cret"},
    };
    for (const auto& one : cases) {
      CAPTURE(one.first);
      const Reply r = discover(client, one.second);
      expect_rpc_error(r, 401, -32600,
                       "Unauthorized: the access token is not valid for this server (expired, for another "
                       "resource, or not from an accepted authorization server); get a new one");
      CHECK(r.header("WWW-Authenticate") == invalid);
    }
  }

  SUBCASE("a token without the scope: 403 insufficient_scope") {
    for (const json& scope : {json("openid files:write"), json::array({"files:write"})}) {
      json claims = good;
      claims["scope"] = scope;
      const Reply r = discover(client, rsa.sign(claims));
      expect_rpc_error(r, 403, -32600,
                       "Forbidden: the access token lacks the scope files:read; ask the authorization server for it");
      CHECK(r.header("WWW-Authenticate") == challenge + ", error=\"insufficient_scope\"");
    }
    json scp = good;  // Microsoft Entra ID's claim
    scp.erase("scope");
    scp["scp"] = json::array({"files:read"});
    CHECK(discover(client, rsa.sign(scp)).status == 200);
  }

  SUBCASE("key rotation: a key the JWKS names after the keys were fetched is fetched and accepted") {
    CHECK(discover(client, rsa.sign(good)).status == 200);  // the keys are now held
    const Key next("ES256", "ec-2");
    as.publish({&rsa, &next});
    CHECK(discover(client, next.sign(good)).status == 200);
    CHECK(discover(client, rsa.sign(good)).status == 200);
    CHECK(discover(client, Key("ES256", "ec-3").sign(good)).status == 401);  // never published
  }

  SUBCASE("tokens with bad signatures or made-up keys do not make the server fetch keys again and again") {
    const auto started = std::chrono::steady_clock::now();
    const std::string fetched = " keys of " + as.issuer() + " fetched from ";
    auto fetches = [&server, &fetched] {
      const std::string log = server.stderr_text();
      std::size_t count = 0;
      for (auto at = log.find(fetched); at != std::string::npos; at = log.find(fetched, at + 1)) ++count;
      return count;
    };
    CHECK(discover(client, rsa.sign(good)).status == 200);
    CHECK(fetches() == 1);
    std::string tampered = rsa.sign(good);
    const auto at = tampered.rfind('.') + 10;
    tampered[at] = tampered[at] == 'A' ? 'B' : 'A';
    for (int i = 0; i < 20; ++i) CHECK(discover(client, tampered).status == 401);
    CHECK(fetches() == 1);  // the token names a key held: no fetch
    for (int i = 0; i < 20; ++i)
      CHECK(discover(client, Key("ES256", "made-up-" + std::to_string(i)).sign(good)).status == 401);
    // Two fetches at once, then one per 5 s: the one left, and one per 5 s the loop took.
    const auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    CAPTURE(seconds);
    CHECK(fetches() >= 2);
    CHECK(fetches() <= 2 + static_cast<std::size_t>(seconds / 5));
    CHECK(discover(client, rsa.sign(good)).status == 200);
  }
}

TEST_CASE("http oauth: an authorization server that cannot be reached: 503, and the server keeps serving") {
  TempDir root;
  // Nothing listens on port 1: the metadata cannot be read.
  ServerProcess server({root.path().string(), "--oauth-issuer", "http://127.0.0.1:1"});
  Client client(server.port());
  const Key rsa("RS256", "rsa-1");
  const json claims{{"iss", "http://127.0.0.1:1"},
                    {"aud", "http://127.0.0.1:" + std::to_string(server.port()) + "/mcp"},
                    {"scope", "files:read"},
                    {"exp", now() + 300}};
  for (int i = 0; i < 3; ++i) {  // the third within the ration: not fetched, the same answer
    const Reply r = discover(client, rsa.sign(claims));
    expect_rpc_error(r, 503, -32600,
                     "Service Unavailable: access tokens cannot be checked now, since the authorization server's "
                     "signing keys could not be fetched; try again shortly (the server's log says why)");
    CHECK(r.header("Retry-After") == "5");
    CHECK_FALSE(r.has_header("WWW-Authenticate"));
  }
  CHECK(server.stderr_text().find("the keys of http://127.0.0.1:1 could not be found: no metadata of the "
                                  "authorization server could be read") != std::string::npos);
  CHECK(discover(client, "").status == 401);  // no token: still the challenge
  CHECK(client.send("GET", "/healthz").status == 200);
}

namespace {
std::string maps_of(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/maps");
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}
}  // namespace

TEST_CASE("http oauth: liboauth2 and libcurl are loaded only when OAuth is turned on") {
  TempDir root;
  ServerProcess plain({root.path().string()});
  Client plain_client(plain.port());
  CHECK(plain_client.send("GET", "/healthz").status == 200);
  const std::string plain_maps = maps_of(plain.pid());
  REQUIRE(plain_maps.find("libc.so") != std::string::npos);  // the maps were read
  CHECK(plain_maps.find("liboauth2") == std::string::npos);
  CHECK(plain_maps.find("libcurl") == std::string::npos);

  ServerProcess with_oauth({root.path().string(), "--oauth-issuer", "http://127.0.0.1:1"});
  // The port is announced before OAuth is set up, and requests are taken after: one answered
  // means the libraries are loaded.
  CHECK(Client(with_oauth.port()).send("GET", "/healthz").status == 200);
  const std::string oauth_maps = maps_of(with_oauth.pid());
  CHECK(oauth_maps.find("liboauth2") != std::string::npos);
  CHECK(oauth_maps.find("libcurl") != std::string::npos);
}
