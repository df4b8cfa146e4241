// OAuth token introspection (RFC 7662, --oauth-client-id): opaque access tokens checked at the
// issuer's introspection endpoint. The authorization server here is a small Python one on
// 127.0.0.1: it serves RFC 8414 metadata naming its introspection endpoint, and answers there
// from tokens.json (token -> answer; unknown tokens are not active), after checking the Basic
// client credentials and the form; each request's body is appended to hits.log, so the test
// counts how often it was asked. status.txt, when present, makes it answer with that status, or
// with a body that is no JSON ("garbage").
#include "fixtures.hpp"
#include "http_client.hpp"

#include <doctest/doctest.h>

#include <ctime>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace mcpread::test;
using namespace mcpread::test::http;
using nlohmann::json;

namespace {

constexpr const char* kClientId = "mcp-read";
constexpr const char* kSecret = "s3cret:with spaces+plus";  // form-encoded before base64 (RFC 6749 2.3.1)

const char* const introspection_server = R"PY(
import base64, json, os, sys, urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
root, client_id, secret = sys.argv[1], sys.argv[2], sys.argv[3]
q = lambda s: urllib.parse.quote(s, safe="")
expected = "Basic " + base64.b64encode((q(client_id) + ":" + q(secret)).encode()).decode()
class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass
    def answer(self, status, body):
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
    def do_GET(self):
        if self.path != "/.well-known/oauth-authorization-server":
            return self.answer(404, "{}")
        self.answer(200, json.dumps({"issuer": issuer, "introspection_endpoint": issuer + "/introspect"}))
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0"))).decode()
        with open(os.path.join(root, "hits.log"), "a") as log:
            log.write(body + "\n")
        if self.path != "/introspect":
            return self.answer(404, "{}")
        forced = os.path.join(root, "status.txt")
        if os.path.exists(forced):
            status = open(forced).read().strip()
            return self.answer(200, "{not json") if status == "garbage" else self.answer(int(status), "{}")
        if self.headers.get("Authorization") != expected:
            return self.answer(401, json.dumps({"error": "invalid_client"}))
        if self.headers.get("Content-Type") != "application/x-www-form-urlencoded":
            return self.answer(400, json.dumps({"error": "invalid_request"}))
        form = urllib.parse.parse_qs(body, strict_parsing=True)
        if sorted(form) != ["token", "token_type_hint"] or form["token_type_hint"] != ["access_token"]:
            return self.answer(400, json.dumps({"error": "invalid_request"}))
        tokens = json.load(open(os.path.join(root, "tokens.json")))
        self.answer(200, json.dumps(tokens.get(form["token"][0], {"active": False})))
server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
issuer = "http://127.0.0.1:%d" % server.server_address[1]
print("issuer " + issuer, flush=True)
server.serve_forever()
)PY";

class IntrospectionServer {
 public:
  IntrospectionServer() {
    dir_.write("server.py", introspection_server);
    dir_.write("tokens.json", "{}");
    process_.emplace(ChildProcess::Spec{
        {MCPREAD_PYTHON3, "-u", (dir_.path() / "server.py").string(), dir_.path().string(), kClientId, kSecret},
        {},
        {},
        true});
    std::string out;
    while (out.find('\n') == std::string::npos)
      REQUIRE(process_->read(out, std::chrono::seconds(10)) == ChildProcess::Read::data);
    REQUIRE(out.rfind("issuer ", 0) == 0);
    issuer_ = out.substr(7, out.find('\n') - 7);
  }
  ~IntrospectionServer() {
    if (process_) process_->kill();
  }
  IntrospectionServer(const IntrospectionServer&) = delete;
  IntrospectionServer& operator=(const IntrospectionServer&) = delete;

  [[nodiscard]] const std::string& issuer() const { return issuer_; }
  void answer(const json& tokens) const { dir_.write("tokens.json", tokens.dump()); }
  void force(const std::string& status) const { dir_.write("status.txt", status); }
  // The bodies of the introspection requests so far.
  [[nodiscard]] std::vector<std::string> hits() const {
    std::ifstream in(dir_.path() / "hits.log");
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
  }

 private:
  TempDir dir_;
  std::optional<ChildProcess> process_;
  std::string issuer_;
};

long long now() { return static_cast<long long>(std::time(nullptr)); }

