// Work in flight: ping answered while a read is held up, many calls completing independently
// with whole, uninterleaved messages, and cancellation dropping the answer.
#include "fixtures.hpp"
#include "mcp_client.hpp"
#include "pdf_fixtures.hpp"
#include "roots_helpers.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>

using namespace mcpread::test;
using nlohmann::json;

TEST_CASE("ping is answered while a read is in flight") {
  TempDir root;
  root.write("a.txt", "alpha\n");
  // A read waits for the client's roots; holding the roots/list answer back holds the read.
  McpClient client({{"--roots-wait-ms", "30000", root.path().string()}});
  client.initialize("2025-11-25", roots_capability);
  const json roots_id = expect_roots_request(client);
  const long long call = client.send_request("tools/call", {{"name", "read"}, {"arguments", {{"file_path", "a.txt"}}}});
  const long long ping = client.send_request("ping", json::object());
  auto first = client.receive();
  REQUIRE(first);
  CHECK((*first)["id"] == ping);  // the read is still waiting
  answer_roots(client, roots_id, {root.path()});
  auto done = client.wait_for_id(call);
  REQUIRE(done);
  CHECK((*done)["result"]["content"][0]["text"].get<std::string>().rfind("     1\talpha\n", 0) == 0);
}

TEST_CASE("many calls in flight complete independently, each message whole") {
  TempDir root;
  constexpr int files = 12;
  for (int i = 0; i < files; ++i) {
    std::string content;
    for (int line = 0; line < 3000; ++line) content += "file " + std::to_string(i) + " line " + std::to_string(line) + "\n";
    root.write("f" + std::to_string(i) + ".txt", content);
  }
  McpClient client({{"--workers", "4", root.path().string()}});
  client.initialize();
  std::map<long long, int> ids;
  for (int i = 0; i < files; ++i)
    ids[client.send_request("tools/call", {{"name", "read"}, {"arguments", {{"file_path", "f" + std::to_string(i) + ".txt"}}}})] = i;
  const long long ping = client.send_request("ping", json::object());
  std::set<long long> answered;
  while (answered.size() < ids.size() + 1) {
    auto m = client.receive();
    REQUIRE(m);  // every line parses as one JSON message: nothing interleaved
    const long long id = (*m)["id"].get<long long>();
    CHECK(answered.insert(id).second);
    if (id == ping) continue;
    const int file = ids.at(id);
    const std::string text = (*m)["result"]["content"][0]["text"];
    CHECK(text.rfind("     1\tfile " + std::to_string(file) + " line 0\n", 0) == 0);
    CHECK(text.find("  2000\tfile " + std::to_string(file) + " line 1999\n") != std::string::npos);
    CHECK((*m)["result"]["_meta"]["next_offset"] == 2001);
  }
}

TEST_CASE("a PDF read through, each page's marks counted on a thread beside its text") {
  // Each call's pages have their marks counted (qpdf) on a thread of their own while the call's
  // thread reads their text (poppler; pdf_marks_ahead.hpp).
  TempDir root;
  root.write("a.pdf", text_pdf(45));
  McpClient client({{root.path().string()}});
  client.initialize();
  for (const int first : {1, 21, 41}) {
    CAPTURE(first);
    const int last = std::min(first + 19, 45);
    const json r = client.call("read", {{"file_path", "a.pdf"},
                                        {"file_type", "text"},
                                        {"pages", std::to_string(first) + "-" + std::to_string(last)}});
    const std::string text = r["content"][0]["text"];
    std::size_t at = 0;
    for (int k = first; k <= last; ++k) {  // every page's line, in order
      CAPTURE(k);
      at = text.find(page_line(k), at);
      REQUIRE(at != std::string::npos);
    }
    CHECK(r["_meta"]["selected"].size() == static_cast<std::size_t>(last - first + 1));
    CHECK_FALSE(r["_meta"].contains("pages_text_lost"));
    CHECK_FALSE(r["_meta"].contains("blank_pages"));
  }
}

