// mcp-read's `read` as a task over HTTP (tasks extension, 2026-07-28): with --task-after-ms 0
// every read from a client that declares the extension becomes a task, polled with tasks/get
// until it completes with the result the read would have given in its request.
#include "fixtures.hpp"
#include "http_client.hpp"
#include "pdf_fixtures.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace mcpread::test;
using namespace mcpread::test::http;
using nlohmann::json;

namespace {

constexpr const char* tasks = "io.modelcontextprotocol/tasks";

json with_tasks(json params) {
  params["_meta"]["io.modelcontextprotocol/clientCapabilities"] = {{"extensions", {{tasks, json::object()}}}};
  return params;
}
json read_params(const std::string& file) { return {{"name", "read"}, {"arguments", {{"file_path", file}}}}; }

// Polls tasks/get until the task has ended; its last DetailedTask. Each poll is a request the
// server answers at once: bounded by count, never by time.
json until_ended(McpHttp& mcp, const std::string& id) {
  json task;
  for (int i = 0; i < 100000; ++i) {
    const Exchange e = mcp.stateless("tasks/get", with_tasks({{"taskId", id}}));
    REQUIRE(e.last().contains("result"));
    task = e.last()["result"];
    const std::string status = task["status"];
    if (status == "completed" || status == "failed" || status == "cancelled") break;
  }
  return task;
}

}  // namespace

TEST_CASE("http: a read becomes a task (--task-after-ms 0)") {
  TempDir root;
  root.write("deck.pdf", text_pdf(3));
  ServerProcess server({root.path().string(), "--task-after-ms", "0"});
  McpHttp mcp(server.port());

  SUBCASE("server/discover declares the extension") {
    CHECK(mcp.stateless("server/discover").last()["result"]["capabilities"]["extensions"].contains(tasks));
  }
  SUBCASE("CreateTaskResult, then tasks/get until completed with the read's own result") {
    const Exchange created = mcp.stateless("tools/call", with_tasks(read_params("deck.pdf")));
    CHECK(created.http.status == 200);
    const json& r = created.last()["result"];
    CHECK(r["resultType"] == "task");
    CHECK(r["statusMessage"] == "reading deck.pdf");
    const std::string id = r["taskId"];
    const json task = until_ended(mcp, id);
    CHECK(task["status"] == "completed");
    const json sync = mcp.stateless("tools/call", read_params("deck.pdf")).last()["result"];
    CHECK(sync["resultType"] == "complete");
    CHECK(task["result"]["content"] == sync["content"]);
    SUBCASE("tasks/cancel on the finished task: an empty ack, the task stays completed") {
      const Exchange ack = mcp.stateless("tasks/cancel", with_tasks({{"taskId", id}}));
      CHECK(ack.last()["result"]["resultType"] == "complete");
      CHECK_FALSE(ack.last()["result"].contains("status"));
      CHECK(mcp.stateless("tasks/get", with_tasks({{"taskId", id}})).last()["result"]["status"] == "completed");
    }
  }
  SUBCASE("a client without the extension is answered in its request") {
    const Exchange e = mcp.stateless("tools/call", read_params("deck.pdf"));
    CHECK(e.last()["result"]["resultType"] == "complete");
    CHECK_FALSE(e.last()["result"].contains("taskId"));
  }
  SUBCASE("tasks/get without the extension: 400 -32021") {
    const Exchange e = mcp.stateless("tasks/get", {{"taskId", "0123"}});
    expect_rpc_error(e.http, 400, -32021,
                     "Missing required client capability: extension io.modelcontextprotocol/tasks. tasks/get serves "
                     "only clients that declare it in _meta[\"io.modelcontextprotocol/clientCapabilities\"].extensions",
                     stateless_version);
  }
  SUBCASE("tasks/get whose Mcp-Name is not its taskId: 400 -32020") {
    const Exchange e = mcp.stateless("tasks/get", with_tasks({{"taskId", "0123"}}), {{"Mcp-Name", "4567"}});
    expect_rpc_error(e.http, 400, -32020, "Header mismatch: Mcp-Name header value '4567' does not match body value '0123'",
                     stateless_version);
  }
  SUBCASE("an unknown task: -32602") {
    const Exchange e = mcp.stateless("tasks/get", with_tasks({{"taskId", "0123"}}));
    CHECK(e.last()["error"]["code"] == -32602);
  }
  SUBCASE("tasks/result and tasks/list were removed: 404 -32601") {
    for (const char* method : {"tasks/result", "tasks/list"}) {
      const Exchange e = mcp.stateless(method, with_tasks({{"taskId", "0123"}}));
      expect_rpc_error(e.http, 404, -32601, std::string("Method not found: ") + method, stateless_version);
    }
  }
}