std::vector<std::string> server_args(const TempDir& root, const IntrospectionServer& as, const std::string& cache,
                                     std::vector<std::string> more = {}) {
  std::vector<std::string> args{root.path().string(), "--oauth-issuer",  as.issuer(),
                                "--oauth-client-id",  kClientId,         "--oauth-introspection-cache",
                                cache,                "--log-level",     "debug"};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

const std::vector<std::string> secret_env{std::string("MCP_READ_OAUTH_CLIENT_SECRET=") + kSecret};

Reply ping(Client& client, const std::string& token) {
  const json body{{"jsonrpc", "2.0"},
                  {"id", 1},
                  {"method", "server/discover"},
                  {"params",
                   {{"_meta",
                     {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                      {"io.modelcontextprotocol/clientCapabilities", json::object()}}}}}};
  return client.send("POST", "/mcp",
                     post_headers({{"MCP-Protocol-Version", "2026-07-28"},
                                   {"Mcp-Method", "server/discover"},
                                   {"Authorization", "Bearer " + token}}),
                     body.dump());
}

const std::string invalid_message =
    "Unauthorized: the access token is not valid for this server (expired, for another resource, or not from an "
    "accepted authorization server); get a new one";
const std::string unavailable_message =
    "Service Unavailable: access tokens cannot be checked now, since the authorization server's introspection "
    "endpoint did not answer as it should; try again shortly (the server's log says why)";

}  // namespace

TEST_CASE("http oauth introspection: opaque tokens checked at the issuer, every call with a cache of 0") {
  IntrospectionServer as;
  TempDir root;
  root.write("notes.txt", "note\n");
  ServerProcess server(server_args(root, as, "0"), secret_env);
  const std::string resource = "http://127.0.0.1:" + std::to_string(server.port()) + "/mcp";
  const json alice{{"active", true},     {"sub", "alice"},         {"aud", resource},      {"iss", as.issuer()},
                   {"scope", "files:read"}, {"exp", now() + 600}, {"token_type", "Bearer"}};
  json bob = alice;
  bob["sub"] = "bob";
  json no_scope = alice;
  no_scope["scope"] = "files:write";
  json elsewhere = alice;
  elsewhere["aud"] = "https://other.example/mcp";
  as.answer({{"opaque-alice", alice}, {"opaque-bob", bob}, {"no-scope", no_scope}, {"elsewhere", elsewhere}});
  Client client(server.port());

  SUBCASE("an active token reads; the request is the form RFC 7662 asks for; the secret is never logged") {
    McpHttp mcp(server.port(), {{"Authorization", "Bearer opaque-alice"}});
    const std::string id = mcp.initialize();
    CHECK(mcp.call("read", {{"file_path", "notes.txt"}})["content"][0]["text"].get<std::string>().rfind(
              "     1\tnote\n", 0) == 0);
    const auto hits = as.hits();
    REQUIRE(!hits.empty());
    CHECK(hits.front() == "token=opaque-alice&token_type_hint=access_token");
    const std::string log = server.stderr_text();
    CHECK(log.find("opaque tokens are introspected at " + as.issuer() + "/introspect") != std::string::npos);
    CHECK(log.find("token of sub 'alice' accepted") != std::string::npos);
    CHECK(log.find("s3cret") == std::string::npos);
    CHECK(log.find("opaque-alice") == std::string::npos);
    // The identity is the JWT path's: another subject cannot use alice's session.
    McpHttp other(server.port(), {{"Authorization", "Bearer opaque-bob"}});
    other.set_session(id, mcp.version());
    CHECK(other.post({{"jsonrpc", "2.0"}, {"id", other.next_id("ping")}, {"method", "ping"}}).http.status == 404);
    CHECK(mcp.request("ping").contains("result"));
  }

  SUBCASE("revoked: the next call is refused (401 invalid_token); every call asked") {
    CHECK(ping(client, "opaque-alice").status == 200);
    CHECK(ping(client, "opaque-alice").status == 200);
    CHECK(as.hits().size() == 2);
    json revoked = alice;
    revoked["active"] = false;
    as.answer({{"opaque-alice", revoked}});
    const Reply r = ping(client, "opaque-alice");
    expect_rpc_error(r, 401, -32600, invalid_message);
    CHECK(r.header("WWW-Authenticate")->find("error=\"invalid_token\"") != std::string::npos);
    CHECK(as.hits().size() == 3);
    CHECK(server.stderr_text().find("token refused: the token is not active") != std::string::npos);
  }

  SUBCASE("unknown, for another resource, or short of the scope") {
    expect_rpc_error(ping(client, "never-issued"), 401, -32600, invalid_message);
    expect_rpc_error(ping(client, "elsewhere"), 401, -32600, invalid_message);
    CHECK(server.stderr_text().find("token refused: aud does not name " + resource) != std::string::npos);
    const Reply r = ping(client, "no-scope");
    expect_rpc_error(r, 403, -32600,
                     "Forbidden: the access token lacks the scope files:read; ask the authorization server for it");
    CHECK(r.header("WWW-Authenticate")->find("error=\"insufficient_scope\"") != std::string::npos);
  }

  SUBCASE("a JWT-shaped token goes to the JWT path, not to the introspection endpoint") {
    CHECK(ping(client, "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhIn0.c2ln").status == 401);
    CHECK(as.hits().empty());
  }

  SUBCASE("an endpoint that fails: 503 naming the introspection endpoint, the cause in the log") {
    for (const auto& [status, logged] : std::vector<std::pair<std::string, std::string>>{
             {"500", as.issuer() + "/introspect: the introspection endpoint answered with HTTP status 500"},
             {"garbage", as.issuer() + "/introspect: the introspection endpoint's answer is not a JSON object"}}) {
      CAPTURE(status);
      as.force(status);
      const Reply r = ping(client, "opaque-alice");
      expect_rpc_error(r, 503, -32600, unavailable_message);
      CHECK(r.header("Retry-After") == "5");
      CHECK_FALSE(r.has_header("WWW-Authenticate"));
      CHECK(server.stderr_text().find(logged) != std::string::npos);
    }
  }
}

