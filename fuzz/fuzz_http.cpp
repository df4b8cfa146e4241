// fuzz_http: mcp-read's HTTP request handling. The bytes a client sends are parsed into requests
// by Beast's request parser (as server/src/http/connection.cpp does, with the same limits) and
// each request goes to the Router — Host/Origin/token checks, CORS, /mcp (sessions, stateless
// 2026-07-28 requests, GET streams, DELETE), /sse and /messages — with the real endpoints and
// tool host reading a temporary root. Only the sockets are left out: a recording sink stands in
// for the connection.
//
// Checked on every input: every request is answered exactly once (a response, or a stream that
// opens), with a status the server uses; a JSON body is strict JSON; every event of a stream is
// framed as SSE; all sessions end and every call finishes when the input is done.
#include "fuzz_check.hpp"
#include "http/mcp_endpoint.hpp"
#include "http/router.hpp"
#include "http/session_registry.hpp"
#include "http/sse_endpoint.hpp"
#include "mcpread/server/server_info.hpp"
#include "read_handlers.hpp"

#include <boost/asio/thread_pool.hpp>
#include <boost/beast/http/parser.hpp>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>
#include <thread>

namespace {

using mcpread::fuzz::check;
namespace http = mcpread::server::http;
namespace bhttp = boost::beast::http;

std::mutex mutex;
std::condition_variable changed;
int open_exchanges = 0;

class RecordingSink : public http::ResponseSink {
 public:
  RecordingSink() {
    std::lock_guard lock(mutex);
    ++open_exchanges;
  }
  void respond(http::Response response) override {
    const unsigned status = response.result_int();
    static const std::set<unsigned> known{200, 202, 204, 400, 401, 403, 404, 405, 406, 409, 415, 503};
    check(known.count(status) == 1, "every status is one the server means to use");
    const auto type = response.find(bhttp::field::content_type);
    if (type != response.end() && type->value() == "application/json") {
      const auto& body = response.body();
      check(!nlohmann::json::parse(body, nullptr, false).is_discarded(), "a JSON body is strict JSON");
    }
    answer();
  }
  void open_stream(http::Headers) override {
    streaming_ = true;
    answer();
  }
  bool event(std::string text) override {
    check(streaming_, "events go only on an open stream");
    check(text.size() >= 2 && text.compare(text.size() - 2, 2, "\n\n") == 0, "an event ends with a blank line");
    return !ended_;
  }
  void end_stream() override { ended_ = true; }
  void on_close(std::function<void()>) override {}
  [[nodiscard]] bool closed() const override { return ended_; }

 private:
  void answer() {
    check(!answered_.exchange(true), "a request is answered once");
    std::lock_guard lock(mutex);
    --open_exchanges;
    changed.notify_all();
  }
  std::atomic<bool> answered_{false};
  std::atomic<bool> streaming_{false};
  std::atomic<bool> ended_{false};
};

struct Server {
  Server() {
    char templ[] = "/tmp/fuzz-http-XXXXXX";
    root = ::mkdtemp(templ);
    std::ofstream(root + "/a.txt") << "alpha\nbeta\n";
    std::string error;
    check(mcpread::readers::Roots::from_paths({root}, &roots, &error), "the temporary root opens");
    config.roots = {root};
    config.roots_wait_ms = 0;
  }
  std::string root;
  mcpread::server::Config config;
  mcpread::readers::Roots roots;
  boost::asio::thread_pool pool{1};
  http::SessionRegistry sessions{8, ""};
  std::shared_ptr<mcpread::server::HandlerFactory> handlers =
      std::make_shared<mcpread::server::ReadHandlers>(config, roots, false, pool);
  http::McpEndpoint mcp{config, sessions, mcpread::server::server_info(), handlers};
  http::SseEndpoint sse{config, sessions, mcpread::server::server_info(), handlers};
  http::HttpMetrics metrics;
  std::atomic<bool> draining{false};
  http::OpsEndpoint ops{metrics, sessions, draining};
  http::Router router{http::AccessPolicy{true, {"https://app.example"}, "tok"}, "scrape", mcp, sse, ops, metrics, draining};
};

Server& server() {
  static Server* s = new Server();  // lives for the process: its pool outlasts every input
  return *s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Server& s = server();
  std::string_view input(reinterpret_cast<const char*>(data), size);
  for (int requests = 0; !input.empty() && requests < 16; ++requests) {
    bhttp::request_parser<bhttp::string_body> parser;
    parser.body_limit(64 * 1024);
    parser.header_limit(16 * 1024);
    parser.eager(true);
    boost::beast::error_code ec;
    const std::size_t used = parser.put(boost::asio::buffer(input.data(), input.size()), ec);
    if (ec || !parser.is_done()) break;  // the connection would answer 400/413/431 and close
    input.remove_prefix(used);
    s.router.handle(parser.release(), std::make_shared<RecordingSink>());
  }
  // Tool calls finish on the pool; then every session (and its stream) ends.
  {
    std::unique_lock lock(mutex);
    const bool done = changed.wait_for(lock, std::chrono::seconds(10), [] { return open_exchanges == 0; });
    check(done, "every request is answered within 10 s");
  }
  s.sessions.end_all();
  return 0;
}
