#pragma once
// What an operator scrapes at /metrics: HTTP exchanges by route, MCP method and outcome, their
// latency, bytes sent, exchanges in flight and streams open; from the tool host (WorkCounters):
// calls waiting for a worker, calls running, `read` calls by file kind and outcome; in the Prometheus text format
// (version 0.0.4). Label values come from fixed sets only (routes, known MCP methods, outcome
// classes), so a client cannot grow the series without end.
#include "mcpread/server/work_counters.hpp"

#include <nlohmann/json.hpp>

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_set>

namespace mcpread::server::http {

// The label an MCP method gets: itself when it is one the server knows (or "batch"), "other"
// otherwise, "-" when the request named none (a GET or DELETE, a response to the server's own
// request, a body that is not JSON-RPC).
std::string_view method_label(std::string_view method);
// The method a parsed POST body names: its "method", "batch" for an array, empty for anything
// else (a response, a malformed message).
std::string_view body_method(const nlohmann::json& body);
// "2xx", "4xx", "5xx"; "closed" when the peer went away before an answer (status 0).
std::string_view outcome_label(unsigned status);

class HttpMetrics : public WorkCounters {
 public:
  static constexpr std::array<double, 12> buckets{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
                                                  0.1,   0.25,   0.5,   1.0,  2.5,   10.0};

  void started() { in_flight_.fetch_add(1, std::memory_order_relaxed); }
  // One exchange ended: answered (status, body bytes), a stream opened (status 200, bytes 0) or
  // the peer gone (status 0). `seconds` runs from the request to the answer's first byte.
  void finished(std::string_view route, std::string_view method, unsigned status, double seconds,
                std::size_t bytes);
  void stream_opened() { streams_open_.fetch_add(1, std::memory_order_relaxed); }
  void stream_closed() { streams_open_.fetch_sub(1, std::memory_order_relaxed); }
  void stream_bytes(std::size_t n) { bytes_.fetch_add(n, std::memory_order_relaxed); }
  // POST exchanges whose work is not over: until their answer, or the end of the event stream
  // their answer became. What a draining server waits for.
  void work_started() { work_open_.fetch_add(1, std::memory_order_relaxed); }
  void work_ended() { work_open_.fetch_sub(1, std::memory_order_relaxed); }
  [[nodiscard]] std::int64_t work_open() const { return work_open_.load(std::memory_order_relaxed); }

  void call_queued() override { queued_.fetch_add(1, std::memory_order_relaxed); }
  void call_started() override {
    queued_.fetch_sub(1, std::memory_order_relaxed);
    running_.fetch_add(1, std::memory_order_relaxed);
  }
  void call_finished() override { running_.fetch_sub(1, std::memory_order_relaxed); }
  void read_done(std::string_view kind, std::string_view outcome) override;
  void ocr_done(std::size_t recognised, std::size_t from_cache) override;
  // Calls waiting for a worker or running: a draining server waits for them too (those of an
  // HTTP+SSE session answer on its stream, after their POST was acknowledged).
  [[nodiscard]] std::int64_t calls_busy() const {
    return queued_.load(std::memory_order_relaxed) + running_.load(std::memory_order_relaxed);
  }

  // OAuth: a token refused (401, 403, 503), or accepted for `owner` (issuer and sub; counted
  // among the distinct identities seen, which are hashed and capped, never labels), who the
  // --oauth-roots policy may have given no roots.
  void oauth_refused(unsigned status);
  void oauth_accepted(const std::string& owner, bool no_roots);

  struct Gauges {
    std::size_t sessions_open = 0;
    bool ready = true;
  };
  [[nodiscard]] std::string render(const Gauges& gauges) const;

 private:
  struct Histogram {
    std::array<std::uint64_t, buckets.size()> counts{};  // per bucket, not cumulative
    std::uint64_t count = 0;
    double sum = 0;
  };
  using Key = std::tuple<std::string, std::string, std::string>;  // route, method, outcome
  mutable std::mutex mutex_;
  std::map<Key, std::uint64_t> requests_;
  std::map<std::tuple<std::string, std::string>, Histogram> latency_;  // route, method
  std::atomic<std::uint64_t> bytes_{0};
  std::atomic<std::int64_t> in_flight_{0};
  std::atomic<std::int64_t> streams_open_{0};
  std::atomic<std::int64_t> work_open_{0};
  std::atomic<std::int64_t> queued_{0};
  std::atomic<std::int64_t> running_{0};
  std::atomic<std::uint64_t> ocr_recognised_{0};  // OCR pages and images, by the engine
  std::atomic<std::uint64_t> ocr_cached_{0};      // and from its cache
  std::map<std::tuple<std::string, std::string>, std::uint64_t> reads_;  // kind, outcome
  static constexpr std::size_t max_identities = 100000;
  std::atomic<bool> oauth_{false};                  // once a token was seen: the OAuth families
  std::map<std::string, std::uint64_t> oauth_outcomes_;  // accepted, no_roots, 401, 403, 503
  std::unordered_set<std::size_t> identities_;      // hashes of the owners seen
};

}  // namespace mcpread::server::http
