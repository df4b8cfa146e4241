// Stateless requests (protocol 2026-07-28) over HTTP: no session, the version and capabilities in
// `_meta`, the MCP-Protocol-Version, Mcp-Method and Mcp-Name headers repeating the body.
#include "fixtures.hpp"
#include "http_client.hpp"
#include "pdf_fixtures.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace mcpread::test;
using namespace mcpread::test::http;
using nlohmann::json;

namespace {

const json all_versions = json::array({"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"});

json read_params(const std::string& file) { return {{"name", "read"}, {"arguments", {{"file_path", file}}}}; }

void check_complete(const Exchange& e) {
  CHECK(e.http.status == 200);
  CHECK(e.http.header("Content-Type") == "application/json");
  CHECK_FALSE(e.http.has_header("Mcp-Session-Id"));
  REQUIRE(e.last().contains("result"));
  CHECK(e.last()["result"]["resultType"] == "complete");
  CHECK(e.last()["result"]["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == "mcp-read");
}

}  // namespace

TEST_CASE("http: stateless 2026-07-28 requests") {
  TempDir root;
  root.write("notes.txt", "alpha\nbeta\n");
  root.write("deck.pdf", text_pdf(3));
  ServerProcess server({root.path().string()});
  McpHttp mcp(server.port());

  SUBCASE("server/discover: no session, a DiscoverResult") {
    const Exchange e = mcp.stateless("server/discover");
    check_complete(e);
    const json& r = e.last()["result"];
    CHECK(r["supportedVersions"] == all_versions);
    CHECK(r["capabilities"].contains("tools"));
    CHECK(r["cacheScope"] == "public");
  }
  SUBCASE("tools/list") {
    const Exchange e = mcp.stateless("tools/list");
    check_complete(e);
    bool read = false;
    for (const auto& tool : e.last()["result"]["tools"]) read = read || tool["name"] == "read";
    CHECK(read);
  }
  SUBCASE("tools/call read") {
    const Exchange e = mcp.stateless("tools/call", read_params("notes.txt"));
    check_complete(e);
    CHECK(e.last()["result"]["content"][0]["text"].get<std::string>().rfind("     1\talpha\n     2\tbeta\n", 0) == 0);
  }
  SUBCASE("Mcp-Name in its base64 form") {
    const Exchange e = mcp.stateless("tools/call", read_params("notes.txt"), {{"Mcp-Name", "=?base64?cmVhZA==?="}});
    check_complete(e);
    CHECK_FALSE(e.last()["result"].contains("isError"));
  }
  SUBCASE("the Mcp-Method header missing: 400 -32020") {
    const Exchange e = mcp.stateless("tools/list", json::object(), {{"Mcp-Method", ""}});
    expect_rpc_error(e.http, 400, -32020, "Header mismatch: the Mcp-Method header is missing", stateless_version);
  }
  SUBCASE("Mcp-Method unlike the body's method: 400 -32020") {
    const Exchange e = mcp.stateless("tools/list", json::object(), {{"Mcp-Method", "tools/call"}});
    expect_rpc_error(e.http, 400, -32020,
                     "Header mismatch: Mcp-Method header value 'tools/call' does not match body value 'tools/list'",
                     stateless_version);
  }
  SUBCASE("Mcp-Name unlike the body's name: 400 -32020") {
    const Exchange e = mcp.stateless("tools/call", read_params("notes.txt"), {{"Mcp-Name", "write"}});
    expect_rpc_error(e.http, 400, -32020,
                     "Header mismatch: Mcp-Name header value 'write' does not match body value 'read'",
                     stateless_version);
  }
  SUBCASE("Mcp-Name missing on tools/call: 400 -32020") {
    const Exchange e = mcp.stateless("tools/call", read_params("notes.txt"), {{"Mcp-Name", ""}});
    expect_rpc_error(e.http, 400, -32020, "Header mismatch: the Mcp-Name header is missing (tools/call needs it)",
                     stateless_version);
  }
  SUBCASE("an MCP-Protocol-Version header unlike the body's version: 400 -32020") {
    const Exchange e = mcp.stateless("tools/list", json::object(), {{"MCP-Protocol-Version", "2025-11-25"}});
    expect_rpc_error(e.http, 400, -32020,
                     "Header mismatch: MCP-Protocol-Version header value '2025-11-25' does not match body value "
                     "'2026-07-28'",
                     stateless_version);
  }
  SUBCASE("version 1900-01-01 in body and header: 400 -32022 listing the supported versions") {
    const Exchange e = mcp.stateless("tools/list", {{"_meta", {{"io.modelcontextprotocol/protocolVersion", "1900-01-01"}}}});
    const json error = expect_rpc_error(e.http, 400, -32022, "Bad Request: unsupported MCP-Protocol-Version 1900-01-01",
                                        stateless_version);
    CHECK(error["data"]["requested"] == "1900-01-01");
    CHECK(error["data"]["supported"] == all_versions);
    CHECK(e.last().contains("id"));  // the refusal answers the request
  }
  SUBCASE("the 2026-07-28 header and no _meta: 400 -32602 answering the request's id") {
    const long long id = mcp.next_id("server/discover", stateless_version);
    const Exchange e = mcp.post({{"jsonrpc", "2.0"}, {"id", id}, {"method", "server/discover"}, {"params", json::object()}},
                                {{"MCP-Protocol-Version", "2026-07-28"}, {"Mcp-Method", "server/discover"}});
    expect_rpc_error(e.http, 400, -32602, "Invalid params: _meta needs \"io.modelcontextprotocol/protocolVersion\"",
                     stateless_version);
    CHECK(e.last()["id"] == id);
  }
  SUBCASE("the 2026-07-28 header, _meta without its protocolVersion: 400 -32602") {
    const long long id = mcp.next_id("server/discover", stateless_version);
    const Exchange e = mcp.post(
        {{"jsonrpc", "2.0"},
         {"id", id},
         {"method", "server/discover"},
         {"params", {{"_meta", {{"io.modelcontextprotocol/clientCapabilities", json::object()}}}}}},
        {{"MCP-Protocol-Version", "2026-07-28"}, {"Mcp-Method", "server/discover"}});
    expect_rpc_error(e.http, 400, -32602, "Invalid params: _meta needs \"io.modelcontextprotocol/protocolVersion\"",
                     stateless_version);
    CHECK(e.last()["id"] == id);
  }
  SUBCASE("an unknown MCP-Protocol-Version header on a POST: 400 -32022 answering the request's id") {
    const long long id = mcp.next_id("tools/list", stateless_version);
    const Exchange e = mcp.post({{"jsonrpc", "2.0"}, {"id", id}, {"method", "tools/list"}},
                                {{"MCP-Protocol-Version", "v999.0.0"}});
    expect_rpc_error(e.http, 400, -32022, "Bad Request: unsupported MCP-Protocol-Version v999.0.0", stateless_version);
    CHECK(e.last()["id"] == id);
  }
  SUBCASE("initialize: a method of the session era, absent from 2026-07-28") {
    // Said to be of the 2026-07-28 era (its _meta and header): 404 -32601, as for any method
    // that era does not have.
    const Exchange e = mcp.stateless("initialize", {{"protocolVersion", "2026-07-28"}});
    expect_rpc_error(e.http, 404, -32601, "Method not found: initialize (not part of protocol 2026-07-28)",
                     stateless_version);
    CHECK(e.last().contains("id"));
    // Without them it is the session era's first request, and opens a session.
    McpHttp legacy(server.port());
    legacy.initialize();
    CHECK_FALSE(legacy.session_id().empty());
  }
  SUBCASE("a session-era version without a session: 400 -32022") {
    const Exchange e = mcp.stateless("tools/list", {{"_meta", {{"io.modelcontextprotocol/protocolVersion", "2025-11-25"}}}});
    const json error = expect_rpc_error(e.http, 400, -32022,
                                        "Unsupported protocol version: 2025-11-25 is served only after \"initialize\"; "
                                        "requests without a session use 2026-07-28",
                                        stateless_version);
    CHECK(error["data"]["supported"] == all_versions);
  }
  SUBCASE("an unknown method: 404 -32601") {
    expect_rpc_error(mcp.stateless("prompts/list").http, 404, -32601, "Method not found: prompts/list", stateless_version);
    expect_rpc_error(mcp.stateless("ping").http, 404, -32601, "Method not found: ping (not part of protocol 2026-07-28)",
                     stateless_version);
  }
  SUBCASE("no clientCapabilities in _meta: 400 -32602") {
    const long long id = mcp.next_id("tools/list", stateless_version);
    const Exchange e = mcp.post({{"jsonrpc", "2.0"},
                                 {"id", id},
                                 {"method", "tools/list"},
                                 {"params", {{"_meta", {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"}}}}}},
                                {{"MCP-Protocol-Version", "2026-07-28"}, {"Mcp-Method", "tools/list"}});
    expect_rpc_error(e.http, 400, -32602,
                                        "Invalid params: _meta needs \"io.modelcontextprotocol/clientCapabilities\" (an "
                                        "object, empty when the client has none)",
                                        stateless_version);
    CHECK(e.last()["id"] == id);
  }
  SUBCASE("a log level that is not one: 400 -32602") {
    const Exchange e = mcp.stateless("tools/list", {{"_meta", {{"io.modelcontextprotocol/logLevel", "verbose"}}}});
    expect_rpc_error(e.http, 400, -32602,
                     "Invalid params: \"io.modelcontextprotocol/logLevel\" must be one of debug, info, notice, "
                     "warning, error, critical, alert, emergency",
                     stateless_version);
  }
  SUBCASE("a PDF render with logLevel debug and a progressToken: an event stream") {
    json params = {{"name", "read"},
                   {"arguments", {{"file_path", "deck.pdf"}, {"file_type", "image"}}},
                   {"_meta", {{"progressToken", 7}, {"io.modelcontextprotocol/logLevel", "debug"}}}};
    const Exchange e = mcp.stateless("tools/call", std::move(params));
    CHECK(e.http.status == 200);
    CHECK(e.http.is_event_stream());
    CHECK_FALSE(e.http.has_header("Mcp-Session-Id"));
    REQUIRE(e.messages.size() >= 4);
    int progress = 0;
    for (std::size_t i = 0; i + 1 < e.messages.size(); ++i) {
      const json& m = e.messages[i];
      CHECK_FALSE(m.contains("id"));
      if (m["method"] != "notifications/progress") continue;
      ++progress;
      CHECK(m["params"]["progressToken"] == 7);
      CHECK(m["params"]["progress"] == progress);
      CHECK(m["params"]["total"] == 3);
    }
    CHECK(progress == 3);
    const json& response = e.last();
    REQUIRE(response.contains("result"));
    CHECK(response["result"]["resultType"] == "complete");
    int images = 0;
    for (const auto& block : response["result"]["content"]) images += block["type"] == "image" ? 1 : 0;
    CHECK(images == 3);
  }
  SUBCASE("a stateless request with a session's Mcp-Session-Id is served by the session") {
    mcp.initialize("2025-11-25");
    // The session negotiated 2025-11-25; a request declaring 2026-07-28 is still stateless there.
    const long long id = mcp.next_id("tools/list", stateless_version);
    const Exchange e = mcp.post({{"jsonrpc", "2.0"},
                                 {"id", id},
                                 {"method", "tools/list"},
                                 {"params",
                                  {{"_meta",
                                    {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                                     {"io.modelcontextprotocol/clientCapabilities", json::object()}}}}}});
    CHECK(e.http.status == 200);
    CHECK(e.last()["result"]["resultType"] == "complete");
  }
}
