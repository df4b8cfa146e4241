#include "router.hpp"

#include "replies.hpp"

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

 private:
  std::shared_ptr<ResponseSink> inner_;
  std::string origin_;
};

}  // namespace

void Router::handle(Request request, std::shared_ptr<ResponseSink> sink) {
  const auto origin = header(request, "Origin");
  if (auto denied = check_access(policy_, header(request, "Host"), origin, header(request, "Authorization"))) {
    Headers headers;
    if (denied->status == 401)
      headers.emplace_back("WWW-Authenticate", "Bearer realm=\"mcp-read\"");
    sink->respond(rpc_error_response(denied->status, protocol::error_code::invalid_request, denied->message,
                                     nullptr, headers));
    return;
  }
  if (origin) sink = std::make_shared<CorsSink>(std::move(sink), std::string(*origin));
  const std::string_view path = path_of(request);
  if (request.method() == bhttp::verb::options) {  // a browser's preflight
    sink->respond(empty_response(204, {{"Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS"},
                                       {"Access-Control-Allow-Headers", allowed_request_headers},
                                       {"Access-Control-Max-Age", "86400"}}));
    return;
  }
  if (path == "/mcp" || path == "/mcp/") {
    mcp_.handle(std::move(request), std::move(sink));
  } else if (path == SseEndpoint::stream_path) {
    sse_.open(request, sink);
  } else if (path == SseEndpoint::message_path) {
    sse_.post(request, sink);
  } else {
    sink->respond(rpc_error_response(404, protocol::error_code::invalid_request,
                                     "Not Found: " + std::string(path) +
                                         "; MCP is served at /mcp (Streamable HTTP) and /sse (HTTP+SSE)"));
  }
}

}  // namespace mcpread::server::http
