// Hostile use of a session over stdio: ids of every type on every protocol version, duplicate
// ids in flight, and a flood of pings while large reads run. Each case checks the exact answers,
// that the server still answers afterwards, and its peak memory (VmHWM) against a bound.
#include "fixtures.hpp"
#include "hostile_helpers.hpp"
#include "mcp_client.hpp"
#include "roots_helpers.hpp"

#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

using namespace mcpread::test;
using namespace mcpread::test::hostile;
using nlohmann::json;

namespace {

json next(McpClient& client) {
  auto m = client.receive();
  REQUIRE_MESSAGE(m, "no message; stderr:\n" << client.stderr_text());
  return *m;
}

}  // namespace

// MCP ids are strings or integers (never null); JSON-RPC's fractional ids are refused. Integers
// are echoed exactly across the whole 64-bit range, which JavaScript clients cannot even send.
TEST_CASE("hostile sessions: ids of every type, on every version") {
  struct IdRow {
    const char* name;
    std::string raw_id;  // as written on the wire
    bool accepted;
  };
  const std::vector<IdRow> ids = {
      {"string", "\"abc\"", true},
      {"empty string", "\"\"", true},
      {"zero", "0", true},
      {"negative", "-7", true},
      {"2^53-1", "9007199254740991", true},
      {"int64 max", "9223372036854775807", true},
      {"int64 min", "-9223372036854775808", true},
      {"fraction", "1.5", false},
      {"integral float", "2.0", false},
      {"exponent", "1e3", false},
      {"null", "null", false},
  };
  for (const char* version : {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"}) {
    SUBCASE(version) {
      TempDir root;
      McpClient client({{root.path().string()}});
      client.initialize(version);
      for (const IdRow& row : ids) {
        CAPTURE(row.name);
        client.send_raw("{\"jsonrpc\":\"2.0\",\"id\":" + row.raw_id + ",\"method\":\"ping\"}\n");
        const json r = next(client);
        if (row.accepted) {
          CHECK(r["id"] == json::parse(row.raw_id));
          CHECK(r["result"] == json::object());
        } else {
          CHECK(r["error"]["code"] == -32600);
          CHECK(r["error"]["message"] == "Invalid Request: \"id\" must be a string or an integer");
          // The id cannot be echoed: null where the version's schema allows only that, absent on
          // 2025-11-25, whose schema lets an error omit it.
          CHECK((!r.contains("id") || r["id"].is_null()));
        }
      }
      check_still_serving(client);
      check_peak_under(client, 32, "pings only");
    }
  }
}

// The first request is held in flight deterministically: the client declares roots and the read
// waits for its roots/list answer, which the test withholds until the duplicate was refused.
TEST_CASE("hostile sessions: duplicate ids in flight") {
  for (const json& id : {json(7), json("same")}) {
    SUBCASE(id.dump().c_str()) {
      TempDir root;
      root.write("a.txt", "alpha\n");
      McpClient client({{"--roots-wait-ms", "60000", root.path().string()}});
      client.initialize("2025-11-25", roots_capability);
      const json roots_request = expect_roots_request(client);
      client.send({{"jsonrpc", "2.0"}, {"id", id}, {"method", "tools/call"},
                   {"params", {{"name", "read"}, {"arguments", {{"file_path", "a.txt"}}}}}});
      client.send({{"jsonrpc", "2.0"}, {"id", id}, {"method", "ping"}});
      const json refused = next(client);
      CHECK(refused["id"] == id);
      CHECK(refused["error"]["code"] == -32600);
      CHECK(refused["error"]["message"] ==
            "Invalid Request: id " + id.dump() + " is already used by a request in progress");
      answer_roots(client, roots_request, {root.path()});
      const json first = next(client);
      CHECK(first["id"] == id);
      CHECK(text_of(first["result"]).rfind("     1\talpha\n", 0) == 0);
      // Once answered, the id may be used again.
      client.send({{"jsonrpc", "2.0"}, {"id", id}, {"method", "ping"}});
      CHECK(next(client)["result"] == json::object());
      check_still_serving(client, "a.txt");
      check_peak_under(client, 32, "small reads");
    }
  }
}

// 5,000 pings written in one go behind four reads that each stream a 1 GiB sparse file: the
// pings are answered on the I/O thread while the workers read, and every request gets exactly
// one answer. The reads keep 1 MiB chunks each; queued answers are a few hundred KB.
TEST_CASE("hostile sessions: a flood of pings during large reads") {
  TempDir root;
  write_sparse((root.path() / "big.bin").string(), "", 1ull << 30);
  McpClient client({{root.path().string()}});
  client.initialize();
  constexpr int reads = 4;
  constexpr int pings = 5000;
  std::string batch;
  for (int i = 0; i < reads; ++i) {
    batch += json{{"jsonrpc", "2.0"}, {"id", "read-" + std::to_string(i)}, {"method", "tools/call"},
                  {"params", {{"name", "read"},
                              {"arguments", {{"file_path", "big.bin"}, {"file_type", "text"}, {"limit", 1}}}}}}
                 .dump() + "\n";
  }
  for (int i = 0; i < pings; ++i)
    batch += "{\"jsonrpc\":\"2.0\",\"id\":" + std::to_string(i) + ",\"method\":\"ping\"}\n";
  client.send_raw(batch);

  std::set<long long> ping_ids;
  std::set<std::string> read_ids;
  int other = 0;
  while (static_cast<int>(ping_ids.size() + read_ids.size()) + other < reads + pings) {
    const json r = next(client);
    if (r["id"].is_number_integer()) {
      CHECK(r["result"] == json::object());
      CHECK(ping_ids.insert(r["id"].get<long long>()).second);  // answered once
    } else if (r["id"].is_string()) {
      CHECK_FALSE(r["result"].contains("isError"));
      CHECK(text_of(r["result"]).find("[line cut at 2000 of 1073741824 characters; read on with offset=1, limit=1, column=2001]") != std::string::npos);
      CHECK(read_ids.insert(r["id"].get<std::string>()).second);
    } else {
      ++other;
      FAIL_CHECK("unexpected message: " << r.dump().substr(0, 300));
    }
  }
  CHECK(ping_ids.size() == pings);
  CHECK(read_ids.size() == reads);
  check_still_serving(client);
  check_peak_under(client, 64, "four 1 MiB read buffers and the queued answers; 4 GiB were read");
}
