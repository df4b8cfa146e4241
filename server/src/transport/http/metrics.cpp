#include "metrics.hpp"

#include <algorithm>
#include <cstdio>

namespace mcpread::server::http {
namespace {

constexpr auto known_methods = std::to_array<std::string_view>({
    "initialize", "ping", "server/discover", "tools/list", "tools/call", "resources/list",
    "resources/read", "resources/templates/list", "resources/subscribe", "resources/unsubscribe",
    "prompts/list", "prompts/get", "completion/complete", "logging/setLevel", "subscriptions/listen",
    "tasks/get", "tasks/update", "tasks/cancel", "notifications/initialized", "notifications/cancelled",
    "notifications/roots/list_changed", "batch"});

// Prometheus floats: integers without a fraction, others with up to 6 significant digits.
std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

}  // namespace

std::string_view method_label(std::string_view method) {
  if (method.empty()) return "-";
  const auto it = std::find(known_methods.begin(), known_methods.end(), method);
  return it == known_methods.end() ? "other" : *it;
}

std::string_view body_method(const nlohmann::json& body) {
  if (body.is_array()) return "batch";
  if (!body.is_object()) return {};
  const auto method = body.find("method");
  return method != body.end() && method->is_string() ? std::string_view(method->get_ref<const std::string&>())
                                                     : std::string_view();
}

std::string_view outcome_label(unsigned status) {
  if (status == 0) return "closed";
  if (status < 300) return "2xx";
  if (status < 400) return "3xx";
  if (status < 500) return "4xx";
  return "5xx";
}

void HttpMetrics::finished(std::string_view route, std::string_view method, unsigned status,
                           double seconds, std::size_t bytes) {
  in_flight_.fetch_sub(1, std::memory_order_relaxed);
  bytes_.fetch_add(bytes, std::memory_order_relaxed);
  const std::string m(method_label(method));
  const std::lock_guard lock(mutex_);
  ++requests_[Key{std::string(route), m, std::string(outcome_label(status))}];
  if (status == 0) return;  // no answer: no latency to speak of
  Histogram& h = latency_[{std::string(route), m}];
  const auto bucket = std::lower_bound(buckets.begin(), buckets.end(), seconds) - buckets.begin();
  if (static_cast<std::size_t>(bucket) < buckets.size()) ++h.counts[static_cast<std::size_t>(bucket)];
  ++h.count;
  h.sum += seconds;
}

void HttpMetrics::read_done(std::string_view kind, std::string_view outcome) {
  const std::lock_guard lock(mutex_);
  ++reads_[{std::string(kind), std::string(outcome)}];
}

void HttpMetrics::ocr_done(std::size_t recognised, std::size_t from_cache) {
  ocr_recognised_.fetch_add(recognised, std::memory_order_relaxed);
  ocr_cached_.fetch_add(from_cache, std::memory_order_relaxed);
}

std::string HttpMetrics::render(const Gauges& gauges) const {
  std::string out;
  out += "# HELP mcpread_http_requests_total HTTP exchanges by route, MCP method and outcome.\n"
         "# TYPE mcpread_http_requests_total counter\n";
  const std::lock_guard lock(mutex_);
  for (const auto& [key, n] : requests_)
    out += "mcpread_http_requests_total{route=\"" + std::get<0>(key) + "\",method=\"" + std::get<1>(key) +
           "\",outcome=\"" + std::get<2>(key) + "\"} " + std::to_string(n) + "\n";
  out += "# HELP mcpread_http_request_duration_seconds Time from a request to the first byte of its answer.\n"
         "# TYPE mcpread_http_request_duration_seconds histogram\n";
  for (const auto& [key, h] : latency_) {
    const std::string labels = "route=\"" + std::get<0>(key) + "\",method=\"" + std::get<1>(key) + "\"";
    std::uint64_t cumulative = 0;
    for (std::size_t i = 0; i < buckets.size(); ++i) {
      cumulative += h.counts[i];
      out += "mcpread_http_request_duration_seconds_bucket{" + labels + ",le=\"" + number(buckets[i]) +
             "\"} " + std::to_string(cumulative) + "\n";
    }
    out += "mcpread_http_request_duration_seconds_bucket{" + labels + ",le=\"+Inf\"} " +
           std::to_string(h.count) + "\n";
    out += "mcpread_http_request_duration_seconds_sum{" + labels + "} " + number(h.sum) + "\n";
    out += "mcpread_http_request_duration_seconds_count{" + labels + "} " + std::to_string(h.count) + "\n";
  }
  out += "# HELP mcpread_http_response_bytes_total Bytes of answer bodies and stream events sent.\n"
         "# TYPE mcpread_http_response_bytes_total counter\n"
         "mcpread_http_response_bytes_total " + std::to_string(bytes_.load(std::memory_order_relaxed)) + "\n";
  out += "# HELP mcpread_http_requests_in_flight HTTP exchanges not answered yet.\n"
         "# TYPE mcpread_http_requests_in_flight gauge\n"
         "mcpread_http_requests_in_flight " + std::to_string(in_flight_.load(std::memory_order_relaxed)) + "\n";
  out += "# HELP mcpread_http_streams_open Server-Sent Event streams open.\n"
         "# TYPE mcpread_http_streams_open gauge\n"
         "mcpread_http_streams_open " + std::to_string(streams_open_.load(std::memory_order_relaxed)) + "\n";
  out += "# HELP mcpread_read_calls_total read tool calls by the kind of file read and outcome.\n"
         "# TYPE mcpread_read_calls_total counter\n";
  for (const auto& [key, n] : reads_)
    out += "mcpread_read_calls_total{kind=\"" + std::get<0>(key) + "\",outcome=\"" + std::get<1>(key) + "\"} " +
           std::to_string(n) + "\n";
  out += "# HELP mcpread_ocr_pages_total PDF pages and images read with OCR: by the engine, or from its cache.\n"
         "# TYPE mcpread_ocr_pages_total counter\n"
         "mcpread_ocr_pages_total{source=\"engine\"} " + std::to_string(ocr_recognised_.load(std::memory_order_relaxed)) +
         "\n"
         "mcpread_ocr_pages_total{source=\"cache\"} " + std::to_string(ocr_cached_.load(std::memory_order_relaxed)) + "\n";
  out += "# HELP mcpread_worker_queue_depth Tool calls and resource requests waiting for a worker.\n"
         "# TYPE mcpread_worker_queue_depth gauge\n"
         "mcpread_worker_queue_depth " + std::to_string(queued_.load(std::memory_order_relaxed)) + "\n";
  out += "# HELP mcpread_calls_in_flight Tool calls and resource requests a worker is running.\n"
         "# TYPE mcpread_calls_in_flight gauge\n"
         "mcpread_calls_in_flight " + std::to_string(running_.load(std::memory_order_relaxed)) + "\n";
  out += "# HELP mcpread_sessions_open MCP sessions open (protocol versions before 2026-07-28).\n"
         "# TYPE mcpread_sessions_open gauge\n"
         "mcpread_sessions_open " + std::to_string(gauges.sessions_open) + "\n";
  out += "# HELP mcpread_ready 1 while the server accepts work, 0 while it drains.\n"
         "# TYPE mcpread_ready gauge\n"
         "mcpread_ready " + std::string(gauges.ready ? "1" : "0") + "\n";
  return out;
}

}  // namespace mcpread::server::http