TEST_CASE("PDFs read by several calls at once, the first two documents drawn together") {
  // Poppler makes its colour profiles on the first page any document draws, without a lock; the
  // plugin makes them before its first document opens, so that these calls do not race on them
  // (ThreadSanitizer runs this test).
  TempDir root;
  root.write("a.pdf", text_pdf(45));
  root.write("b.pdf", text_pdf(45));
  McpClient client({{"--workers", "4", root.path().string()}});
  client.initialize();
  std::map<long long, std::pair<std::string, int>> calls;
  for (const auto& [file, first] : {std::pair<std::string, int>{"a.pdf", 1}, {"a.pdf", 21}, {"b.pdf", 1}, {"b.pdf", 26}}) {
    const std::string pages = std::to_string(first) + "-" + std::to_string(first + 19);
    calls[client.send_request("tools/call", {{"name", "read"},
                                             {"arguments", {{"file_path", file}, {"file_type", "text"}, {"pages", pages}}}})] =
        {file, first};
  }
  for (std::size_t n = 0; n < calls.size(); ++n) {
    auto m = client.receive();
    REQUIRE(m);
    const auto& [file, first] = calls.at((*m)["id"].get<long long>());
    CAPTURE(file);
    CAPTURE(first);
    const std::string text = (*m)["result"]["content"][0]["text"];
    std::size_t at = 0;
    for (int k = first; k < first + 20; ++k) {
      at = text.find(page_line(k), at);
      REQUIRE(at != std::string::npos);
    }
  }
}

TEST_CASE("notifications/cancelled drops the answer and the server goes on") {
  TempDir root;
  root.write("a.txt", "alpha\n");
  McpClient client({{"--roots-wait-ms", "30000", root.path().string()}});
  client.initialize("2025-11-25", roots_capability);
  const json roots_id = expect_roots_request(client);
  const long long cancelled = client.send_request("tools/call", {{"name", "read"}, {"arguments", {{"file_path", "a.txt"}}}});
  client.send({{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"},
               {"params", {{"requestId", cancelled}, {"reason", "user pressed stop"}}}});
  CHECK(client.request("ping")["result"] == json::object());
  answer_roots(client, roots_id, {root.path()});
  const json after = client.call("read", {{"file_path", "a.txt"}});
  CHECK_FALSE(after.contains("isError"));
  client.close_stdin();
  // Read everything up to EOF: the cancelled request never gets an answer.
  while (auto m = client.receive(std::chrono::seconds(10))) CHECK((*m)["id"] != cancelled);
  for (const auto& m : client.others()) CHECK(m.value("id", json()) != cancelled);
  CHECK(client.wait_exit() == 0);
}

TEST_CASE("a duplicate id of a request in flight is refused") {
  TempDir root;
  root.write("a.txt", "alpha\n");
  McpClient client({{"--roots-wait-ms", "30000", root.path().string()}});
  client.initialize("2025-11-25", roots_capability);
  const json roots_id = expect_roots_request(client);
  const json call = {{"jsonrpc", "2.0"}, {"id", "same"}, {"method", "tools/call"},
                     {"params", {{"name", "read"}, {"arguments", {{"file_path", "a.txt"}}}}}};
  client.send(call);
  client.send(call);
  auto refused = client.receive();
  REQUIRE(refused);
  CHECK((*refused)["id"] == "same");
  CHECK((*refused)["error"]["code"] == -32600);
  CHECK((*refused)["error"]["message"] == "Invalid Request: id \"same\" is already used by a request in progress");
  answer_roots(client, roots_id, {root.path()});
  auto done = client.receive();
  REQUIRE(done);
  CHECK((*done)["id"] == "same");
  CHECK((*done)["result"]["content"][0]["text"].get<std::string>().rfind("     1\talpha", 0) == 0);
}
