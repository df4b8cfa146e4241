#pragma once
// What the OAuth tests share: signing keys made for the test (cjose), a static authorization
// server (Python's http.server on 127.0.0.1 serving its RFC 8414 metadata and a JWKS the test
// writes), and a stateless request with a token.
#include "fixtures.hpp"
#include "http_client.hpp"

#include <cjose/cjose.h>
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <ctime>
#include <optional>
#include <string>
#include <vector>

namespace mcpread::test::http {

using nlohmann::json;

inline std::string base64url(const std::string& bytes) {
  char* out = nullptr;
  size_t size = 0;
  cjose_err err;
  REQUIRE(cjose_base64url_encode(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), &out, &size, &err));
  std::string text(out, size);
  cjose_get_dealloc()(out);
  return text;
}

// A signing key with its `kid`, made for the test.
class Key {
 public:
  Key(const std::string& alg, const std::string& kid) : alg_(alg), kid_(kid) {
    cjose_err err;
    jwk_ = alg[0] == 'E' ? cjose_jwk_create_EC_random(CJOSE_JWK_EC_P_256, &err)
                         : cjose_jwk_create_RSA_random(2048, nullptr, 0, &err);
    REQUIRE(jwk_ != nullptr);
    REQUIRE(cjose_jwk_set_kid(jwk_, kid.c_str(), kid.size(), &err));
  }
  ~Key() { cjose_jwk_release(jwk_); }
  Key(const Key&) = delete;
  Key& operator=(const Key&) = delete;

  [[nodiscard]] json public_jwk() const {
    cjose_err err;
    char* text = cjose_jwk_to_json(jwk_, false, &err);
    json out = json::parse(text);
    cjose_get_dealloc()(text);
    out["use"] = "sig";
    out["alg"] = alg_;
    return out;
  }

  [[nodiscard]] std::string sign(const json& claims) const {
    cjose_err err;
    cjose_header_t* header = cjose_header_new(&err);
    cjose_header_set(header, CJOSE_HDR_ALG, alg_.c_str(), &err);
    cjose_header_set(header, CJOSE_HDR_KID, kid_.c_str(), &err);
    cjose_header_set(header, "typ", "at+jwt", &err);
    const std::string payload = claims.dump();
    cjose_jws_t* jws = cjose_jws_sign(jwk_, header, reinterpret_cast<const uint8_t*>(payload.data()),
                                      payload.size(), &err);
    cjose_header_release(header);
    REQUIRE(jws != nullptr);
    const char* compact = nullptr;
    REQUIRE(cjose_jws_export(jws, &compact, &err));
    std::string token = compact;
    cjose_jws_release(jws);
    return token;
  }

 private:
  std::string alg_;
  std::string kid_;
  cjose_jwk_t* jwk_ = nullptr;
};

// The authorization server's documents, served over HTTP by Python on a free port.
class AuthServer {
 public:
  AuthServer() {
    process_.emplace(ChildProcess::Spec{{MCPREAD_PYTHON3, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1",
                                         "--directory", dir_.path().string()},
                                        {},
                                        {},
                                        true});
    // "Serving HTTP on 127.0.0.1 port 41234 (http://127.0.0.1:41234/) ..."
    std::string out;
    while (out.find(") ...") == std::string::npos)
      REQUIRE(process_->read(out, std::chrono::seconds(10)) == ChildProcess::Read::data);
    const auto at = out.find(" port ") + 6;
    issuer_ = "http://127.0.0.1:" + out.substr(at, out.find(' ', at) - at);
    dir_.write(".well-known/oauth-authorization-server",
               json{{"issuer", issuer_}, {"jwks_uri", issuer_ + "/jwks.json"}}.dump());
  }
  // http.server does not end when its stdin closes: without this, each test would wait 5 s.
  ~AuthServer() {
    if (process_) process_->kill();
  }
  AuthServer(const AuthServer&) = delete;
  AuthServer& operator=(const AuthServer&) = delete;
  [[nodiscard]] const std::string& issuer() const { return issuer_; }
  void publish(const std::vector<const Key*>& keys) {
    json jwks{{"keys", json::array()}};
    for (const auto* key : keys) jwks["keys"].push_back(key->public_jwk());
    dir_.write("jwks.json", jwks.dump());
  }

 private:
  TempDir dir_;
  std::optional<ChildProcess> process_;
  std::string issuer_;
};

inline Reply discover(Client& client, const std::string& token) {
  Headers headers = post_headers({{"MCP-Protocol-Version", "2026-07-28"}, {"Mcp-Method", "server/discover"}});
  if (!token.empty()) headers.emplace_back("Authorization", "Bearer " + token);
  return client.send("POST", "/mcp", headers, discover_request());
}

inline long long now() { return static_cast<long long>(std::time(nullptr)); }

}  // namespace mcpread::test::http
