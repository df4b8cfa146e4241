// Roots per identity (--oauth-roots): each token holder reads within the roots its claims give
// (by sub, group, email domain, with templates), in sessions and in stateless requests, by every
// way in (paths, "..", a symbolic link, a resource URI); a token matching no rule reads nothing;
// SIGHUP reloads the policy; a bad policy stops the server at start.
#include "fixtures.hpp"
#include "http_client.hpp"
#include "oauth_helpers.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

using namespace mcpread::test;
using namespace mcpread::test::http;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// The tree the server serves: alice's, bob's and carol's homes, a shared folder, and in alice's
// home two symbolic links into bob's.
struct Tree {
  TempDir root;
  TempDir config;  // the policy lives outside the roots
  Tree() {
    root.write("home/alice/a.txt", "alice's\n");
    root.write("home/bob/secret.txt", "bob's secret\n");
    root.write("home/carol/c.txt", "carol's\n");
    root.write("shared/s.txt", "shared\n");
    fs::create_symlink(root.path() / "home/bob/secret.txt", root.path() / "home/alice/link.txt");
    fs::create_symlink(root.path() / "home/bob", root.path() / "home/alice/bobdir");
  }
  [[nodiscard]] std::string at(const std::string& relative) const { return (root.path() / relative).string(); }
  std::string policy(const json& rules) const { return config.write("roots.json", json{{"rules", rules}}.dump()).string(); }
  [[nodiscard]] json rules() const {
    return json::array({{{"sub", "alice"}, {"roots", {at("home/alice")}}},
                        {{"sub", "bob"}, {"roots", {at("home/bob")}}},
                        {{"group", "staff"}, {"roots", {at("shared")}}},
                        {{"email_domain", "example.com"}, {"roots", {at("home/{sub}")}}}});
  }
};

std::string text_of(const json& result) {
  std::string out;
  for (const auto& block : result["content"])
    if (block.value("type", "") == "text") out += block["text"].get<std::string>();
  return out;
}

// What a read through a session answers: its text, "ERROR: " before it when refused.
std::string session_read(McpHttp& mcp, const std::string& path) {
  const json r = mcp.call("read", {{"file_path", path}});
  return (r.value("isError", false) ? "ERROR: " : "") + text_of(r);
}

std::string stateless_read(McpHttp& mcp, const std::string& path) {
  const json m = mcp.stateless("tools/call", {{"name", "read"}, {"arguments", {{"file_path", path}}}}).last();
  REQUIRE(m.contains("result"));
  return (m["result"].value("isError", false) ? "ERROR: " : "") + text_of(m["result"]);
}

bool refused(const std::string& answer) {
  return answer.rfind("ERROR: Access denied", 0) == 0 && answer.find("bob's secret") == std::string::npos;
}

struct Server {
  AuthServer as;
  Key key{"ES256", "ec-1"};
  std::optional<ServerProcess> process;
  Server(const Tree& tree, const std::string& policy, const std::vector<std::string>& extra = {}) {
    as.publish({&key});
    std::vector<std::string> args{tree.root.path().string(), "--oauth-issuer", as.issuer(), "--oauth-roots",
                                  policy, "--log-level", "debug"};
    args.insert(args.end(), extra.begin(), extra.end());
    process.emplace(std::move(args));
  }
  [[nodiscard]] Headers bearer(const std::string& sub, json extra = json::object()) const {
    json claims{{"iss", as.issuer()},
                {"sub", sub},
                {"aud", "http://127.0.0.1:" + std::to_string(process->port()) + "/mcp"},
                {"scope", "files:read"},
                {"exp", now() + 600}};
    claims.update(extra);
    return {{"Authorization", "Bearer " + key.sign(claims)}};
  }
};

// A session opened with a token for `sub` (McpHttp cannot be moved: it is made in place).
struct Session : McpHttp {
  Session(const Server& server, const std::string& sub, json extra = json::object())
      : McpHttp(server.process->port(), server.bearer(sub, std::move(extra))) {
    initialize();
  }
};

}  // namespace

