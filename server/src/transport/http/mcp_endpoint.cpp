#include "mcp_endpoint.hpp"

#include "answer.hpp"
#include "metrics.hpp"
#include "replies.hpp"
#include "stateless_headers.hpp"

#include <spdlog/spdlog.h>

namespace mcpread::server::http {

namespace bhttp = boost::beast::http;
using nlohmann::json;
namespace protocol = mcpread::protocol;

namespace {

constexpr int invalid_request = protocol::error_code::invalid_request;

bool is_known_version(std::string_view v) {
  return protocol::is_supported_version(v) || protocol::is_stateless_version(v);
}

// -32601 answers 404 (the method, not the endpoint, is missing); other refusals 400.
unsigned status_for(int code) { return code == protocol::error_code::method_not_found ? 404 : 400; }

Response unsupported_version(std::string_view version, const json& id) {
  return rpc_error_response_to(id, 400, protocol::error_code::unsupported_protocol_version,
                               "Bad Request: unsupported MCP-Protocol-Version " + std::string(version),
                               json{{"requested", version}, {"supported", protocol::all_versions()}});
}

// Whether a request without a session belongs to protocol 2026-07-28, which has no sessions: its
// _meta names a version, or its MCP-Protocol-Version header names that era (the body's _meta is
// then missing or incomplete, which the stateless check refuses with -32602). "initialize" is a
// session's first request in the older versions, and a method that does not exist in 2026-07-28:
// it goes there only when the request says it is of that era.
bool is_stateless_request(const protocol::Message& m, std::optional<std::string_view> version_header) {
  const bool era_header = version_header && protocol::is_stateless_version(*version_header);
  if (m.method != "initialize") return era_header || protocol::declares_version(m);
  if (era_header) return true;
  const auto meta = m.params.find("_meta");
  if (meta == m.params.end() || !meta->is_object()) return false;
  const auto declared = meta->find(protocol::meta_key::protocol_version);
  return declared != meta->end() && declared->is_string() &&
         protocol::is_stateless_version(declared->get<std::string>());
}

}  // namespace

McpEndpoint::McpEndpoint(const Config& config, SessionRegistry& sessions, protocol::ServerInfo info,
                         std::shared_ptr<HandlerFactory> handlers)
    : config_(config),
      sessions_(sessions),
      info_(info),
      handlers_(std::move(handlers)),
      stateless_(std::move(info), handlers_->stateless_handler(), config.stateless_roots,
                 config.http.routing_prefix()) {}

void McpEndpoint::handle(Request request, std::shared_ptr<ResponseSink> sink, const protocol::Caller& caller) {
  const std::string& owner = caller.owner;
  const auto version = header(request, "MCP-Protocol-Version");
  // A POST's refusal waits for its body: the error answers the request by its id.
  if (version && !is_known_version(*version) && request.method() != bhttp::verb::post) {
    sink->respond(unsupported_version(*version, nullptr));
    return;
  }
  switch (request.method()) {
    case bhttp::verb::post:
      post(request, sink, caller);
      return;
    case bhttp::verb::get:
    case bhttp::verb::delete_:
      // Protocol 2026-07-28 has no sessions and no standalone stream.
      if (version && protocol::is_stateless_version(*version)) {
        sink->respond(empty_response(405, {{"Allow", "POST"}}));
      } else if (request.method() == bhttp::verb::get) {
        open_stream(request, sink, owner);
      } else {
        end_session(request, sink, owner);
      }
      return;
    default:
      sink->respond(empty_response(405, {{"Allow", "GET, POST, DELETE"}}));
  }
}

void McpEndpoint::post(const Request& request, const std::shared_ptr<ResponseSink>& sink,
                       const protocol::Caller& caller) {
  const std::string& owner = caller.owner;
  const auto accept = header(request, "Accept");
  if (!accepts(accept, "application/json") || !accepts(accept, "text/event-stream")) {
    sink->respond(rpc_error_response(406, invalid_request,
                                     "Not Acceptable: the Accept header must allow both application/json "
                                     "and text/event-stream"));
    return;
  }
  if (!is_json_content(request)) {
    sink->respond(rpc_error_response(415, invalid_request,
                                     "Unsupported Media Type: the body must be application/json"));
    return;
  }
  auto parsed = protocol::parse_json(request.body());
  if (auto* e = std::get_if<protocol::MessageError>(&parsed)) {
    sink->respond(rpc_error_response(400, e->code, e->message));
    return;
  }
  json& body = std::get<json>(parsed);
  sink->name_method(body_method(body));
  const json no_id;
  const json& id = body.is_object() && body.contains("id") ? body["id"] : no_id;
  const auto version = header(request, "MCP-Protocol-Version");
  if (version && !is_known_version(*version)) {
    sink->respond(unsupported_version(*version, id));
    return;
  }
  if (body.is_object()) {
    auto message = protocol::to_message(body);
    if (auto* e = std::get_if<protocol::MessageError>(&message)) {
      sink->respond(json_response(400, protocol::serialize(protocol::make_error(*e))));
      return;
    }
    const protocol::Message& m = std::get<protocol::Message>(message);
    if (m.kind == protocol::MessageKind::request && !header(request, "Mcp-Session-Id") &&
        is_stateless_request(m, version)) {
      serve_stateless(m, request, sink, caller);
      return;
    }
    if (m.kind == protocol::MessageKind::request && m.method == "initialize") {
      initialize(body, sink, caller);
      return;
    }
  }
  auto session = session_of(request, sink, id, owner);
  if (!session) return;
  session->touch();
  auto reply = Answer::to(sink);
  // Keep the session alive until its answer is out, even if it is ended meanwhile.
  if (!session->protocol().receive_parsed(body, [session, reply](std::string m, bool final) { reply(std::move(m), final); }))
    sink->respond(empty_response(202));
}

void McpEndpoint::serve_stateless(const protocol::Message& m, const Request& request,
                                  const std::shared_ptr<ResponseSink>& sink, const protocol::Caller& caller) {
  const HeaderLookup lookup = [&request](std::string_view name) { return header(request, name); };
  auto refused = check_stateless_headers(m, lookup);
  if (!refused) refused = stateless_.check(m);
  if (!refused) refused = check_param_headers(m, handlers_->stateless_handler().tools(), lookup);
  if (refused) {
    sink->respond(json_response(refused->code == protocol::error_code::header_mismatch ? 400 : status_for(refused->code),
                                protocol::serialize(protocol::make_error(*refused))));
    return;
  }
  // Closing the answer's connection is this protocol's cancellation, until the final message is
  // out: a call that became a task (its answer was the task's id) then outlives the exchange, and
  // only tasks/cancel or shutdown end it.
  auto cancelled = std::make_shared<std::atomic<bool>>(false);
  auto answered = std::make_shared<std::atomic<bool>>(false);
  sink->on_close([cancelled, answered] {
    if (!answered->load()) cancelled->store(true);
  });
  auto answer = Answer::to(sink, {}, Answer::ErrorStatus::by_code);
  stateless_.serve(m, [answer, answered](std::string message, bool final) {
    if (final) answered->store(true);
    answer(std::move(message), final);
  }, cancelled, caller);
  // A listen stream has no answer that would notice the close: let it go as soon as it closes.
  if (m.method == "subscriptions/listen") sink->on_close([this] { stateless_.drop_cancelled_subscriptions(); });
}

void McpEndpoint::initialize(const json& body, const std::shared_ptr<ResponseSink>& sink,
                             const protocol::Caller& caller) {
  auto session = sessions_.create([this, &caller](const std::string& id) {
    return std::make_shared<HttpSession>(id, *handlers_, info_, config_.stateless_roots, caller);
  }, caller.owner);
  if (!session) {
    sink->respond(rpc_error_response(503, invalid_request,
                                     "Service Unavailable: " + std::to_string(config_.http.max_sessions) +
                                         " sessions are open (--max-sessions); end one with DELETE",
                                     nullptr, {{"Retry-After", "5"}}));
    return;
  }
  const std::string id = session->id();
  session->protocol().receive_parsed(body, [this, sink, id, session](std::string message, bool final) {
    if (!final) return;
    // The answer to initialize is small: parsed, so that an error whose text quotes "result" is
    // never taken for a success (no exceptions: a parse failure is a refusal).
    const json answer = json::parse(message, nullptr, false);
    const bool ok = answer.is_object() && answer.contains("result");
    if (!ok) sessions_.end_any(id);  // a refused initialize leaves no session behind
    sink->respond(json_response(200, std::move(message), ok ? Headers{{"Mcp-Session-Id", id}} : Headers{}));
  });
  spdlog::debug("http: session {} initializing", id);
}

std::shared_ptr<HttpSession> McpEndpoint::session_of(const Request& request,
                                                     const std::shared_ptr<ResponseSink>& sink,
                                                     const json& request_id, const std::string& owner) {
  const auto id = header(request, "Mcp-Session-Id");
  if (!id) {
    sink->respond(rpc_error_response_to(request_id, 400, invalid_request,
                                        "Bad Request: no Mcp-Session-Id header; send initialize first, or "
                                        "give each request _meta[\"io.modelcontextprotocol/protocolVersion\"]"));
    return nullptr;
  }
  auto session = sessions_.find(std::string(*id), owner);
  if (!session)
    sink->respond(rpc_error_response_to(request_id, 404, invalid_request,
                                        "Not Found: session " + std::string(*id) +
                                            " does not exist or has ended; send initialize to start a new one"));
  return session;
}

void McpEndpoint::open_stream(const Request& request, const std::shared_ptr<ResponseSink>& sink,
                              const std::string& owner) {
  if (!accepts(header(request, "Accept"), "text/event-stream")) {
    sink->respond(rpc_error_response(406, invalid_request,
                                     "Not Acceptable: the Accept header must allow text/event-stream"));
    return;
  }
  auto session = session_of(request, sink, nullptr, owner);
  if (!session) return;
  if (session->has_stream()) {
    sink->respond(rpc_error_response(409, invalid_request,
                                     "Conflict: this session's stream is already open; close it first"));
    return;
  }
  sink->open_stream({});
  if (!session->attach_stream(sink)) {
    sink->end_stream();  // opened and closed at once: the session already has its stream
    return;
  }
  sink->on_close([session, raw = sink.get()] { session->detach_stream(raw); });
}

void McpEndpoint::end_session(const Request& request, const std::shared_ptr<ResponseSink>& sink,
                              const std::string& owner) {
  const auto id = header(request, "Mcp-Session-Id");
  if (!id) {
    sink->respond(rpc_error_response(400, invalid_request, "Bad Request: no Mcp-Session-Id header"));
    return;
  }
  if (!sessions_.end(std::string(*id), owner)) {
    sink->respond(rpc_error_response(404, invalid_request, "Not Found: session " + std::string(*id) +
                                                               " does not exist or has ended"));
    return;
  }
  sink->respond(empty_response(200));
}

}  // namespace mcpread::server::http
