#include "answer.hpp"

#include "replies.hpp"
#include "sse.hpp"

namespace mcpread::server::http {

void Answer::reply(std::string message, bool final) {
  std::lock_guard lock(mutex_);
  if (done_) return;
  if (!final) {
    if (!streaming_) {
      sink_->open_stream(headers_);
      streaming_ = true;
    }
    sink_->event(sse_event("message", message));
    return;
  }
  done_ = true;
  if (streaming_) {
    if (!message.empty()) sink_->event(sse_event("message", message));
    sink_->end_stream();
  } else if (message.empty()) {
    // Cancelled: the client no longer wants an answer; close the exchange without one.
    sink_->respond(empty_response(202, headers_));
  } else {
    sink_->respond(json_response(200, std::move(message), headers_));
  }
}

protocol::Reply Answer::to(std::shared_ptr<ResponseSink> sink, Headers headers) {
  auto answer = std::make_shared<Answer>(std::move(sink), std::move(headers));
  return [answer](std::string message, bool final) { answer->reply(std::move(message), final); };
}

}  // namespace mcpread::server::http
