// Hostile JSON-RPC over stdio, one SUBCASE per row: raw lines the server must refuse with the
// exact code and message (or must not answer at all), after which it still answers a ping, with
// its peak memory under a bound. Each row starts its own server, so VmHWM is the row's own.
#include "fixtures.hpp"
#include "hostile_helpers.hpp"
#include "mcp_client.hpp"
#include "registry_kinds.hpp"
#include "pdf_fixtures.hpp"

#include <doctest/doctest.h>

#include <functional>
#include <set>
#include <string>
#include <vector>

using namespace mcpread::test;
using namespace mcpread::test::hostile;
using nlohmann::json;

namespace {

// The server holds at most one message of --max-message-bytes (16 MiB by default) while framing;
// anything longer is discarded as it streams by. 48 MiB leaves room for that and the runtime.
constexpr std::uint64_t protocol_mib = 48;

json next(McpClient& client) {
  auto m = client.receive();
  REQUIRE_MESSAGE(m, "no message; stderr:\n" << client.stderr_text());
  return *m;
}

// An error that could not be matched to a request: id null, or (2025-11-25) no id at all.
bool unaddressed(const json& r) { return !r.contains("id") || r["id"].is_null(); }

struct LineRow {
  const char* name;
  std::function<void(McpClient&)> send;  // writes the hostile bytes
  int code;                              // 0: the server must not answer at all
  std::string message;
  json id = nullptr;                     // null: unaddressed
  bool initialize = true;
};

}  // namespace

