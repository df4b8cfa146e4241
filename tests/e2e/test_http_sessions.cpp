// Streamable HTTP sessions at /mcp: initialize and its Mcp-Session-Id, the answers a session
// gets (JSON, or an event stream when progress comes first), and what each refusal says.
#include "fixtures.hpp"
#include "http_client.hpp"
#include "image_fixtures.hpp"
#include "pdf_fixtures.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace mcpread::test;
using namespace mcpread::test::http;
using nlohmann::json;

namespace {

const std::string unknown_session = "0123456789abcdef0123456789abcdef";

json tools_list_message(long long id) { return {{"jsonrpc", "2.0"}, {"id", id}, {"method", "tools/list"}}; }

json initialize_message(json params) {
  return {{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"}, {"params", std::move(params)}};
}

const json client_info = {{"name", "mcpread-http-e2e"}, {"version", "1.0"}};

}  // namespace

TEST_CASE("http: Streamable HTTP sessions") {
  TempDir root;
  root.write("notes.txt", "alpha\nbeta\n");
  const std::string png = encode_picture({64, 48, 3, Pattern::gradient}, ".png");
  REQUIRE_FALSE(png.empty());
  root.write("picture.png", png);
  root.write("slides.pdf", text_pdf(2));
  ServerProcess server({root.path().string()});
  McpHttp mcp(server.port());
  const std::string session = mcp.initialize("2025-11-25");
  CHECK(session.size() == 32);
  CHECK(session.find_first_not_of("0123456789abcdef") == std::string::npos);

  SUBCASE("initialize answers 200 JSON with the session id") {
    Client client(server.port());
    const Reply r = client.send("POST", "/mcp", post_headers(),
                                initialize_message({{"protocolVersion", "2025-06-18"},
                                                    {"capabilities", json::object()},
                                                    {"clientInfo", client_info}})
                                    .dump());
    CHECK(r.status == 200);
    CHECK(r.header("Content-Type") == "application/json");
    const auto id = r.header("Mcp-Session-Id");
    REQUIRE(id);
    CHECK(*id != session);  // a session of its own
    const json body = r.json();
    validate_server_message("2025-06-18", body, "initialize");
    CHECK(body["result"]["protocolVersion"] == "2025-06-18");
  }
  SUBCASE("a notification is acknowledged with 202 and no body") {
    const Exchange e = mcp.post({{"jsonrpc", "2.0"}, {"method", "notifications/roots/list_changed"}});
    CHECK(e.http.status == 202);
    CHECK(e.http.body.empty());
    CHECK(e.messages.empty());
  }
  SUBCASE("tools/list") {
    const json r = mcp.request("tools/list");
    REQUIRE(r.contains("result"));
    bool read = false;
    for (const auto& tool : r["result"]["tools"]) read = read || tool["name"] == "read";
    CHECK(read);
  }
  SUBCASE("read of a text file: numbered lines") {
    const json r = mcp.call("read", {{"file_path", "notes.txt"}});
    CHECK_FALSE(r.contains("isError"));
    CHECK(r["content"][0]["text"].get<std::string>().rfind("     1\talpha\n     2\tbeta\n", 0) == 0);
  }
  SUBCASE("read of a PNG: an image block") {
    const json r = mcp.call("read", {{"file_path", "picture.png"}});
    CHECK_FALSE(r.contains("isError"));
    REQUIRE(r["content"].size() == 2);
    CHECK(r["content"][1]["type"] == "image");
    CHECK(r["content"][1]["mimeType"] == "image/png");
    CHECK(base64_decode(r["content"][1]["data"].get<std::string>()) == png);
  }
  SUBCASE("a PDF rendered with a progressToken: an event stream of progress, then the result") {
    const long long id = mcp.next_id("tools/call");
    const Exchange e = mcp.post({{"jsonrpc", "2.0"},
                                 {"id", id},
                                 {"method", "tools/call"},
                                 {"params",
                                  {{"name", "read"},
                                   {"arguments", {{"file_path", "slides.pdf"}, {"file_type", "image"}}},
                                   {"_meta", {{"progressToken", "p-1"}}}}}});
    CHECK(e.http.status == 200);
    CHECK(e.http.is_event_stream());
    CHECK(e.http.header("Cache-Control") == "no-cache");
    REQUIRE(e.messages.size() == 3);
    for (int k = 1; k <= 2; ++k) {
      const json& p = e.messages[static_cast<std::size_t>(k - 1)];
      CHECK(p["method"] == "notifications/progress");
      CHECK(p["params"]["progressToken"] == "p-1");
      CHECK(p["params"]["progress"] == k);
      CHECK(p["params"]["total"] == 2);
      CHECK(p["params"]["message"] == "page " + std::to_string(k) + " of 2");
    }
    const json& response = e.messages[2];
    CHECK(response["id"] == id);
    int images = 0;
    for (const auto& block : response["result"]["content"]) images += block["type"] == "image" ? 1 : 0;
    CHECK(images == 2);
  }
  SUBCASE("no Mcp-Session-Id: 400") {
    const Exchange e = mcp.post(tools_list_message(mcp.next_id("tools/list")), {{"Mcp-Session-Id", ""}});
    expect_rpc_error(e.http, 400, -32600,
                     "Bad Request: no Mcp-Session-Id header; send initialize first, or give each request "
                     "_meta[\"io.modelcontextprotocol/protocolVersion\"]");
  }
  SUBCASE("an unknown Mcp-Session-Id: 404") {
    const Exchange e = mcp.post(tools_list_message(mcp.next_id("tools/list")), {{"Mcp-Session-Id", unknown_session}});
    expect_rpc_error(e.http, 404, -32600,
                     "Not Found: session " + unknown_session +
                         " does not exist or has ended; send initialize to start a new one");
  }
  SUBCASE("DELETE ends the session: 200, then its id is unknown") {
    Client client(server.port());
    const Reply deleted = client.send("DELETE", "/mcp", {{"Mcp-Session-Id", session}});
    CHECK(deleted.status == 200);
    CHECK(deleted.body.empty());
    const Exchange e = mcp.post(tools_list_message(mcp.next_id("tools/list")));
    expect_rpc_error(e.http, 404, -32600,
                     "Not Found: session " + session + " does not exist or has ended; send initialize to start a new one");
    expect_rpc_error(client.send("DELETE", "/mcp", {{"Mcp-Session-Id", session}}), 404, -32600,
                     "Not Found: session " + session + " does not exist or has ended");
    expect_rpc_error(client.send("DELETE", "/mcp"), 400, -32600, "Bad Request: no Mcp-Session-Id header");
  }
  SUBCASE("a POST whose Accept lacks text/event-stream: 406") {
    const Exchange e = mcp.post(tools_list_message(mcp.next_id("tools/list")), {{"Accept", "application/json"}});
    expect_rpc_error(e.http, 406, -32600,
                     "Not Acceptable: the Accept header must allow both application/json and text/event-stream");
  }
  SUBCASE("Content-Type text/plain: 415") {
    const Exchange e = mcp.post(tools_list_message(mcp.next_id("tools/list")), {{"Content-Type", "text/plain"}});
    expect_rpc_error(e.http, 415, -32600, "Unsupported Media Type: the body must be application/json");
  }
  SUBCASE("MCP-Protocol-Version 1999-01-01: 400") {
    const Exchange e = mcp.post(tools_list_message(mcp.next_id("tools/list")), {{"MCP-Protocol-Version", "1999-01-01"}});
    const json error = expect_rpc_error(e.http, 400, -32022, "Bad Request: unsupported MCP-Protocol-Version 1999-01-01");
    CHECK(error["data"]["requested"] == "1999-01-01");
    CHECK(error["data"]["supported"] == json::array({"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}));
  }
  SUBCASE("no MCP-Protocol-Version header: served") {
    const Exchange e = mcp.post(tools_list_message(mcp.next_id("tools/list")), {{"MCP-Protocol-Version", ""}});
    CHECK(e.http.status == 200);
    CHECK(e.last().contains("result"));
  }
  SUBCASE("an older supported MCP-Protocol-Version than negotiated: served") {
    const Exchange e = mcp.post(tools_list_message(mcp.next_id("tools/list")), {{"MCP-Protocol-Version", "2025-03-26"}});
    CHECK(e.http.status == 200);
    CHECK(e.last().contains("result"));
  }
  SUBCASE("a body that is not JSON: 400 with -32700") {
    Client client(server.port());
    const Reply r = client.send("POST", "/mcp",
                                post_headers({{"Mcp-Session-Id", session}, {"MCP-Protocol-Version", "2025-11-25"}}),
                                "{\"jsonrpc\": \"2.0\", \"id\": ");
    expect_rpc_error(r, 400, -32700, "Parse error: the message is not valid JSON (UTF-8 text expected)");
  }
  SUBCASE("an unknown method: a JSON-RPC error in a 200 answer") {
    const Exchange e = mcp.post({{"jsonrpc", "2.0"}, {"id", mcp.next_id("prompts/list")}, {"method", "prompts/list"}});
    CHECK(e.http.status == 200);
    CHECK(e.last()["error"]["code"] == -32601);
    CHECK(e.last()["error"]["message"] == "Method not found: prompts/list");
  }
}

TEST_CASE("http: a JSON-RPC batch in a 2025-03-26 session gets a JSON array") {
  TempDir root;
  root.write("notes.txt", "alpha\n");
  ServerProcess server({root.path().string()});
  McpHttp mcp(server.port());
  mcp.initialize("2025-03-26");
  const long long ping = mcp.next_id("ping");
  const long long list = mcp.next_id("tools/list");
  const long long call = mcp.next_id("tools/call");
  const json batch = json::array(
      {{{"jsonrpc", "2.0"}, {"id", ping}, {"method", "ping"}},
       {{"jsonrpc", "2.0"}, {"id", list}, {"method", "tools/list"}},
       {{"jsonrpc", "2.0"}, {"method", "notifications/roots/list_changed"}},
       {{"jsonrpc", "2.0"}, {"id", call}, {"method", "tools/call"},
        {"params", {{"name", "read"}, {"arguments", {{"file_path", "notes.txt"}}}}}}});
  const Exchange e = mcp.post(batch);
  CHECK(e.http.status == 200);
  CHECK(e.http.header("Content-Type") == "application/json");
  REQUIRE(e.messages.size() == 1);
  const json& answers = e.messages[0];
  REQUIRE(answers.is_array());
  REQUIRE(answers.size() == 3);  // the notification has no answer
  json by_id;
  for (const auto& a : answers) by_id[a["id"].dump()] = a;
  CHECK(by_id[json(ping).dump()]["result"] == json::object());
  CHECK(by_id[json(list).dump()]["result"]["tools"].size() >= 1);
  CHECK(by_id[json(call).dump()]["result"]["content"][0]["text"].get<std::string>().rfind("     1\talpha\n", 0) == 0);
}

TEST_CASE("http: a refused initialize leaves no session") {
  TempDir root;
  // One session at most: a session left behind by a refusal would make the next initialize fail.
  ServerProcess server({root.path().string(), "--max-sessions", "1"});
  Client client(server.port());
  for (int i = 0; i < 3; ++i) {
    const Reply r = client.send("POST", "/mcp", post_headers(),
                                initialize_message({{"capabilities", json::object()}, {"clientInfo", client_info}}).dump());
    CHECK(r.status == 200);
    CHECK_FALSE(r.has_header("Mcp-Session-Id"));
    const json body = r.json();
    validate_server_message("2025-11-25", body, "initialize");
    CHECK(body["id"] == 1);
    CHECK(body["error"]["code"] == -32602);
    CHECK(body["error"]["message"] == "Invalid params: \"initialize\" needs \"protocolVersion\" (a string)");
  }
  McpHttp mcp(server.port());
  const std::string session = mcp.initialize("2025-11-25");
  CHECK_FALSE(session.empty());
  // The limit itself: the second session is refused while the first is open.
  const Reply full = client.send("POST", "/mcp", post_headers(),
                                 initialize_message({{"protocolVersion", "2025-11-25"},
                                                     {"capabilities", json::object()},
                                                     {"clientInfo", client_info}})
                                     .dump());
  expect_rpc_error(full, 503, -32600,
                   "Service Unavailable: 1 sessions are open (--max-sessions); end one with DELETE");
  CHECK(full.header("Retry-After") == "5");
  CHECK_FALSE(full.has_header("Mcp-Session-Id"));
}