TEST_CASE("http oauth introspection: an active answer is reused for the cache's seconds") {
  IntrospectionServer as;
  TempDir root;
  ServerProcess server(server_args(root, as, "3600"), secret_env);
  const std::string resource = "http://127.0.0.1:" + std::to_string(server.port()) + "/mcp";
  const json alice{{"active", true}, {"sub", "alice"}, {"aud", resource}, {"scope", "files:read"}, {"exp", now() + 600}};
  as.answer({{"opaque-alice", alice}});
  Client client(server.port());
  for (int i = 0; i < 5; ++i) CHECK(ping(client, "opaque-alice").status == 200);
  CHECK(as.hits().size() == 1);
  // The trade-off: revoked at the authorization server, the token is still taken until its kept
  // answer lapses (here: when it expires, in 600 s).
  as.answer(json::object());
  CHECK(ping(client, "opaque-alice").status == 200);
  CHECK(as.hits().size() == 1);
  // Inactive answers are not kept: an unknown token is asked about each time.
  CHECK(ping(client, "never-issued").status == 401);
  CHECK(ping(client, "never-issued").status == 401);
  CHECK(as.hits().size() == 3);
}

TEST_CASE("http oauth introspection: wrong client credentials are the server's problem: 503") {
  IntrospectionServer as;
  TempDir root;
  ServerProcess server(server_args(root, as, "0"), {"MCP_READ_OAUTH_CLIENT_SECRET=wrong"});
  Client client(server.port());
  expect_rpc_error(ping(client, "opaque-alice"), 503, -32600, unavailable_message);
  CHECK(server.stderr_text().find("the introspection endpoint answered with HTTP status 401") != std::string::npos);
}

TEST_CASE("http oauth introspection: --oauth-introspect-all sends JWTs to the endpoint too") {
  IntrospectionServer as;
  TempDir root;
  ServerProcess server(server_args(root, as, "0", {"--oauth-introspect-all"}), secret_env);
  const std::string resource = "http://127.0.0.1:" + std::to_string(server.port()) + "/mcp";
  const std::string jwt_shaped = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhIn0.c2ln";
  as.answer({{jwt_shaped, {{"active", true}, {"sub", "alice"}, {"aud", resource}, {"scope", "files:read"}}}});
  Client client(server.port());
  CHECK(ping(client, jwt_shaped).status == 200);
  CHECK(as.hits() == std::vector<std::string>{"token=" + jwt_shaped + "&token_type_hint=access_token"});
}

TEST_CASE("http oauth introspection: an issuer whose metadata cannot be read: 503") {
  TempDir root;
  ServerProcess server({root.path().string(), "--oauth-issuer", "http://127.0.0.1:1", "--oauth-client-id", kClientId,
                        "--log-level", "debug"},
                       secret_env);
  Client client(server.port());
  expect_rpc_error(ping(client, "opaque"), 503, -32600, unavailable_message);
  CHECK(server.stderr_text().find("the introspection endpoint of http://127.0.0.1:1 could not be found: no metadata "
                                  "of the authorization server names one") != std::string::npos);
  // Asked again within 5 s: not looked for again, the same answer.
  expect_rpc_error(ping(client, "opaque"), 503, -32600, unavailable_message);
  CHECK(server.stderr_text().find("could not be found a moment ago") != std::string::npos);
}