TEST_CASE("hostile protocol: malformed lines") {
  const std::string hundred_mib_note =
      " bytes exceeds the limit of 16777216 bytes (--max-message-bytes)";
  const std::vector<LineRow> rows = {
      {"truncated JSON",
       [](McpClient& c) { c.send_raw("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"re\n"); },
       -32700, "Parse error: the message is not valid JSON (UTF-8 text expected)"},
      {"invalid UTF-8 in a string",
       [](McpClient& c) { c.send_raw("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"x\":\"\xC0\xAF\"}\n"); },
       -32700, "Parse error: the message is not valid JSON (UTF-8 text expected)"},
      // 100 MiB in 1 MiB writes: the framer reports the line once it passes the limit and drops
      // the rest without storing it.
      {"a 100 MiB line",
       [](McpClient& c) {
         c.send_raw("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\",\"params\":{\"pad\":\"");
         const std::string block(1 << 20, 'x');
         for (int i = 0; i < 100; ++i) c.send_raw(block);
         c.send_raw("\"}}\n");
       },
       -32600, "Invalid Request: a message of at least "},
      // Refused by a scan before parsing: a parser recursing per level would overflow the stack.
      {"100k nested arrays",
       [](McpClient& c) { c.send_raw(std::string(100000, '[') + std::string(100000, ']') + "\n"); },
       -32600, "Invalid Request: the message nests arrays and objects more than 128 levels deep"},
      {"a request with params nested 129 deep",
       [](McpClient& c) {
         std::string params = "1";
         for (int i = 0; i < 129; ++i) params = "{\"a\":" + params + "}";
         c.send_raw("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\",\"params\":" + params + "}\n");
       },
       -32600, "Invalid Request: the message nests arrays and objects more than 128 levels deep"},
      {"id an object", [](McpClient& c) { c.send({{"jsonrpc", "2.0"}, {"id", {{"a", 1}}}, {"method", "ping"}}); },
       -32600, "Invalid Request: \"id\" must be a string or an integer"},
      {"id an array", [](McpClient& c) { c.send({{"jsonrpc", "2.0"}, {"id", {1, 2}}, {"method", "ping"}}); },
       -32600, "Invalid Request: \"id\" must be a string or an integer"},
      {"id a boolean", [](McpClient& c) { c.send({{"jsonrpc", "2.0"}, {"id", true}, {"method", "ping"}}); },
       -32600, "Invalid Request: \"id\" must be a string or an integer"},
      {"id a float", [](McpClient& c) { c.send_raw("{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}\n"); },
       -32600, "Invalid Request: \"id\" must be a string or an integer"},
      {"id null", [](McpClient& c) { c.send_raw("{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}\n"); },
       -32600, "Invalid Request: \"id\" must be a string or an integer"},
      {"method a number", [](McpClient& c) { c.send({{"jsonrpc", "2.0"}, {"id", 8}, {"method", 42}}); },
       -32600, "Invalid Request: \"method\" must be a string", 8},
      {"params an array",
       [](McpClient& c) { c.send({{"jsonrpc", "2.0"}, {"id", 9}, {"method", "tools/call"}, {"params", {"read"}}}); },
       -32602, "Invalid params: \"params\" must be an object", 9},
      {"params a string",
       [](McpClient& c) { c.send({{"jsonrpc", "2.0"}, {"id", 10}, {"method", "tools/call"}, {"params", "read"}}); },
       -32602, "Invalid params: \"params\" must be an object", 10},
      {"tools/call name a number",
       [](McpClient& c) { c.send({{"jsonrpc", "2.0"}, {"id", 11}, {"method", "tools/call"}, {"params", {{"name", 1}}}}); },
       -32602, "Invalid params: \"tools/call\" needs \"name\" (a string)", 11},
      {"an unknown method", [](McpClient& c) { c.send({{"jsonrpc", "2.0"}, {"id", 12}, {"method", "files/delete"}}); },
       -32601, "Method not found: files/delete", 12},
      {"a request before initialize",
       [](McpClient& c) { c.send({{"jsonrpc", "2.0"}, {"id", 13}, {"method", "tools/list"}}); },
       -32600, "Invalid Request: the session is not initialized; send \"initialize\" first", 13, false},
      {"notifications/cancelled for unknown ids",
       [](McpClient& c) {
         for (const json& id : {json(424242), json("nobody"), json(-1), json::object()})
           c.send({{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", id}}}});
         c.send({{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}});
       },
       0, ""},
      // Not a well-formed notification at all: answered without an id, as JSON-RPC 2.0's own
      // example answers {"jsonrpc": "2.0", "method": 1, "params": "bar"}.
      {"notifications/cancelled with params a string",
       [](McpClient& c) { c.send({{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", "junk"}}); },
       -32602, "Invalid params: \"params\" must be an object"},
  };
  for (const LineRow& row : rows) {
    SUBCASE(row.name) {
      TempDir root;
      McpClient client({{root.path().string()}});
      if (row.initialize) client.initialize();
      row.send(client);
      if (row.code == 0) {
        // Not answered: the very next message is the answer to a ping sent after.
        const long long id = client.send_request("ping", json::object());
        CHECK(next(client)["id"] == id);
      } else {
        const json r = next(client);
        CHECK(r["error"]["code"] == row.code);
        const std::string message = r["error"]["message"];
        if (std::string(row.name) == "a 100 MiB line") {
          CHECK(message.rfind(row.message, 0) == 0);
          CHECK(message.ends_with(hundred_mib_note));
        } else {
          CHECK(message == row.message);
        }
        if (row.id.is_null()) CHECK(unaddressed(r));
        else CHECK(r["id"] == row.id);
      }
      if (!row.initialize) client.initialize();
      check_still_serving(client);
      check_peak_under(client, protocol_mib, "one message of at most 16 MiB is held");
    }
  }
}

TEST_CASE("hostile protocol: wrong types in every read argument") {
  struct Case {
    const char* name;
    json arguments;
    std::string message;  // the isError text; "@" stands for the file's absolute path
  };
  const Case cases[] = {
      {"file_path a number", {{"file_path", 5}}, "The \"file_path\" argument is required: the absolute path of the file to read (a non-empty string)."},
      {"file_path an array", {{"file_path", {"a.txt"}}}, "The \"file_path\" argument is required: the absolute path of the file to read (a non-empty string)."},
      {"offset negative", {{"file_path", "a.txt"}, {"offset", -1}}, "The \"offset\" argument must be a whole number of at least 0, got -1."},
      {"offset a string", {{"file_path", "a.txt"}, {"offset", "ten"}}, "The \"offset\" argument must be a whole number of at least 0, got \"ten\"."},
      {"offset past 2^64", {{"file_path", "a.txt"}, {"offset", 1e300}}, "The \"offset\" argument must be a whole number of at least 0, got 1e+300."},
      {"offset 2^64-1", {{"file_path", "a.txt"}, {"offset", 18446744073709551615ull}}, "The \"offset\" argument must be a whole number of at least 0, got 18446744073709551615."},
      {"offset huge but valid", {{"file_path", "a.txt"}, {"offset", 9007199254740991LL}}, "Offset 9007199254740991 is past the end of @: the file has 1 line. Use an offset from 1 to 1."},
      {"limit 0", {{"file_path", "a.txt"}, {"limit", 0}}, "The \"limit\" argument must be a whole number of at least 1, got 0."},
      {"limit negative", {{"file_path", "a.txt"}, {"limit", -5}}, "The \"limit\" argument must be a whole number of at least 1, got -5."},
      {"limit an object", {{"file_path", "a.txt"}, {"limit", {{"n", 1}}}}, "The \"limit\" argument must be a whole number of at least 1, got {\"n\":1}."},
      {"column 0", {{"file_path", "a.txt"}, {"column", 0}}, "The \"column\" argument must be a whole number of at least 1, got 0."},
      {"column a word", {{"file_path", "a.txt"}, {"column", "end"}}, "The \"column\" argument must be a whole number of at least 1, got \"end\"."},
      {"pages a boolean", {{"file_path", "a.txt"}, {"pages", true}}, "The \"pages\" argument must be a string such as \"3\", \"1-5\" or \"2,4,7-9\"."},
      {"pages malformed", {{"file_path", "doc.pdf"}, {"pages", "1-x"}}, "'1-x' is not a page number or range: use pages like \"3\", \"1-5\", \"2,4,7-9\" or \"10-\"."},
      {"pages reversed", {{"file_path", "doc.pdf"}, {"pages", "3-1"}}, "'3-1' is not a page range: use first-last with first \u2264 last."},
      {"pages zero", {{"file_path", "doc.pdf"}, {"pages", "0"}}, "Pages are numbered from 1: '0' names page 0."},
      {"file_type unknown", {{"file_path", "a.txt"}, {"file_type", "video"}}, "The \"file_type\" argument must be one of " + file_type_list() + "; got \"video\"."},
      {"file_type a number", {{"file_path", "a.txt"}, {"file_type", 7}}, "The \"file_type\" argument must be one of " + file_type_list() + "; got \"7\"."},
      {"encoding unknown", {{"file_path", "a.txt"}, {"encoding", "klingon"}}, "Unknown encoding \"klingon\" for @. Use a name iconv knows, for example UTF-8, UTF-16LE, UTF-16BE, UTF-32LE, WINDOWS-1252, ISO-8859-1, SHIFT_JIS, EUC-JP, GB18030, GBK, BIG5, EUC-KR, KOI8-R; or omit encoding to detect it."},
      {"encoding a number", {{"file_path", "a.txt"}, {"encoding", 1252}}, "The \"encoding\" argument must be a charset name such as \"windows-1252\"."},
      {"an unknown argument", {{"file_path", "a.txt"}, {"mode", "w"}}, "Unknown argument \"mode\". The read tool accepts: file_path, offset, limit, column, pages, file_type, encoding, ocr_lang."},
  };
  for (const Case& c : cases) {
    SUBCASE(c.name) {
      TempDir root;
      root.write("a.txt", "alpha\n");
      root.write("doc.pdf", text_pdf(3));  // pages are checked against the page count
      McpClient client({{root.path().string()}});
      client.initialize();
      const json r = client.call("read", c.arguments);
      CHECK(r["isError"] == true);
      std::string expected = c.message;
      if (const auto at = expected.find('@'); at != std::string::npos)
        expected.replace(at, 1, (root.path() / "a.txt").string());
      CHECK(text_of(r) == expected);
      check_still_serving(client, "a.txt");
      check_peak_under(client, protocol_mib, "argument checks");
    }
  }
  SUBCASE("arguments a string") {
    TempDir root;
    McpClient client({{root.path().string()}});
    client.initialize();
    const json r = client.request("tools/call", {{"name", "read"}, {"arguments", "a.txt"}});
    CHECK(r["result"]["isError"] == true);
    CHECK(text_of(r["result"]) == "Invalid arguments: \"arguments\" must be an object");
    check_still_serving(client);
  }
}