TEST_CASE("http oauth roots: alice reads her root only, in a session and statelessly") {
  const Tree tree;
  Server server(tree, tree.policy(tree.rules()));
  Session session(server, "alice");
  McpHttp stateless(server.process->port(), server.bearer("alice"));
  const std::vector<std::string> bobs{tree.at("home/bob/secret.txt"), tree.at("home/alice/../bob/secret.txt"),
                                      tree.at("home/alice/link.txt"), tree.at("home/alice/bobdir/secret.txt"),
                                      tree.at("home/bob"), tree.at("home"), "../bob/secret.txt"};
  for (auto* read : {&session_read, &stateless_read}) {
    McpHttp& mcp = read == &session_read ? session : stateless;
    CAPTURE(read == &session_read);
    CHECK(read(mcp, "a.txt").find("alice's") != std::string::npos);  // relative: to her root
    CHECK(read(mcp, tree.at("home/alice/a.txt")).find("alice's") != std::string::npos);
    const std::string listing = read(mcp, tree.at("home/alice"));
    CHECK(listing.find("a.txt") != std::string::npos);
    for (const auto& path : bobs) {
      CAPTURE(path);
      const std::string answer = read(mcp, path);
      CHECK(refused(answer));
      if (path == tree.at("home/alice/bobdir/secret.txt") || path == tree.at("home/alice/link.txt"))
        CHECK(answer.find("outside the allowed roots (" + tree.at("home/alice") + ")") != std::string::npos);
    }
  }
  SUBCASE("resources: listed and read within her root only") {
    const json listed = session.request("resources/list").at("result");
    CHECK(listed["resources"].size() == 1);
    CHECK(listed["resources"][0]["name"] == "a.txt");
    const json bobs_uri{{"uri", file_uri(tree.root.path() / "home/bob/secret.txt")}};
    const Exchange in_session = session.post({{"jsonrpc", "2.0"},
                                              {"id", session.next_id("resources/read")},
                                              {"method", "resources/read"},
                                              {"params", bobs_uri}});
    REQUIRE(in_session.last().contains("error"));
    CHECK(in_session.last().dump().find("bob's secret") == std::string::npos);
    const json stateless_read_bob = stateless.stateless("resources/read", bobs_uri).last();
    REQUIRE(stateless_read_bob.contains("error"));
    CHECK(stateless_read_bob.dump().find("bob's secret") == std::string::npos);
    const json stateless_list = stateless.stateless("resources/list").last();
    CHECK(stateless_list["result"]["resources"].size() == 1);
    const json own = stateless.stateless("resources/read", {{"uri", file_uri(tree.root.path() / "home/alice/a.txt")}}).last();
    CHECK(own["result"]["contents"][0]["text"] == "alice's\n");
  }
  SUBCASE("the client's roots narrow hers, never widen them") {
    fs::create_directories(tree.root.path() / "home/alice/sub");
    std::ofstream(tree.root.path() / "home/alice/sub/in.txt") << "inside\n";
    const Headers token = server.bearer("alice");
    McpHttp narrowed(server.process->port(), token);
    const std::string id = narrowed.initialize("2025-11-25", {{"roots", json::object()}});
    Headers stream_headers{{"Accept", "text/event-stream"}, {"Mcp-Session-Id", id}};
    stream_headers.insert(stream_headers.end(), token.begin(), token.end());
    Client stream(server.process->port());
    REQUIRE(stream.open("GET", "/mcp", stream_headers).status == 200);
    const auto event = stream.next_event(std::chrono::seconds(10));
    REQUIRE_MESSAGE(event, "no roots/list request; stderr:\n" << server.process->stderr_text());
    const json request = json::parse(event->data);
    REQUIRE(request["method"] == "roots/list");
    // Her sub-folder, a link in her home into bob's, and bob's home itself.
    const json roots = json::array({{{"uri", file_uri(tree.root.path() / "home/alice/sub")}},
                                    {{"uri", file_uri(tree.root.path() / "home/alice/bobdir")}},
                                    {{"uri", file_uri(tree.root.path() / "home/bob")}}});
    CHECK(narrowed.post({{"jsonrpc", "2.0"}, {"id", request["id"]}, {"result", {{"roots", roots}}}}).http.status == 202);
    CHECK(session_read(narrowed, tree.at("home/alice/sub/in.txt")).find("inside") != std::string::npos);
    const std::string outside_sub = session_read(narrowed, tree.at("home/alice/a.txt"));
    CHECK(outside_sub.rfind("ERROR: Access denied", 0) == 0);
    CHECK(outside_sub.find("outside the allowed roots (" + tree.at("home/alice/sub") + ")") != std::string::npos);
    for (const auto& path : bobs) {
      CAPTURE(path);
      CHECK(refused(session_read(narrowed, path)));
    }
  }
  // Who read, at info level (an audit trail), the token never.
  bool audited = false;
  std::istringstream log(server.process->stderr_text());
  for (std::string line; std::getline(log, line);)
    audited = audited || (line.find("[info] read ") != std::string::npos && line.find(" (sub alice)") != std::string::npos);
  CHECK(audited);
  CHECK(server.process->stderr_text().find(server.bearer("alice")[0].second.substr(7, 40)) == std::string::npos);
}

