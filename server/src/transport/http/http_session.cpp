#include "http_session.hpp"

#include "sse.hpp"

#include <spdlog/spdlog.h>

namespace mcpread::server::http {
namespace {
// A client that never opens its stream must not make the session hold messages without end.
constexpr std::size_t max_waiting_messages = 256;
}  // namespace

HttpSession::HttpSession(std::string id, HandlerFactory& handlers, protocol::ServerInfo info,
                         protocol::ClientRoots stateless_roots, const protocol::Caller& caller)
    : id_(std::move(id)),
      logger_(info.name),
      // The handler logs only once the session below exists (it logs in answer to messages).
      handler_(handlers.session_handler([this](protocol::LogLevel level, const std::string& text) {
        session_.log(level, logger_, text);
      }, caller)),
      session_(std::move(info), *handler_, [this](std::string m) { send(std::move(m)); }, stateless_roots),
      last_used_(std::chrono::steady_clock::now()) {}

HttpSession::~HttpSession() { end(); }

bool HttpSession::attach_stream(std::shared_ptr<ResponseSink> sink) {
  std::deque<std::string> waiting;
  {
    std::lock_guard lock(mutex_);
    if (ended_ || (stream_ && !stream_->closed())) return false;
    stream_ = sink;
    waiting.swap(waiting_);
  }
  for (auto& message : waiting) sink->event(sse_event("message", std::move(message)));
  return true;
}

void HttpSession::detach_stream(const ResponseSink* sink) {
  std::lock_guard lock(mutex_);
  if (stream_.get() == sink) stream_.reset();
  last_used_ = std::chrono::steady_clock::now();
}

bool HttpSession::has_stream() const {
  std::lock_guard lock(mutex_);
  return stream_ && !stream_->closed();
}

void HttpSession::send(std::string message) {
  std::shared_ptr<ResponseSink> stream;
  {
    std::lock_guard lock(mutex_);
    if (ended_) return;
    if (!stream_ || stream_->closed()) {
      if (waiting_.size() >= max_waiting_messages) {
        spdlog::warn("http session {}: no stream open; dropping a message", id_);
        return;
      }
      waiting_.push_back(std::move(message));
      return;
    }
    stream = stream_;
  }
  stream->event(sse_event("message", std::move(message)));
}

void HttpSession::touch() {
  std::lock_guard lock(mutex_);
  last_used_ = std::chrono::steady_clock::now();
}

bool HttpSession::idle_since_before(std::chrono::steady_clock::time_point deadline) const {
  std::lock_guard lock(mutex_);
  if (stream_ && !stream_->closed()) return false;
  return last_used_ < deadline && session_.in_flight() == 0;
}

void HttpSession::end() {
  std::shared_ptr<ResponseSink> stream;
  {
    std::lock_guard lock(mutex_);
    if (ended_) return;
    ended_ = true;
    stream.swap(stream_);
    waiting_.clear();
  }
  session_.cancel_all();
  if (stream) stream->end_stream();
}

}  // namespace mcpread::server::http
