// Lifecycle over stdio: version negotiation, capabilities, tools/list, logging/setLevel, and
// clean exits on EOF and signals.
#include "fixtures.hpp"
#include "mcp_client.hpp"
#include "registry_kinds.hpp"

#include <doctest/doctest.h>

#include <csignal>
#include <sstream>
#include <string>

using mcpread::test::file_types;
using mcpread::test::McpClient;
using mcpread::test::TempDir;
using nlohmann::json;

namespace {

// Runs mcp-read with `args` and its stdin at its end; returns its stdout, and its exit status in
// `status` (-1 when it does not exit within 20 s).
std::string run_and_capture(std::vector<std::string> args, int* status) {
  args.insert(args.begin(), mcpread::test::binary_path().string());
  mcpread::test::ChildProcess child({std::move(args), {}, {}});
  child.close_stdin();
  std::string out;
  while (child.read(out, std::chrono::seconds(20)) == mcpread::test::ChildProcess::Read::data) {
  }
  *status = child.wait_exit(std::chrono::seconds(20)).value_or(-1);
  return out;
}

}  // namespace

TEST_CASE("initialize negotiates the protocol version") {
  TempDir root;
  SUBCASE("each supported version is echoed") {
    for (const char* version : {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"}) {
      McpClient client({{root.path().string()}});
      const json result = client.initialize(version);
      CHECK(result["protocolVersion"] == version);
      CHECK(result["serverInfo"]["name"] == "mcp-read");
      CHECK(result["capabilities"]["tools"].is_object());
      CHECK(result["capabilities"]["logging"].is_object());
      CHECK(result["capabilities"]["resources"] == json::object());
      CHECK_FALSE(result["capabilities"].contains("prompts"));
      CHECK(result["serverInfo"].contains("title") == (std::string(version) >= "2025-06-18"));
    }
  }
  SUBCASE("an unknown version gets the latest") {
    McpClient client({{root.path().string()}});
    CHECK(client.initialize("2099-01-01")["protocolVersion"] == "2025-11-25");
  }
  SUBCASE("initialize without protocolVersion is invalid params") {
    McpClient client({{root.path().string()}});
    const json r = client.request("initialize", {{"capabilities", json::object()}});
    CHECK(r["error"]["code"] == -32602);
    CHECK(r["error"]["message"] == "Invalid params: \"initialize\" needs \"protocolVersion\" (a string)");
  }
  SUBCASE("a second initialize is refused") {
    McpClient client({{root.path().string()}});
    client.initialize();
    const json r = client.request("initialize", {{"protocolVersion", "2025-11-25"},
                                                 {"capabilities", json::object()},
                                                 {"clientInfo", {{"name", "x"}, {"version", "1"}}}});
    CHECK(r["error"]["code"] == -32600);
    CHECK(r["error"]["message"] == "Invalid Request: the session is already initialized");
  }
}

TEST_CASE("requests before initialize") {
  TempDir root;
  McpClient client({{root.path().string()}});
  SUBCASE("ping is answered") {
    const json r = client.request("ping");
    CHECK(r["result"] == json::object());
  }
  SUBCASE("anything else is refused") {
    for (const char* method : {"tools/list", "tools/call", "logging/setLevel", "no/such"}) {
      const json r = client.request(method);
      CHECK(r["error"]["code"] == -32600);
      CHECK(r["error"]["message"] ==
            "Invalid Request: the session is not initialized; send \"initialize\" first");
    }
  }
}

TEST_CASE("tools/list") {
  TempDir root;
  SUBCASE("read and read_image, shaped for each version") {
    for (const char* version : {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"}) {
      CAPTURE(version);
      McpClient client({{root.path().string()}});
      client.initialize(version);
      const json r = client.request("tools/list");
      const json& tools = r["result"]["tools"];
      REQUIRE(tools.size() == 2);
      CHECK(tools[0]["name"] == "read");
      CHECK(tools[1]["name"] == "read_image");
      CHECK_FALSE(r["result"].contains("nextCursor"));
      // read's schema in full; read_image's names file_path only (test_tool_list_size.cpp).
      const json& schema = tools[0]["inputSchema"];
      CHECK(schema["properties"].contains("offset"));
      CHECK(schema["properties"]["column"] ==
            json{{"type", "integer"}, {"minimum", 1}, {"description", "First character of each line, 1-based."}});
      CHECK(schema["properties"]["file_type"]["enum"] == file_types());
      for (const auto& tool : tools) {
        CHECK(tool["inputSchema"]["required"] == json::array({"file_path"}));
        CHECK_FALSE(tool.contains("outputSchema"));
        const bool annotated = std::string(version) >= "2025-03-26";
        CHECK(tool.contains("annotations") == annotated);
        if (annotated) {
          CHECK(tool["annotations"]["readOnlyHint"] == true);
          CHECK(tool["annotations"]["idempotentHint"] == true);
          CHECK(tool["annotations"]["openWorldHint"] == false);
          CHECK(tool["annotations"]["destructiveHint"] == false);
        }
        const bool titled = std::string(version) >= "2025-06-18";
        CHECK(tool.contains("title") == titled);
        // The annotation's title where the top-level one does not exist yet, not beside it.
        if (annotated) CHECK(tool["annotations"].contains("title") == !titled);
        if (annotated && !titled) CHECK(tool["annotations"]["title"] == "Read file");
      }
      // read_image points at read in a line instead of repeating its description.
      CHECK(tools[1]["description"].get<std::string>().find("`read` tool") != std::string::npos);
      CHECK(tools[1]["description"].get<std::string>().size() < 120);
      // Deterministic: the same list every time.
      CHECK(client.request("tools/list")["result"] == r["result"]);
    }
  }
  SUBCASE("a cursor we did not issue is invalid params") {
    McpClient client({{root.path().string()}});
    client.initialize();
    for (const json& cursor : {json("bogus"), json(12), json("mcp-read:tools:99")}) {
      const json r = client.request("tools/list", {{"cursor", cursor}});
      CHECK(r["error"]["code"] == -32602);
      CHECK(r["error"]["message"] ==
            "Invalid params: unknown \"cursor\"; pass a nextCursor from an earlier tools/list");
    }
  }
  SUBCASE("--structured-content adds outputSchema from 2025-06-18 on") {
    for (const char* version : {"2025-03-26", "2025-06-18"}) {
      McpClient client({{"--structured-content", root.path().string()}});
      client.initialize(version);
      const json tools = client.request("tools/list")["result"]["tools"];
      CHECK(tools[0].contains("outputSchema") == (std::string(version) >= "2025-06-18"));
    }
  }
}

TEST_CASE("logging/setLevel") {
  TempDir root;
  McpClient client({{root.path().string()}});
  client.initialize();
  SUBCASE("every syslog level is accepted") {
    for (const char* level : {"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"})
      CHECK(client.request("logging/setLevel", {{"level", level}})["result"] == json::object());
  }
  SUBCASE("an unknown level is invalid params") {
    const json r = client.request("logging/setLevel", {{"level", "verbose"}});
    CHECK(r["error"]["code"] == -32602);
    CHECK(r["error"]["message"] ==
          "Invalid params: \"level\" must be one of debug, info, notice, warning, error, critical, "
          "alert, emergency");
  }
}

TEST_CASE("exits") {
  TempDir root;
  root.write("a.txt", "alpha\n");
  SUBCASE("EOF after requests: every answer is written, then exit 0") {
    McpClient client({{root.path().string()}});
    client.initialize();
    const long long call = client.send_request("tools/call", {{"name", "read"}, {"arguments", {{"file_path", "a.txt"}}}});
    const long long ping = client.send_request("ping", json::object());
    client.close_stdin();
    const auto r1 = client.wait_for_id(call);
    const auto r2 = client.wait_for_id(ping);
    REQUIRE(r1);
    REQUIRE(r2);
    CHECK((*r1)["result"]["content"][0]["text"].get<std::string>().rfind("     1\talpha\n", 0) == 0);
    CHECK(client.wait_exit() == 0);
  }
#if !defined(_WIN32)  // Windows' console control events are tests/windows/test_console.cpp's
  SUBCASE("SIGTERM and SIGINT exit 0") {
    for (int sig : {SIGTERM, SIGINT}) {
      McpClient client({{root.path().string()}});
      client.initialize();
      client.signal(sig);
      CHECK(client.wait_exit() == 0);
    }
  }
#endif
  SUBCASE("a missing root is a startup error on stderr, exit 2") {
    int status = 0;
    const std::string out = run_and_capture({(root.path() / "nope").string()}, &status);
    CHECK(out.empty());
    CHECK(status == 2);
  }
}

TEST_CASE("command line") {
  int status = 0;
  SUBCASE("--help") {
    const std::string out = run_and_capture({"--help"}, &status);
    CHECK(status == 0);
    CHECK(out.rfind("Usage: mcp-read [OPTIONS] [ROOT...]", 0) == 0);
  }
  SUBCASE("--version") {
    const std::string out = run_and_capture({"--version"}, &status);
    CHECK(status == 0);
    // Outside the stdio transport stdout stays in text mode: a line ends as the system's do.
#if defined(_WIN32)
    CHECK(out == std::string("mcp-read ") + MCPREAD_TEST_VERSION + "\r\n");
#else
    CHECK(out == std::string("mcp-read ") + MCPREAD_TEST_VERSION + "\n");
#endif
  }
  SUBCASE("an unknown option fails with exit 2 and nothing on stdout") {
    const std::string out = run_and_capture({"--frobnicate"}, &status);
    CHECK(status == 2);
    CHECK(out.empty());
  }
}

TEST_CASE("stdout carries only MCP messages, logs go to stderr") {
  TempDir root;
  root.write("a.txt", "alpha\n");
  McpClient client({{"--log-level", "debug", root.path().string()}});
  client.initialize();
  client.call("read", {{"file_path", "a.txt"}});
  client.close_stdin();
  CHECK(client.wait_exit() == 0);
  CHECK(client.garbage().empty());
  CHECK(client.stderr_text().find("mcp-read") != std::string::npos);
}

TEST_CASE("--log-format json: one JSON object per stderr line") {
  TempDir root;
  root.write("a.txt", "alpha\n");
  McpClient client({{"--log-level", "debug", "--log-format", "json", root.path().string()}});
  client.initialize();
  client.call("read", {{"file_path", "a.txt"}});
  client.close_stdin();
  CHECK(client.wait_exit() == 0);
  CHECK(client.garbage().empty());
  std::istringstream lines(client.stderr_text());
  std::size_t n = 0;
  bool serving = false;
  for (std::string line; std::getline(lines, line); ++n) {
    const json entry = json::parse(line, nullptr, false);
    REQUIRE_MESSAGE(entry.is_object(), "not a JSON object: " << line);
    CHECK(entry["time"].get<std::string>().size() == 24);  // 2026-11-25T19:30:00.123Z
    CHECK(entry["time"].get<std::string>().back() == 'Z');
    CHECK(entry["logger"] == "mcp-read");
    CHECK((entry["level"] == "info" || entry["level"] == "debug"));
    serving = serving || entry["message"].get<std::string>().find("serving stdio") != std::string::npos;
  }
  CHECK(n >= 2);
  CHECK(serving);
}
