// What /metrics counts over real HTTP exchanges: every read by the kind of file it read (one
// series per registered kind, set by the read pipeline for every reader), and every MCP exchange
// by the JSON-RPC method its body holds, in a session as in the legacy HTTP+SSE transport.
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

const auto sample = metric_sample;

constexpr const char* notebook = R"NB({
  "cells": [{"cell_type": "code", "execution_count": 1, "metadata": {}, "source": "print('hi')",
             "outputs": [{"output_type": "stream", "name": "stdout", "text": ["hi\n"]}]}],
  "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
  "nbformat": 4, "nbformat_minor": 5})NB";

std::string reads(const std::string& kind, const std::string& outcome = "ok") {
  return R"(mcpread_read_calls_total{kind=")" + kind + R"(",outcome=")" + outcome + R"("})";
}

std::string exchanges(const std::string& route, const std::string& method, const std::string& outcome = "2xx") {
  return R"(mcpread_http_requests_total{route=")" + route + R"(",method=")" + method + R"(",outcome=")" + outcome +
         R"("})";
}

}  // namespace

TEST_CASE("http: /metrics counts each read under the kind it read") {
  TempDir root;
  root.write("a.txt", "alpha\n");
  root.write("pic.png", encode_picture({64, 48, 3, Pattern::gradient}, ".png"));
  root.write("doc.pdf", text_pdf(2));
  root.write("nb.ipynb", notebook);
  root.write("tone.wav", wav_file(800));
  root.write("t.csv", "k,v\nx,1\n");
  ServerProcess server({root.path().string()});
  McpHttp mcp(server.port());
  mcp.initialize();
  for (const char* file : {"a.txt", "pic.png", "doc.pdf", "nb.ipynb", "tone.wav", "t.csv"}) {
    CAPTURE(file);
    const json r = mcp.call("read", {{"file_path", file}});
    CHECK_FALSE(r.value("isError", false));
  }
  // A PDF asked for as text is read as text; a missing file has no kind.
  CHECK(mcp.call("read", {{"file_path", "doc.pdf"}, {"file_type", "text"}})["_meta"]["kind"] == "text");
  CHECK(mcp.call("read", {{"file_path", "missing.txt"}})["isError"] == true);

  const Reply m = Client(server.port()).send("GET", "/metrics");
  REQUIRE(m.status == 200);
  CHECK(sample(m.body, reads("text")) == 2);
  CHECK(sample(m.body, reads("image")) == 1);
  CHECK(sample(m.body, reads("pdf")) == 1);
  CHECK(sample(m.body, reads("notebook")) == 1);
  CHECK(sample(m.body, reads("audio")) == 1);
  CHECK(sample(m.body, reads("csv")) == 1);
  CHECK(sample(m.body, reads("none", "error")) == 1);
  CHECK(sample(m.body, reads("none")) == -1);  // no successful read goes uncounted by kind
}

TEST_CASE("http: /metrics labels MCP exchanges with the method of their body") {
  TempDir root;
  root.write("a.txt", "alpha\n");
  ServerProcess server({root.path().string()});
  Client ops(server.port());

  SUBCASE("a Streamable HTTP session") {
    McpHttp mcp(server.port());
    mcp.initialize();
    mcp.request("tools/list");
    mcp.request("resources/templates/list");
    mcp.call("read", {{"file_path", "a.txt"}});
    mcp.call("read", {{"file_path", "a.txt"}});
    mcp.request("ping");
    // A stateless request carries Mcp-Method; its body says the same.
    CHECK(mcp.stateless("tools/list").http.status == 200);
    // A response to no request of the server, and a body that is not JSON-RPC, name no method.
    Client raw(server.port());
    const Headers session = {{"Mcp-Session-Id", mcp.session_id()}, {"MCP-Protocol-Version", "2025-11-25"}};
    CHECK(raw.send("POST", "/mcp", post_headers(session), R"({"jsonrpc":"2.0","id":77,"result":{}})").status == 202);
    // A method no one knows is answered (-32601, in a 200 answer of the session) and labelled "other".
    CHECK(raw.send("POST", "/mcp", post_headers(session), R"({"jsonrpc":"2.0","id":78,"method":"no/such"})").status ==
          200);

    const Reply m = ops.send("GET", "/metrics");
    REQUIRE(m.status == 200);
    CHECK(sample(m.body, exchanges("/mcp", "initialize")) == 1);
    CHECK(sample(m.body, exchanges("/mcp", "notifications/initialized")) == 1);
    CHECK(sample(m.body, exchanges("/mcp", "tools/list")) == 2);
    CHECK(sample(m.body, exchanges("/mcp", "resources/templates/list")) == 1);
    CHECK(sample(m.body, exchanges("/mcp", "tools/call")) == 2);
    CHECK(sample(m.body, exchanges("/mcp", "ping")) == 1);
    CHECK(sample(m.body, exchanges("/mcp", "-")) == 1);  // the stray response
    CHECK(sample(m.body, exchanges("/mcp", "other")) == 1);
    CHECK(sample(m.body, R"(mcpread_http_request_duration_seconds_count{route="/mcp",method="tools/call"})") == 2);
  }
  SUBCASE("the legacy HTTP+SSE transport: the stream has no method, each POST its own") {
    Client stream(server.port());
    REQUIRE(stream.open("GET", "/sse", {{"Accept", "text/event-stream"}}).status == 200);
    const auto endpoint = stream.next_event(10s);
    REQUIRE(endpoint);
    Client poster(server.port());
    auto post = [&](const json& message) {
      return poster.send("POST", endpoint->data, {{"Content-Type", "application/json"}}, message.dump()).status;
    };
    CHECK(post({{"jsonrpc", "2.0"},
                {"id", 1},
                {"method", "initialize"},
                {"params",
                 {{"protocolVersion", "2024-11-05"},
                  {"capabilities", json::object()},
                  {"clientInfo", {{"name", "metrics-e2e"}, {"version", "1.0"}}}}}}) == 202);
    REQUIRE(stream.next_event(10s));
    CHECK(post({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}) == 202);
    CHECK(post({{"jsonrpc", "2.0"}, {"id", 2}, {"method", "tools/list"}}) == 202);
    REQUIRE(stream.next_event(10s));
    CHECK(poster.send("POST", endpoint->data, {{"Content-Type", "application/json"}}, "{").status == 202);

    const Reply m = ops.send("GET", "/metrics");
    REQUIRE(m.status == 200);
    CHECK(sample(m.body, exchanges("/sse", "-")) == 1);
    CHECK(sample(m.body, exchanges("/messages", "initialize")) == 1);
    CHECK(sample(m.body, exchanges("/messages", "notifications/initialized")) == 1);
    CHECK(sample(m.body, exchanges("/messages", "tools/list")) == 1);
    CHECK(sample(m.body, exchanges("/messages", "-")) == 1);  // not JSON: no method to name
  }
}
