#include "metrics.hpp"

#include "prometheus_text.hpp"

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

void HttpMetrics::oauth_refused(unsigned status) {
  oauth_.store(true, std::memory_order_relaxed);
  const std::lock_guard lock(mutex_);
  ++oauth_outcomes_[status == 403 ? "insufficient_scope" : status == 503 ? "unavailable" : "invalid_token"];
}

void HttpMetrics::oauth_accepted(const std::string& owner, bool no_roots) {
  oauth_.store(true, std::memory_order_relaxed);
  const std::lock_guard lock(mutex_);
  ++oauth_outcomes_[no_roots ? "accepted_no_roots" : "accepted"];
  if (identities_.size() < max_identities) identities_.insert(std::hash<std::string>{}(owner));
}

std::string HttpMetrics::render(const Gauges& gauges) const {
  using prometheus::family;
  using prometheus::labels;
  using prometheus::sample;
  const auto n = [](auto v) { return std::to_string(v); };  // gauges are signed, counters not
  const auto load = [](const auto& counter) { return counter.load(std::memory_order_relaxed); };
  std::string out;
  family(out, "mcpread_http_requests_total", "counter", "HTTP exchanges by route, MCP method and outcome.");
  const std::lock_guard lock(mutex_);
  for (const auto& [key, count] : requests_)
    sample(out, "mcpread_http_requests_total",
           labels({{"route", std::get<0>(key)}, {"method", std::get<1>(key)}, {"outcome", std::get<2>(key)}}), n(count));
  family(out, "mcpread_http_request_duration_seconds", "histogram",
         "Time from a request to the first byte of its answer.");
  for (const auto& [key, h] : latency_) {
    const std::string route_method = labels({{"route", std::get<0>(key)}, {"method", std::get<1>(key)}});
    std::uint64_t cumulative = 0;
    for (std::size_t i = 0; i < buckets.size(); ++i) {
      cumulative += h.counts[i];
      sample(out, "mcpread_http_request_duration_seconds_bucket", route_method + "," + labels({{"le", number(buckets[i])}}),
             n(cumulative));
    }
    sample(out, "mcpread_http_request_duration_seconds_bucket", route_method + "," + labels({{"le", "+Inf"}}), n(h.count));
    sample(out, "mcpread_http_request_duration_seconds_sum", route_method, number(h.sum));
    sample(out, "mcpread_http_request_duration_seconds_count", route_method, n(h.count));
  }
  family(out, "mcpread_http_response_bytes_total", "counter", "Bytes of answer bodies and stream events sent.");
  sample(out, "mcpread_http_response_bytes_total", "", n(load(bytes_)));
  family(out, "mcpread_http_requests_in_flight", "gauge", "HTTP exchanges not answered yet.");
  sample(out, "mcpread_http_requests_in_flight", "", n(load(in_flight_)));
  family(out, "mcpread_http_streams_open", "gauge", "Server-Sent Event streams open.");
  sample(out, "mcpread_http_streams_open", "", n(load(streams_open_)));
  family(out, "mcpread_read_calls_total", "counter", "read tool calls by the kind of file read and outcome.");
  for (const auto& [key, count] : reads_)
    sample(out, "mcpread_read_calls_total", labels({{"kind", std::get<0>(key)}, {"outcome", std::get<1>(key)}}), n(count));
  if (oauth_.load(std::memory_order_relaxed)) {
    family(out, "mcpread_oauth_requests_total", "counter",
           "MCP requests by what became of their OAuth token (accepted_no_roots: no --oauth-roots rule matched).");
    for (const auto& [outcome, count] : oauth_outcomes_)
      sample(out, "mcpread_oauth_requests_total", labels({{"outcome", outcome}}), n(count));
    family(out, "mcpread_oauth_identities", "gauge",
           "Distinct identities (issuer and subject) whose tokens were accepted since the start (at most 100000).");
    sample(out, "mcpread_oauth_identities", "", n(identities_.size()));
  }
  family(out, "mcpread_ocr_pages_total", "counter",
         "PDF pages and images read with OCR: by the engine, or from its cache.");
  sample(out, "mcpread_ocr_pages_total", labels({{"source", "engine"}}), n(load(ocr_recognised_)));
  sample(out, "mcpread_ocr_pages_total", labels({{"source", "cache"}}), n(load(ocr_cached_)));
  family(out, "mcpread_worker_queue_depth", "gauge", "Tool calls and resource requests waiting for a worker.");
  sample(out, "mcpread_worker_queue_depth", "", n(load(queued_)));
  family(out, "mcpread_calls_in_flight", "gauge", "Tool calls and resource requests a worker is running.");
  sample(out, "mcpread_calls_in_flight", "", n(load(running_)));
  family(out, "mcpread_sessions_open", "gauge", "MCP sessions open (protocol versions before 2026-07-28).");
  sample(out, "mcpread_sessions_open", "", n(gauges.sessions_open));
  family(out, "mcpread_ready", "gauge", "1 while the server accepts work, 0 while it drains.");
  sample(out, "mcpread_ready", "", gauges.ready ? "1" : "0");
  return out;
}

}  // namespace mcpread::server::http
