#include "router.hpp"

#include "replies.hpp"

#include "mcpread/server/read_scope.hpp"

#include <atomic>
#include <chrono>
#include <optional>
#include <variant>

namespace mcpread::server::http {

namespace bhttp = boost::beast::http;

namespace {

constexpr const char* allowed_request_headers =
    "Content-Type, Accept, Authorization, Mcp-Session-Id, MCP-Protocol-Version, Mcp-Method, Mcp-Name, "
    "Last-Event-ID";
constexpr const char* exposed_headers = "Mcp-Session-Id, WWW-Authenticate";

// Adds the CORS headers an allowed browser origin needs to read the answer.
class CorsSink : public ResponseSink {
 public:
  CorsSink(std::shared_ptr<ResponseSink> inner, std::string origin)
      : inner_(std::move(inner)), origin_(std::move(origin)) {}
  void respond(Response response) override {
    response.set(bhttp::field::access_control_allow_origin, origin_);
    response.set(bhttp::field::access_control_expose_headers, exposed_headers);
    response.set(bhttp::field::vary, "Origin");
    inner_->respond(std::move(response));
  }
  void open_stream(Headers headers) override {
    headers.emplace_back("Access-Control-Allow-Origin", origin_);
    headers.emplace_back("Access-Control-Expose-Headers", exposed_headers);
    headers.emplace_back("Vary", "Origin");
    inner_->open_stream(std::move(headers));
  }
  bool event(std::string text) override { return inner_->event(std::move(text)); }
  void end_stream() override { inner_->end_stream(); }
  void on_close(std::function<void()> callback) override { inner_->on_close(std::move(callback)); }
  [[nodiscard]] bool closed() const override { return inner_->closed(); }
  void name_method(std::string_view method) override { inner_->name_method(method); }

 private:
  std::shared_ptr<ResponseSink> inner_;
  std::string origin_;
};

// Counts the exchange for /metrics when it ends: answered, a stream opened, or the peer gone
// (counted when the last holder of the sink lets go of it without an answer).
class MetricsSink : public ResponseSink {
 public:
  MetricsSink(std::shared_ptr<ResponseSink> inner, HttpMetrics& metrics, std::string_view route,
              std::string_view method, bool work)
      : inner_(std::move(inner)), metrics_(metrics), route_(route), method_(method),
        start_(std::chrono::steady_clock::now()), work_open_(work) {
    metrics_.started();
    if (work) metrics_.work_started();
  }
  ~MetricsSink() override {
    if (!counted_) metrics_.finished(route_, method_, 0, 0, 0);
    if (streaming_) metrics_.stream_closed();
    work_done();
  }
  void respond(Response response) override {
    count(response.result_int(), response.body().size());
    inner_->respond(std::move(response));
    work_done();
  }
  void open_stream(Headers headers) override {
    if (!counted_ && !streaming_) {
      streaming_ = true;
      metrics_.stream_opened();
    }
    count(200, 0);
    inner_->open_stream(std::move(headers));
  }
  bool event(std::string text) override {
    metrics_.stream_bytes(text.size());
    return inner_->event(std::move(text));
  }
  void end_stream() override {
    inner_->end_stream();
    work_done();
  }
  void on_close(std::function<void()> callback) override { inner_->on_close(std::move(callback)); }
  [[nodiscard]] bool closed() const override { return inner_->closed(); }
  // The body's method wins over the Mcp-Method header (which only 2026-07-28 requests carry, and
  // which a mismatch makes a claim only). Called on the connection's thread before the request is
  // handed to a worker, so count() on the worker sees it.
  void name_method(std::string_view method) override {
    if (!method.empty() && !counted_.load()) method_ = method;
  }

