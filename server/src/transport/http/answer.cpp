#include "answer.hpp"

#include "replies.hpp"
#include "sse.hpp"

#include "mcpread/protocol/jsonrpc.hpp"

#include <nlohmann/json.hpp>

namespace mcpread::server::http {
namespace {

// The status of a final message sent alone: a response whose only member besides id and jsonrpc
// is an error with one of the codes the 2026-07-28 transport maps; 200 for anything else.
unsigned status_of(const std::string& message) {
  // Serialized with sorted keys, an error response starts with its error; results never parse.
  if (!message.starts_with("{\"error\":")) return 200;
  const auto parsed = nlohmann::json::parse(message, nullptr, false);
  if (!parsed.is_object()) return 200;
  const auto error = parsed.find("error");
  if (error == parsed.end() || !error->is_object()) return 200;
  const auto code_it = error->find("code");
  if (code_it == error->end() || !code_it->is_number_integer()) return 200;
  const auto code = code_it->get<long long>();
  namespace ec = protocol::error_code;
  if (code == ec::method_not_found) return 404;
  if (code == ec::header_mismatch || code == ec::missing_client_capability || code == ec::unsupported_protocol_version)
    return 400;
  return 200;
}

}  // namespace

void Answer::reply(std::string message, bool final) {
  std::lock_guard lock(mutex_);
  if (done_) return;
  if (!final) {
    if (!streaming_) {
      sink_->open_stream(headers_);
      streaming_ = true;
    }
    sink_->event(sse_event("message", std::move(message)));
    return;
  }
  done_ = true;
  if (streaming_) {
    if (!message.empty()) sink_->event(sse_event("message", std::move(message)));
    sink_->end_stream();
  } else if (message.empty()) {
    // Cancelled: the client no longer wants an answer; close the exchange without one.
    sink_->respond(empty_response(202, headers_));
  } else {
    const unsigned status = errors_ == ErrorStatus::by_code ? status_of(message) : 200;
    sink_->respond(json_response(status, std::move(message), headers_));
  }
}

protocol::Reply Answer::to(std::shared_ptr<ResponseSink> sink, Headers headers, ErrorStatus errors) {
  auto answer = std::make_shared<Answer>(std::move(sink), std::move(headers), errors);
  return [answer](std::string message, bool final) { answer->reply(std::move(message), final); };
}

}  // namespace mcpread::server::http
