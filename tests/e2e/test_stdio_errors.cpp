// Malformed JSON-RPC, framing edge cases, batches, and bad tool calls: each gets its exact error
// and the server keeps serving.
#include "fixtures.hpp"
#include "mcp_client.hpp"
#include "registry_kinds.hpp"

#include <doctest/doctest.h>

#include <string>

using mcpread::test::file_type_list;
using mcpread::test::McpClient;
using mcpread::test::TempDir;
using nlohmann::json;

namespace {

// The server still answers after whatever came before.
void check_still_serving(McpClient& client) {
  const json r = client.request("ping");
  CHECK(r["result"] == json::object());
}

json next(McpClient& client) {
  auto m = client.receive();
  REQUIRE_MESSAGE(m, "no message; stderr:\n" << client.stderr_text());
  return *m;
}

}  // namespace

TEST_CASE("malformed JSON-RPC") {
  TempDir root;
  McpClient client({{root.path().string()}});
  client.initialize();

  SUBCASE("not JSON: parse error without an id") {
    client.send_raw("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \n");
    const json r = next(client);
    CHECK(r["error"]["code"] == -32700);
    CHECK(r["error"]["message"] == "Parse error: the message is not valid JSON (UTF-8 text expected)");
    CHECK_FALSE(r.contains("id"));
  }
  SUBCASE("invalid UTF-8 inside JSON is a parse error") {
    client.send_raw("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":\"\xff\xfe\"}}\n");
    CHECK(next(client)["error"]["code"] == -32700);
  }
  SUBCASE("not an object") {
    for (const char* text : {"42", "\"hello\"", "null", "true"}) {
      client.send_raw(std::string(text) + "\n");
      const json r = next(client);
      CHECK(r["error"]["code"] == -32600);
      CHECK(r["error"]["message"] == "Invalid Request: a message must be a JSON object");
    }
  }
  SUBCASE("missing or wrong jsonrpc keeps the id") {
    client.send({{"id", 7}, {"method", "ping"}});
    json r = next(client);
    CHECK(r["id"] == 7);
    CHECK(r["error"]["code"] == -32600);
    CHECK(r["error"]["message"] == "Invalid Request: \"jsonrpc\" must be \"2.0\"");
    client.send({{"jsonrpc", "1.0"}, {"id", "s"}, {"method", "ping"}});
    r = next(client);
    CHECK(r["id"] == "s");
    CHECK(r["error"]["code"] == -32600);
  }
  SUBCASE("ids of the wrong type") {
    for (const json& id : {json(true), json::object(), json::array(), json(1.5), json(nullptr)}) {
      client.send({{"jsonrpc", "2.0"}, {"id", id}, {"method", "ping"}});
      const json r = next(client);
      CHECK(r["error"]["code"] == -32600);
      CHECK(r["error"]["message"] == "Invalid Request: \"id\" must be a string or an integer");
    }
  }
  SUBCASE("string and integer ids are echoed exactly") {
    for (const json& id : {json("abc"), json(0), json(-5), json(9007199254740991LL), json("")}) {
      client.send({{"jsonrpc", "2.0"}, {"id", id}, {"method", "ping"}});
      const json r = next(client);
      CHECK(r["id"] == id);
      CHECK(r["result"] == json::object());
    }
  }
  SUBCASE("method of the wrong type") {
    client.send({{"jsonrpc", "2.0"}, {"id", 3}, {"method", 12}});
    const json r = next(client);
    CHECK(r["error"]["code"] == -32600);
    CHECK(r["error"]["message"] == "Invalid Request: \"method\" must be a string");
  }
  SUBCASE("params that are not an object") {
    client.send({{"jsonrpc", "2.0"}, {"id", 4}, {"method", "tools/list"}, {"params", json::array({1})}});
    const json r = next(client);
    CHECK(r["error"]["code"] == -32602);
    CHECK(r["error"]["message"] == "Invalid params: \"params\" must be an object");
  }
  SUBCASE("unknown method") {
    const json r = client.request("prompts/list");
    CHECK(r["error"]["code"] == -32601);
    CHECK(r["error"]["message"] == "Method not found: prompts/list");
  }
  SUBCASE("notifications get no answer, known or not") {
    client.send({{"jsonrpc", "2.0"}, {"method", "notifications/whatever"}});
    client.send({{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", 999}}}});
    const long long id = client.send_request("ping", json::object());
    const json r = next(client);  // the very next message is the ping's answer
    CHECK(r["id"] == id);
  }
  SUBCASE("a response to nothing we asked is ignored") {
    client.send({{"jsonrpc", "2.0"}, {"id", "nobody-asked"}, {"result", json::object()}});
    check_still_serving(client);
  }
  check_still_serving(client);
}

TEST_CASE("framing") {
  TempDir root;
  SUBCASE("a message split over several writes, CRLF endings and blank lines") {
    McpClient client({{root.path().string()}});
    client.initialize();
    client.send_raw("\n\r\n   \n{\"jsonrpc\":\"2.0\",");
    client.send_raw("\"id\":41,\"meth");
    client.send_raw("od\":\"ping\"}\r\n");
    CHECK(next(client)["id"] == 41);
    client.send_raw("{\"jsonrpc\":\"2.0\",\"id\":42,\"method\":\"ping\"}\n{\"jsonrpc\":\"2.0\",\"id\":43,\"method\":\"ping\"}\n");
    CHECK(next(client)["id"] == 42);
    CHECK(next(client)["id"] == 43);
  }
  SUBCASE("a message over the size limit is refused and the server goes on") {
    McpClient client({{"--max-message-bytes", "4096", root.path().string()}});
    client.initialize();
    client.send_raw("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\",\"params\":{\"pad\":\"" +
                    std::string(10000, 'x') + "\"}}\n");
    const json r = next(client);
    CHECK(r["error"]["code"] == -32600);
    CHECK(r["error"]["message"].get<std::string>().rfind("Invalid Request: a message of at least ", 0) == 0);
    CHECK(r["error"]["message"].get<std::string>().find("exceeds the limit of 4096 bytes") != std::string::npos);
    check_still_serving(client);
  }
  SUBCASE("a final message without newline is still answered at EOF") {
    McpClient client({{root.path().string()}});
    client.initialize();
    client.send_raw("{\"jsonrpc\":\"2.0\",\"id\":77,\"method\":\"ping\"}");
    client.close_stdin();
    CHECK(next(client)["id"] == 77);
    CHECK(client.wait_exit() == 0);
  }
}

TEST_CASE("batches") {
  TempDir root;
  SUBCASE("refused unless 2025-03-26 was negotiated") {
    for (const char* version : {"2024-11-05", "2025-06-18", "2025-11-25"}) {
      McpClient client({{root.path().string()}});
      client.initialize(version);
      client.send(json::array({{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "ping"}}}));
      const json r = next(client);
      CHECK(r["error"]["code"] == -32600);
      CHECK(r["error"]["message"] == "Invalid Request: JSON-RPC batches are accepted only when "
                                     "protocol version 2025-03-26 was negotiated");
    }
  }
  SUBCASE("on 2025-03-26: one array answers the requests, notifications get nothing") {
    root.write("a.txt", "alpha\n");
    McpClient client({{root.path().string()}});
    client.initialize("2025-03-26");
    client.send(json::array({
        {{"jsonrpc", "2.0"}, {"id", "p"}, {"method", "ping"}},
        {{"jsonrpc", "2.0"}, {"method", "notifications/whatever"}},
        {{"jsonrpc", "2.0"}, {"id", "c"}, {"method", "tools/call"},
         {"params", {{"name", "read"}, {"arguments", {{"file_path", "a.txt"}}}}}},
        {{"jsonrpc", "2.0"}, {"id", "u"}, {"method", "nope"}},
        42,
    }));
    const json r = next(client);
    REQUIRE(r.is_array());
    CHECK(r.size() == 4);
    int seen = 0;
    for (const auto& item : r) {
      if (item.contains("id") && item["id"] == "p") { CHECK(item["result"] == json::object()); ++seen; }
      if (item.contains("id") && item["id"] == "c") {
        CHECK(item["result"]["content"][0]["text"].get<std::string>().rfind("     1\talpha", 0) == 0);
        ++seen;
      }
      if (item.contains("id") && item["id"] == "u") { CHECK(item["error"]["code"] == -32601); ++seen; }
      if (!item.contains("id") || item["id"].is_null()) { CHECK(item["error"]["code"] == -32600); ++seen; }
    }
    CHECK(seen == 4);
    // A batch of notifications only gets no answer at all.
    client.send(json::array({{{"jsonrpc", "2.0"}, {"method", "notifications/whatever"}}}));
    const long long id = client.send_request("ping", json::object());
    CHECK(next(client)["id"] == id);
  }
  SUBCASE("an empty batch and initialize inside a batch") {
    McpClient client({{root.path().string()}});
    client.initialize("2025-03-26");
    client.send(json::array());
    json r = next(client);
    CHECK(r["error"]["code"] == -32600);
    CHECK(r["error"]["message"] == "Invalid Request: empty batch");
    client.send(json::array({{{"jsonrpc", "2.0"}, {"id", 5}, {"method", "initialize"},
                              {"params", {{"protocolVersion", "2025-03-26"}}}}}));
    r = next(client);
    REQUIRE(r.is_array());
    CHECK(r[0]["error"]["message"] == "Invalid Request: \"initialize\" must not be part of a batch");
  }
}

TEST_CASE("bad tool calls") {
  TempDir root;
  root.write("a.txt", "alpha\n");
  McpClient client({{root.path().string()}});
  client.initialize();

  SUBCASE("unknown tool is a protocol error") {
    const json r = client.request("tools/call", {{"name", "write"}, {"arguments", json::object()}});
    CHECK(r["error"]["code"] == -32602);
    CHECK(r["error"]["message"] == "Unknown tool: write. Available tools: read, read_image");
  }
  SUBCASE("missing name") {
    const json r = client.request("tools/call", {{"arguments", json::object()}});
    CHECK(r["error"]["code"] == -32602);
    CHECK(r["error"]["message"] == "Invalid params: \"tools/call\" needs \"name\" (a string)");
  }
  SUBCASE("bad arguments are isError results naming the problem") {
    struct Case {
      json arguments;
      std::string message;
    };
    const Case cases[] = {
        {json::object(), "The \"file_path\" argument is required: the absolute path of the file to read (a non-empty string)."},
        {{{"file_path", ""}}, "The \"file_path\" argument is required: the absolute path of the file to read (a non-empty string)."},
        {{{"file_path", 5}}, "The \"file_path\" argument is required: the absolute path of the file to read (a non-empty string)."},
        {{{"file_path", "a.txt"}, {"offset", -1}}, "The \"offset\" argument must be a whole number of at least 0, got -1."},
        {{{"file_path", "a.txt"}, {"limit", 0}}, "The \"limit\" argument must be a whole number of at least 1, got 0."},
        {{{"file_path", "a.txt"}, {"limit", "many"}}, "The \"limit\" argument must be a whole number of at least 1, got \"many\"."},
        {{{"file_path", "a.txt"}, {"file_type", "video"}}, "The \"file_type\" argument must be one of " + file_type_list() + "; got \"video\"."},
        {{{"file_path", "a.txt"}, {"encoding", 3}}, "The \"encoding\" argument must be a charset name such as \"windows-1252\"."},
        {{{"file_path", "a.txt"}, {"ofset", 3}}, "Unknown argument \"ofset\". The read tool accepts: file_path, offset, limit, column, pages, file_type, encoding, ocr_lang."},
    };
    for (const auto& c : cases) {
      CAPTURE(c.arguments.dump());
      const json r = client.call("read", c.arguments);
      CHECK(r["isError"] == true);
      CHECK(r["content"][0]["text"] == c.message);
    }
  }
  SUBCASE("arguments that are not an object") {
    const json r = client.request("tools/call", {{"name", "read"}, {"arguments", "a.txt"}});
    CHECK(r["result"]["isError"] == true);
    CHECK(r["result"]["content"][0]["text"] == "Invalid arguments: \"arguments\" must be an object");
  }
  SUBCASE("whole numbers given as strings or floats are accepted") {
    const json r = client.call("read", {{"file_path", "a.txt"}, {"offset", "1"}, {"limit", 5.0}});
    CHECK_FALSE(r.contains("isError"));
  }
  check_still_serving(client);
}