 private:
  void work_done() {
    if (work_open_.exchange(false)) metrics_.work_ended();
  }
  void count(unsigned status, std::size_t bytes) {
    if (counted_.exchange(true)) return;
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start_;
    metrics_.finished(route_, method_, status, took.count(), bytes);
  }
  std::shared_ptr<ResponseSink> inner_;
  HttpMetrics& metrics_;
  std::string route_;
  std::string method_;
  std::chrono::steady_clock::time_point start_;
  std::atomic<bool> counted_{false};
  bool streaming_ = false;
  std::atomic<bool> work_open_;
};

// While draining, the refusal a request gets (nullopt: it passes). New work is refused: a
// JSON-RPC request (a batch holding one), a new stream. What finishes work in flight passes: the
// client's responses to the server's requests (roots/list), notifications (cancellations), DELETE.
std::optional<Response> refused_while_draining(const Request& request) {
  if (request.method() != bhttp::verb::get && request.method() != bhttp::verb::post) return std::nullopt;
  nlohmann::json id;
  if (request.method() == bhttp::verb::post) {
    const auto body = nlohmann::json::parse(request.body(), nullptr, false);
    auto is_request = [](const nlohmann::json& m) { return m.is_object() && m.contains("method") && m.contains("id"); };
    bool any = is_request(body);
    if (any && (body["id"].is_string() || body["id"].is_number_integer())) id = body["id"];
    if (body.is_array())
      for (const auto& m : body) any = any || is_request(m);
    if (!any) return std::nullopt;
  }
  // Connection: close, so that a proxy's pool of connections lets go of this server.
  return rpc_error_response_to(id, 503, protocol::error_code::invalid_request,
                               "Service Unavailable: the server is shutting down; send the request to another "
                               "replica (a session of this server ends with it: initialize again)",
                               nullptr, {{"Retry-After", "1"}, {"Connection", "close"}});
}

// Whether the caller's identity was given no roots by the --oauth-roots policy.
bool caller_has_no_roots(const protocol::Caller& caller) {
  const auto* scope = dynamic_cast<const ReadScope*>(caller.scope.get());
  return scope != nullptr && scope->roots->empty();
}

}  // namespace

void Router::handle(Request request, std::shared_ptr<ResponseSink> sink) {
  const auto origin = header(request, "Origin");
  const std::string_view path = path_of(request);
  const bool ops = OpsEndpoint::serves(path);
  if (auto denied = check_access(ops ? ops_policy_ : policy_, header(request, "Host"), origin,
                                 header(request, "Authorization"))) {
    Headers headers;
    if (denied->status == 401)
      headers.emplace_back("WWW-Authenticate", "Bearer realm=\"mcp-read\"");
    sink->respond(rpc_error_response(denied->status, protocol::error_code::invalid_request, denied->message,
                                     nullptr, headers));
    return;
  }
  if (origin) sink = std::make_shared<CorsSink>(std::move(sink), std::string(*origin));
  if (request.method() == bhttp::verb::options) {  // a browser's preflight
    sink->respond(empty_response(204, {{"Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS"},
                                       {"Access-Control-Allow-Headers", allowed_request_headers},
                                       {"Access-Control-Max-Age", "86400"}}));
    return;
  }
  if (ops) {
    ops_.handle(request, sink);
    return;
  }
  // RFC 9728: the metadata is public, it is where a client without a token starts.
  if (authorizer_ && authorizer_->metadata().serves(path)) {
    if (request.method() == bhttp::verb::get || request.method() == bhttp::verb::head)
      sink->respond(json_response(200, authorizer_->metadata().document()));
    else
      sink->respond(empty_response(405, {{"Allow", "GET, HEAD, OPTIONS"}}));
    return;
  }
  const bool mcp = path == "/mcp" || path == "/mcp/";
  if (mcp || path == SseEndpoint::stream_path || path == SseEndpoint::message_path) {
    protocol::Caller caller;  // with OAuth, the token's issuer and subject (the sessions' owner), its roots
    if (authorizer_) {
      auto decision = authorizer_->authorize(header(request, "Authorization"));
      if (auto* refusal = std::get_if<auth::Refusal>(&decision)) {
        metrics_.oauth_refused(refusal->status);
        sink->respond(rpc_error_response(refusal->status, protocol::error_code::invalid_request,
                                         std::move(refusal->message), nullptr, refusal->headers));
        return;
      }
      const auto& identity = std::get<auth::Identity>(decision);
      caller = identity_roots_ ? identity_roots_->caller(identity) : protocol::Caller{identity.owner(), nullptr};
      metrics_.oauth_accepted(caller.owner, caller_has_no_roots(caller));
    }
    // Made before the request moves on: the route and method are copied out of it.
    auto counted = std::make_shared<MetricsSink>(std::move(sink), metrics_, mcp ? "/mcp" : path,
                                                 header(request, "Mcp-Method").value_or(""),
                                                 request.method() == bhttp::verb::post);
    if (draining_.load(std::memory_order_acquire)) {
      if (auto refusal = refused_while_draining(request)) {
        counted->respond(std::move(*refusal));
        return;
      }
    }
    if (mcp) mcp_.handle(std::move(request), std::move(counted), caller);
    else if (path == SseEndpoint::stream_path) sse_.open(request, counted, caller);
    else sse_.post(request, counted, caller.owner);
  } else {
    sink->respond(rpc_error_response(404, protocol::error_code::invalid_request,
                                     "Not Found: " + std::string(path) +
                                         "; MCP is served at /mcp (Streamable HTTP) and /sse (HTTP+SSE)"));
  }
}

}  // namespace mcpread::server::http