TEST_CASE("http oauth roots: a group, a template, a token matching no rule, and the metrics") {
  const Tree tree;
  Server server(tree, tree.policy(tree.rules()));
  Session carol(server, "carol", {{"email", "carol@example.com"}, {"groups", {"staff"}}});
  CHECK(session_read(carol, tree.at("home/carol/c.txt")).find("carol's") != std::string::npos);  // {sub}
  CHECK(session_read(carol, tree.at("shared/s.txt")).find("shared") != std::string::npos);      // group
  CHECK(refused(session_read(carol, tree.at("home/bob/secret.txt"))));
  // Unverified email: the template rule does not apply.
  Session unverified(server, "carol", {{"email", "carol@example.com"}, {"email_verified", false}});
  CHECK(session_read(unverified, tree.at("home/carol/c.txt")).rfind("ERROR: Access denied: no directory is allowed", 0) == 0);
  // A sub that is not one path component: the template does not apply, and a warning says so.
  McpHttp dots(server.process->port(), server.bearer("..", {{"email", "x@example.com"}}));
  CHECK(stateless_read(dots, tree.at("home/bob/secret.txt")).rfind("ERROR: Access denied: no directory is allowed", 0) == 0);
  CHECK(server.process->stderr_text().find("does not apply to this token: its {sub} is not one safe path component") !=
        std::string::npos);
  // The same token again: the warning is not repeated at warning level (no log flood).
  CHECK(refused(stateless_read(dots, tree.at("home/bob/secret.txt"))));
  auto count = [&](const std::string& needle) {
    const std::string log = server.process->stderr_text();
    int n = 0;
    for (auto at = log.find(needle); at != std::string::npos; at = log.find(needle, at + 1)) ++n;
    return n;
  };
  CHECK(count("[warning] --oauth-roots: the rule's root") == 1);
  CHECK(count("[debug] --oauth-roots: the rule's root") == 1);
  // No rule: every read refused, in the protocol (not HTTP 403), with the usual sentence.
  Session dave(server, "dave");
  CHECK(session_read(dave, tree.at("shared/s.txt")) ==
        "ERROR: Access denied: no directory is allowed (the list of allowed roots is empty), so " +
            tree.at("shared/s.txt") + " cannot be read.");
  const std::string metrics = Client(server.process->port()).send("GET", "/metrics").body;
  CHECK(metric_sample(metrics, "mcpread_oauth_identities") == 3);  // carol, .., dave
  CHECK(metric_sample(metrics, "mcpread_oauth_requests_total{outcome=\"accepted_no_roots\"}") > 0);
  CHECK(metric_sample(metrics, "mcpread_oauth_requests_total{outcome=\"accepted\"}") > 0);
  CHECK(metrics.find("sub=") == std::string::npos);
}

