// Answers shaped for the host that reads them, through the binary: the profile chosen from the
// clientInfo name (in initialize, or in each 2026-07-28 request's _meta, as Claude Code sends it),
// or forced with --host-profile; every message still checked against the schema.
#include "fixtures.hpp"
#include "mcp_client.hpp"
#include "pdf_fixtures.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace mcpread::test;
using nlohmann::json;

namespace {

// A 2026-07-28 request from Claude Code: its client info in every request's _meta.
json as_claude_code(McpClient& client, const std::string& method, json params) {
  params["_meta"]["io.modelcontextprotocol/clientInfo"] = {{"name", "claude-code"}, {"version", "2.1.330"}};
  params["_meta"]["io.modelcontextprotocol/clientCapabilities"] = {{"roots", {{"listChanged", true}}}};
  return client.stateless_request(method, std::move(params));
}

std::vector<std::string> types(const json& result) {
  std::vector<std::string> t;
  for (const auto& b : result["content"]) t.push_back(b["type"]);
  return t;
}

}  // namespace

TEST_CASE("Claude Code's profile, over its own stateless requests") {
  TempDir root;
  McpClient client({{root.path().string()}});
  SUBCASE("the tools declare the result size Claude Code should pass on whole") {
    const json r = as_claude_code(client, "tools/list", json::object());
    REQUIRE(r.contains("result"));
    for (const auto& tool : r["result"]["tools"]) {
      CAPTURE(tool["name"]);
      CHECK(tool["_meta"]["anthropic/maxResultSizeChars"] == 200000);
      CHECK_FALSE(tool.contains("outputSchema"));
    }
    // Another client's list has no such hint.
    const json plain = client.stateless_request("tools/list");
    CHECK_FALSE(plain["result"]["tools"][0].contains("_meta"));
  }
  SUBCASE("a PDF comes as page text and images of its pages without text, never as a blob") {
    // Pages with a page's worth of text stay text; the scanned one comes as an image after its
    // marker, in page order.
    const std::vector<std::string> prose(6, "Introduction: the quick brown fox jumps over the lazy dog again.");
    std::vector<std::string> closing = prose;
    closing.back() = "Conclusion.";
    root.write("scan.pdf", make_pdf({{PdfPage::Kind::text, prose}, {PdfPage::Kind::drawing, {}},
                                     {PdfPage::Kind::text, closing}}));
    const json r = as_claude_code(client, "tools/call", {{"name", "read"}, {"arguments", {{"file_path", "scan.pdf"}}}});
    const json& result = r["result"];
    CHECK(types(result) == std::vector<std::string>{"text", "image", "text"});
    const std::string first = result["content"][0]["text"];
    CAPTURE(first);
    CHECK(first.find("Introduction: the quick brown fox jumps") != std::string::npos);
    CHECK(first.ends_with("[Page 2 has no text layer; an image of the page follows.]"));
    CHECK(result["content"][2]["text"].get<std::string>().find("Conclusion.") != std::string::npos);
    CHECK(result["_meta"]["host_profile"] == "claude-code");
    CHECK(result["_meta"]["rendered"][0]["page"] == 2);
    CHECK(result["_meta"]["rendered"].size() == 1);
  }
  SUBCASE("audio is described, not attached") {
    root.write("beep.wav", wav_file(16000));
    const json r = as_claude_code(client, "tools/call", {{"name", "read"}, {"arguments", {{"file_path", "beep.wav"}}}});
    CHECK(types(r["result"]) == std::vector<std::string>{"text"});
    const std::string text = r["result"]["content"][0]["text"];
    CHECK(text.find(", 2.00 s, 8000 Hz, mono.") != std::string::npos);
    CHECK(text.ends_with("[The audio itself is not attached: this host (claude-code) does not pass audio "
                         "content on to the model.]"));
  }
}

TEST_CASE("Claude Code's profile caps text below the declared result size, whatever the server's cap") {
  // Claude Code replaces a text result longer than the tool's anthropic/maxResultSizeChars with a
  // preview, and the model never sees the text: a raised --max-output-bytes must not get there.
  TempDir root;
  std::string lines;
  for (int i = 1; i <= 5000; ++i)
    lines += "line " + std::to_string(i) + " of a long log: the quick brown fox jumps over the lazy dog\n";
  REQUIRE(lines.size() > 300000);
  root.write("long.log", lines);
  McpClient client({{"--max-output-bytes", "4000000", root.path().string()}});
  const json r = as_claude_code(client, "tools/call", {{"name", "read"}, {"arguments", {{"file_path", "long.log"}, {"limit", 5000}}}});
  const json& result = r["result"];
  REQUIRE(types(result) == std::vector<std::string>{"text"});
  const std::string text = result["content"][0]["text"];
  const json tools = as_claude_code(client, "tools/list", json::object());
  const std::size_t declared = tools["result"]["tools"][0]["_meta"]["anthropic/maxResultSizeChars"];
  CHECK(text.size() <= declared);  // bytes: at least as many as characters
  CHECK(text.size() > declared / 2);  // still a full page of the host's size, not the generic cap
  CAPTURE(text.substr(text.size() - 200));
  CHECK(text.find("[Output capped at 196000 bytes: lines 1-") != std::string::npos);
  CHECK(text.find("To read more, call read again with offset=") != std::string::npos);
  // Another client keeps the raised cap: the whole file in one answer.
  const json plain = client.stateless_request("tools/call", {{"name", "read"}, {"arguments", {{"file_path", "long.log"}, {"limit", 5000}}}});
  CHECK(plain["result"]["content"][0]["text"].get<std::string>().find("[Lines 1-5000 of 5000. End of file.]") != std::string::npos);
}

TEST_CASE("profiles by initialize's clientInfo, and forced from the command line") {
  TempDir root;
  root.write("beep.wav", wav_file(800));
  SUBCASE("Gemini CLI in a session: audio described") {
    McpClient client({{root.path().string()}});
    const json init = client.request("initialize", {{"protocolVersion", "2025-06-18"},
                                                    {"capabilities", json::object()},
                                                    {"clientInfo", {{"name", "gemini-cli-mcp-client"}, {"version", "0.61.0"}}}});
    REQUIRE(init.contains("result"));
    client.send({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
    const json r = client.call("read", {{"file_path", "beep.wav"}});
    CHECK(types(r) == std::vector<std::string>{"text"});
    CHECK(r["_meta"]["host_profile"] == "gemini-cli");
  }
  SUBCASE("an unknown client gets the spec-native answer") {
    McpClient client({{root.path().string()}});
    client.initialize("2025-06-18");
    CHECK(types(client.call("read", {{"file_path", "beep.wav"}})) == std::vector<std::string>{"text", "audio"});
  }
  SUBCASE("--host-profile codex: errors say so in their text") {
    McpClient client({{root.path().string(), "--host-profile", "codex"}});
    client.initialize("2025-06-18");
    const json r = client.call("read", {{"file_path", "missing.txt"}});
    CHECK(r["isError"] == true);
    CHECK(r["content"][0]["text"].get<std::string>().rfind("Error: ", 0) == 0);
  }
}
