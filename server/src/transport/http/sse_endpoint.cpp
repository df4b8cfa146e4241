#include "sse_endpoint.hpp"

#include "metrics.hpp"
#include "replies.hpp"
#include "sse.hpp"

#include <spdlog/spdlog.h>

namespace mcpread::server::http {

namespace bhttp = boost::beast::http;
namespace protocol = mcpread::protocol;

namespace {
constexpr int invalid_request = protocol::error_code::invalid_request;
}

SseEndpoint::SseEndpoint(const Config& config, SessionRegistry& sessions, protocol::ServerInfo info,
                         std::shared_ptr<HandlerFactory> handlers)
    : config_(config), sessions_(sessions), info_(std::move(info)), handlers_(std::move(handlers)) {}

void SseEndpoint::open(const Request& request, const std::shared_ptr<ResponseSink>& sink,
                       const protocol::Caller& caller) {
  if (request.method() != bhttp::verb::get) {
    sink->respond(empty_response(405, {{"Allow", "GET"}}));
    return;
  }
  if (!accepts(header(request, "Accept"), "text/event-stream") && header(request, "Accept")) {
    sink->respond(rpc_error_response(406, invalid_request,
                                     "Not Acceptable: the Accept header must allow text/event-stream"));
    return;
  }
  auto session = sessions_.create([this, &caller](const std::string& id) {
    return std::make_shared<HttpSession>(id, *handlers_, info_, config_.stateless_roots, caller);
  }, caller.owner);
  if (!session) {
    sink->respond(rpc_error_response(503, invalid_request,
                                     "Service Unavailable: " + std::to_string(config_.http.max_sessions) +
                                         " sessions are open (--max-sessions)",
                                     nullptr, {{"Retry-After", "5"}}));
    return;
  }
  const std::string id = session->id();
  sink->open_stream({});
  sink->event(sse_event("endpoint", std::string(message_path) + "?sessionId=" + id));
  session->attach_stream(sink);
  // The session lives as long as its stream.
  sink->on_close([this, id] { sessions_.end_any(id); });
  spdlog::debug("http: HTTP+SSE session {} opened", id);
}

void SseEndpoint::post(const Request& request, const std::shared_ptr<ResponseSink>& sink, const std::string& owner) {
  if (request.method() != bhttp::verb::post) {
    sink->respond(empty_response(405, {{"Allow", "POST"}}));
    return;
  }
  const auto id = query_param(request, "sessionId");
  if (!id) {
    sink->respond(rpc_error_response(400, invalid_request,
                                     "Bad Request: no sessionId; POST to the URL of the stream's endpoint event"));
    return;
  }
  auto session = sessions_.find(*id, owner);
  if (!session) {
    sink->respond(rpc_error_response(404, invalid_request,
                                     "Not Found: session " + *id + " does not exist or its stream has closed; "
                                     "open a new one with GET " + std::string(stream_path)));
    return;
  }
  if (!is_json_content(request)) {
    sink->respond(rpc_error_response(415, invalid_request,
                                     "Unsupported Media Type: the body must be application/json"));
    return;
  }
  session->touch();
  // Everything goes out on the session's stream; the POST itself is only acknowledged.
  auto to_stream = [session](std::string message, bool) {
    if (!message.empty()) session->send(std::move(message));
  };
  auto parsed = protocol::parse_json(request.body());
  if (auto* body = std::get_if<nlohmann::json>(&parsed)) {
    sink->name_method(body_method(*body));
    session->protocol().receive_parsed(*body, std::move(to_stream));
  } else {
    session->protocol().receive(std::string_view(request.body()), std::move(to_stream));  // answers the parse error
  }
  sink->respond(empty_response(202));
}

}  // namespace mcpread::server::http