TEST_CASE("http oauth roots: a task is its creator's: another identity neither sees nor cancels it") {
  const Tree tree;
  Server server(tree, tree.policy(tree.rules()), {"--task-after-ms", "0"});
  McpHttp alice(server.process->port(), server.bearer("alice"));
  McpHttp bob(server.process->port(), server.bearer("bob"));
  auto with_tasks = [](json params) {
    params["_meta"]["io.modelcontextprotocol/clientCapabilities"] = {
        {"extensions", {{"io.modelcontextprotocol/tasks", json::object()}}}};
    return params;
  };
  const json created = alice.stateless("tools/call", with_tasks({{"name", "read"}, {"arguments", {{"file_path", "a.txt"}}}}))
                           .last()["result"];
  REQUIRE(created["resultType"] == "task");
  const std::string id = created["taskId"];
  for (const char* method : {"tasks/get", "tasks/cancel"}) {
    const json m = bob.stateless(method, with_tasks({{"taskId", id}})).last();
    REQUIRE(m.contains("error"));
    CHECK(m["error"]["message"] == "Invalid params: Unknown task: " + id + " (never created here, or past its ttlMs)");
  }
  json task;
  for (int i = 0; i < 100000; ++i) {  // bounded by count: each poll is answered at once
    task = alice.stateless("tasks/get", with_tasks({{"taskId", id}})).last()["result"];
    if (task["status"] != "working") break;
  }
  CHECK(task["status"] == "completed");  // bob's cancel did not reach it
  CHECK(text_of(task["result"]).find("alice's") != std::string::npos);
}

TEST_CASE("http oauth roots: SIGHUP reloads the policy for new sessions; a bad one is refused and the old stays") {
  const Tree tree;
  const std::string policy = tree.policy(tree.rules());
  Server server(tree, policy);
  Session before(server, "dave");
  CHECK(refused(session_read(before, tree.at("shared/s.txt"))));
  json rules = tree.rules();
  rules.push_back({{"sub", "dave"}, {"roots", {tree.at("shared")}}});
  tree.policy(rules);
  auto reloads = [&server](const std::string& marker) {
    for (int i = 0; i < 200; ++i) {
      if (server.process->stderr_text().find(marker) != std::string::npos) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
  };
  server.process->signal(SIGHUP);
  REQUIRE(reloads("SIGHUP: --oauth-roots reloaded"));
  Session after(server, "dave");
  CHECK(session_read(after, tree.at("shared/s.txt")).find("shared") != std::string::npos);
  McpHttp stateless(server.process->port(), server.bearer("dave"));
  CHECK(stateless_read(stateless, tree.at("shared/s.txt")).find("shared") != std::string::npos);
  // A session keeps the roots it was opened with.
  CHECK(refused(session_read(before, tree.at("shared/s.txt"))));

  tree.config.write("roots.json", R"({"rules":[{"sub":"dave"}]})");
  server.process->signal(SIGHUP);
  REQUIRE(reloads("SIGHUP: --oauth-roots " + policy + ": rule 1: \"roots\" must be an array of paths; the policy "
                  "in force stays"));
  CHECK(stateless_read(stateless, tree.at("shared/s.txt")).find("shared") != std::string::npos);
  CHECK(server.process->wait_exit(std::chrono::milliseconds(0)) == std::nullopt);  // still serving
}

TEST_CASE("http oauth roots: a bad policy at start stops the server with the reason") {
  const Tree tree;
  AuthServer as;
  const std::string policy = tree.config.write("roots.json", R"({"rules":[{"sub":"a","roots":["home"]}]})").string();
  ServerProcess server({tree.root.path().string(), "--oauth-issuer", as.issuer(), "--oauth-roots", policy});
  CHECK(server.wait_exit() == 2);
  CHECK(server.stderr_text().find("--oauth-roots " + policy + ": rule 1: \"home\" is not an absolute path") !=
        std::string::npos);
}
